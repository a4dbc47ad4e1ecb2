/**
 * The resources shared with users and groups through roles ({@linkcode SharedResource}: records,
 * collections, templates) and the ones with tags as well ({@linkcode TaggedResource}: records,
 * collections). Each method is one line over its capability module (`./capabilities/roles.ts`,
 * `./capabilities/tags.ts`), so the compiler sees every method a class has.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const collection = await manager.collection({ identifier: "batch-1", create: true });
 * await collection.addTag("raw");
 * assert.deepStrictEqual(await collection.getTags(), ["raw"]);
 * ```
 *
 * @module
 */

import type { GroupRoleJson, PageJson, ResourceJson, UserRoleJson } from "../http/protocol.ts";
import type { ListOptions } from "../http/list_options.ts";
import {
  addRole,
  changeRole,
  getGroupRoles,
  getUserRoles,
  removeRole,
} from "./capabilities/roles.ts";
import { addTag, checkTag, getTags, removeTag, type Tagged } from "./capabilities/tags.ts";
import { Resource } from "./resource.ts";

export type { Tagged };

/**
 * A resource with user and group roles: records, collections and templates.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer({ users: [{ username: "alice" }] });
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const template = await manager.template({ identifier: "t", create: true });
 * const alice = server.users.find((user) => user.username === "alice")!;
 * await template.addUser(alice.id, "member");
 * assert.strictEqual((await template.getUsers()).items.length, 2);
 * ```
 */
export abstract class SharedResource<J extends ResourceJson = ResourceJson> extends Resource<J> {
  /**
   * Gives a user a role (POST `roles/users`).
   *
   * @param userId Id of the user.
   * @param roleName A role of the type (`member`, `collaborator`, `editor`, `admin`; templates
   * have no `collaborator`).
   * @throws {InputError} When the type has no such role; nothing is sent.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await record.addUser(alice.id, "member");
   * const page = await record.getUsers({ exclude: [1] }); // all but the creator
   * assert.deepStrictEqual(page.items.map((r) => [r.user.id, r.role.name]), [[alice.id, "member"]]);
   * ```
   */
  addUser(userId: number, roleName: string): Promise<void> {
    return addRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Changes the role of a user (PATCH `roles/users/<id>`).
   *
   * @param userId Id of the user.
   * @param roleName The new role.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * const roleNames = async () => (await record.getUsers({ exclude: [1] })).items.map((r) => r.role.name);
   * await record.addUser(alice.id, "member");
   * await record.changeUserRole(alice.id, "editor");
   * assert.deepStrictEqual(await roleNames(), ["editor"]);
   * ```
   */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return changeRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Removes the role of a user (DELETE `roles/users/<id>`).
   *
   * @param userId Id of the user.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await record.addUser(alice.id, "member");
   * await record.removeUser(alice.id);
   * assert.strictEqual((await record.getUsers({ exclude: [1] })).items.length, 0);
   * ```
   */
  removeUser(userId: number): Promise<void> {
    return removeRole(this, "users", userId);
  }

  /**
   * Gives a group a role (POST `roles/groups`): shares the resource with the group.
   *
   * @param groupId Id of the group.
   * @param roleName The role.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const group = await manager.group({ identifier: "team", create: true });
   * const groupRoles = async () => (await record.getGroups()).items.map((r) => [r.group.id, r.role.name]);
   * await record.addGroupRole(group.id, "member");
   * assert.deepStrictEqual(await groupRoles(), [[group.id, "member"]]);
   * ```
   */
  addGroupRole(groupId: number, roleName: string): Promise<void> {
    return addRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Changes the role of a group (PATCH `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   * @param roleName The new role.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const group = await manager.group({ identifier: "team", create: true });
   * const groupRoles = async () => (await record.getGroups()).items.map((r) => [r.group.id, r.role.name]);
   * await record.addGroupRole(group.id, "member");
   * await record.changeGroupRole(group.id, "editor");
   * assert.deepStrictEqual(await groupRoles(), [[group.id, "editor"]]);
   * ```
   */
  changeGroupRole(groupId: number, roleName: string): Promise<void> {
    return changeRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Removes the role of a group (DELETE `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const group = await manager.group({ identifier: "team", create: true });
   * await record.addGroupRole(group.id, "member");
   * await record.removeGroupRole(group.id);
   * assert.deepStrictEqual((await record.getGroups()).items, []);
   * ```
   */
  removeGroupRole(groupId: number): Promise<void> {
    return removeRole(this, "groups", groupId);
  }

  /**
   * One page of the users with a role in the resource.
   *
   * @param query `page`, `perPage`, `filter`, `exclude`.
   * @returns The page.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const page = await record.getUsers();
   * assert.deepStrictEqual(page.items.map((r) => r.role.name), ["admin"]); // the creator
   * ```
   */
  getUsers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return getUserRoles(this, query);
  }

  /**
   * One page of the groups with a role in the resource.
   *
   * @param query `page`, `perPage`, `filter`.
   * @returns The page.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * assert.deepStrictEqual((await record.getGroups()).items, []); // shared with no group yet
   * ```
   */
  getGroups(query: ListOptions = {}): Promise<PageJson<GroupRoleJson>> {
    return getGroupRoles(this, query);
  }
}

/**
 * A resource with roles and tags: records and collections.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.addTag("Raw");
 * assert.strictEqual(await record.checkTag("raw"), true);
 * ```
 */
export abstract class TaggedResource<J extends Tagged = Tagged> extends SharedResource<J> {
  /**
   * The tags (from the cached metadata).
   *
   * @returns The tags, sorted.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.addTag("Raw data");
   * assert.deepStrictEqual(await record.getTags(), ["raw data"]);
   * ```
   */
  getTags(): Promise<string[]> {
    return getTags(this);
  }

  /**
   * Whether the resource has a tag (compared in lower case).
   *
   * @param tag The tag.
   * @returns True when present.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.addTag("raw");
   * assert.strictEqual(await record.checkTag("RAW"), true);
   * ```
   */
  checkTag(tag: string): Promise<boolean> {
    return checkTag(this, tag);
  }

  /**
   * Adds a tag (lower-cased); the full tag list is sent, even when the tag is already present.
   *
   * @param tag The tag.
   * @returns The updated metadata.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const meta = await record.addTag("Raw");
   * assert.deepStrictEqual(meta.tags, ["raw"]);
   * ```
   */
  addTag(tag: string): Promise<J> {
    return addTag(this, tag);
  }

  /**
   * Removes a tag.
   *
   * @param tag The tag.
   * @returns The updated metadata.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.addTag("raw");
   * await record.removeTag("raw");
   * assert.deepStrictEqual(await record.getTags(), []);
   * ```
   */
  removeTag(tag: string): Promise<J> {
    return removeTag(this, tag);
  }
}
