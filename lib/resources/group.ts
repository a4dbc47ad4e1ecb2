/**
 * {@linkcode RepoGroup}: a group — its metadata, members and their roles, the resources shared
 * with it, revisions and trash state.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "./resource.ts";
 * import { RepoGroup } from "./group.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const group = await openResource(transport, RepoGroup, { identifier: "team", create: true });
 * const members = await group.getMembers();
 * console.log(members.items.length); // 1
 * ```
 *
 * @module
 */

import type {
  CollectionJson,
  GroupJson,
  PageJson,
  RecordJson,
  TemplateJson,
  UserRoleJson,
} from "../http/protocol.ts";
import { groupResourcesPath } from "../http/paths.ts";
import type { ListOptions } from "../http/list_options.ts";
import { getPage } from "./capabilities/context.ts";
import * as members from "./capabilities/members.ts";
import { Resource } from "./resource.ts";

/**
 * A group on the server.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer({ users: [{ username: "alice" }] });
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const alice = server.users.find((user) => user.username === "alice")!;
 * const group = await manager.group({ identifier: "team", create: true });
 * await group.addUser(alice.id, "member");
 * await group.changeUserRole(alice.id, "admin");
 * assert.strictEqual(group.created, true);
 * ```
 */
export class RepoGroup extends Resource<GroupJson> {
  /** Resource type of the class. */
  static override readonly type = "group";

  /**
   * Adds a member with a role (`member`, `editor` or `admin`).
   *
   * @param userId Id of the user.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await group.addUser(alice.id, "member");
   * const members = await Array.fromAsync(group.members());
   * assert.ok(members.some((member) => member.user.id === alice.id));
   * ```
   */
  addUser(userId: number, roleName: string): Promise<void> {
    return members.addMember(this, { userId, role: roleName });
  }

  /**
   * Changes a member's role.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await group.addUser(alice.id, "member");
   * await group.changeUserRole(alice.id, "admin");
   * const members = await Array.fromAsync(group.members());
   * assert.strictEqual(members.find((member) => member.user.id === alice.id)?.role.name, "admin");
   * ```
   */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return members.changeMember(this, { userId, role: roleName });
  }

  /**
   * Removes a member.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await group.addUser(alice.id, "member");
   * await group.removeUser(alice.id);
   * const members = await Array.fromAsync(group.members());
   * assert.ok(!members.some((member) => member.user.id === alice.id));
   * ```
   */
  removeUser(userId: number): Promise<void> {
    return members.removeMember(this, userId);
  }

  /**
   * One page of the members and their roles, the creator first.
   *
   * @param query `filter`, `exclude`, `page`, `perPage`.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await group.addUser(alice.id, "member");
   * const page = await group.getMembers({ per_page: 10 });
   * assert.strictEqual(page.items.length, 2); // the creator and alice
   * ```
   */
  getMembers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return members.getMembers(this, query);
  }

  /**
   * One page of the members (the reference client's name for {@linkcode RepoGroup.getMembers}).
   *
   * @param query `filter`, `exclude`, `page`, `perPage`.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * await group.addUser(alice.id, "member");
   * const page = await group.getUsers({ exclude: [1] });
   * assert.deepStrictEqual(page.items.map((member) => member.user.id), [alice.id]);
   * ```
   */
  getUsers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return members.getMembers(this, query);
  }

  /**
   * Every member with their role.
   *
   * @param query `filter`, `exclude`.
   * @returns An async iterator over the members.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer({ users: [{ username: "alice" }] });
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * const members = await Array.fromAsync(group.members());
   * assert.deepStrictEqual(members.map((member) => member.role.name), ["admin"]); // the creator
   * ```
   */
  members(query: ListOptions = {}): AsyncGenerator<UserRoleJson, void, undefined> {
    return members.members(this, query);
  }

  /**
   * One page of the records shared with the group (that you can read).
   *
   * @param query `filter`, `sort`, `page`, `perPage`.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * const page = await group.getRecords({ per_page: 10 });
   * assert.deepStrictEqual(page.items, []); // no record is shared with the new group
   * ```
   */
  getRecords(query: ListOptions = {}): Promise<PageJson<RecordJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "record"), query);
  }

  /**
   * One page of the collections shared with the group.
   *
   * @param query `filter`, `sort`, `page`, `perPage`.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * const page = await group.getCollections();
   * assert.deepStrictEqual(page.items, []); // no collection is shared with the new group
   * ```
   */
  getCollections(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "collection"), query);
  }

  /**
   * One page of the templates shared with the group.
   *
   * @param query `filter`, `sort`, `page`, `perPage`.
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
   * const group = await manager.group({ identifier: "team", create: true });
   * const alice = server.users.find((user) => user.username === "alice")!;
   * const page = await group.getTemplates();
   * assert.deepStrictEqual(page.items, []); // no template is shared with the new group
   * ```
   */
  getTemplates(query: ListOptions = {}): Promise<PageJson<TemplateJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "template"), query);
  }
}
