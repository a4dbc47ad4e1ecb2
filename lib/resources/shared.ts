/**
 * The resources shared with users and groups through roles ({@linkcode SharedResource}: records,
 * collections, templates) and the ones with tags as well ({@linkcode TaggedResource}: records,
 * collections). Each method is one line over its capability module (`./capabilities/roles.ts`,
 * `./capabilities/tags.ts`), so the compiler sees every method a class has.
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
  /** Gives a user a role ({@linkcode addRole}). */
  addUser(userId: number, roleName: string): Promise<void> {
    return addRole(this, "users", { subjectId: userId, role: roleName });
  }

  /** Changes the role of a user ({@linkcode changeRole}). */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return changeRole(this, "users", { subjectId: userId, role: roleName });
  }

  /** Removes the role of a user ({@linkcode removeRole}). */
  removeUser(userId: number): Promise<void> {
    return removeRole(this, "users", userId);
  }

  /** Gives a group a role, sharing the resource with it ({@linkcode addRole}). */
  addGroupRole(groupId: number, roleName: string): Promise<void> {
    return addRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /** Changes the role of a group ({@linkcode changeRole}). */
  changeGroupRole(groupId: number, roleName: string): Promise<void> {
    return changeRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /** Removes the role of a group ({@linkcode removeRole}). */
  removeGroupRole(groupId: number): Promise<void> {
    return removeRole(this, "groups", groupId);
  }

  /** One page of the users with a role in the resource ({@linkcode getUserRoles}). */
  getUsers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return getUserRoles(this, query);
  }

  /** One page of the groups with a role in the resource ({@linkcode getGroupRoles}). */
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
  /** The tags, from the cached metadata (`capabilities/tags.ts`, {@linkcode getTags}). */
  getTags(): Promise<string[]> {
    return getTags(this);
  }

  /**
   * Whether the resource has a tag, in lower case (`capabilities/tags.ts`, {@linkcode checkTag}).
   */
  checkTag(tag: string): Promise<boolean> {
    return checkTag(this, tag);
  }

  /** Adds a tag, lower-cased (`capabilities/tags.ts`, {@linkcode addTag}). */
  addTag(tag: string): Promise<J> {
    return addTag(this, tag);
  }

  /** Removes a tag (`capabilities/tags.ts`, {@linkcode removeTag}). */
  removeTag(tag: string): Promise<J> {
    return removeTag(this, tag);
  }
}
