/**
 * {@linkcode RepoGroup}: a group — its metadata, members and their roles, the resources shared
 * with it, revisions and trash state.
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
 * @example Members and shared resources
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
 * const members = await Array.fromAsync(group.members());
 * assert.deepStrictEqual(members.map((member) => member.role.name), ["admin", "admin"]);
 * await group.removeUser(alice.id);
 * assert.strictEqual((await group.getMembers()).items.length, 1); // the creator
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.addGroupRole(group.id, "member");
 * assert.deepStrictEqual((await group.getRecords()).items.map((item) => item.id), [record.id]);
 * const others = [await group.getCollections(), await group.getTemplates()];
 * assert.deepStrictEqual(others.map((page) => page.items), [[], []]);
 * ```
 */
export class RepoGroup extends Resource<GroupJson> {
  /** Resource type of the class. */
  static override readonly type = "group";

  /** Adds a member with a role: `member`, `editor` or `admin` ({@linkcode members.addMember}). */
  addUser(userId: number, roleName: string): Promise<void> {
    return members.addMember(this, { userId, role: roleName });
  }

  /** Changes a member's role ({@linkcode members.changeMember}). */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return members.changeMember(this, { userId, role: roleName });
  }

  /** Removes a member ({@linkcode members.removeMember}). */
  removeUser(userId: number): Promise<void> {
    return members.removeMember(this, userId);
  }

  /**
   * One page of the members and their roles, the creator first ({@linkcode members.getMembers}).
   */
  getMembers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return members.getMembers(this, query);
  }

  /** Alias of {@linkcode RepoGroup.getMembers} (the reference client's name). */
  getUsers(query: ListOptions = {}): Promise<PageJson<UserRoleJson>> {
    return members.getMembers(this, query);
  }

  /** Iterates over the members with their roles ({@linkcode members.members}). */
  members(query: ListOptions = {}): AsyncGenerator<UserRoleJson, void, undefined> {
    return members.members(this, query);
  }

  /** One page of the records shared with the group that you can read. */
  getRecords(query: ListOptions = {}): Promise<PageJson<RecordJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "record"), query);
  }

  /** One page of the collections shared with the group that you can read. */
  getCollections(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "collection"), query);
  }

  /** One page of the templates shared with the group that you can read. */
  getTemplates(query: ListOptions = {}): Promise<PageJson<TemplateJson>> {
    return getPage(this.transport, groupResourcesPath(this.id, "template"), query);
  }
}
