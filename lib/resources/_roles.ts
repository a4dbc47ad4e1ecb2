/**
 * {@linkcode RoleResource}: user and group roles of a resource (records, collections, templates).
 *
 * @module
 */

import { InputError } from "../http/errors.ts";
import {
  type GroupRoleJson,
  type PageJson,
  RESOURCE_ROLES,
  type ResourceJson,
  type UserRoleJson,
} from "../http/protocol.ts";
import type { QueryParams } from "../http/url.ts";
import { requireId } from "./_checks.ts";
import { Resource } from "./resource.ts";

/**
 * A resource whose access is managed by user and group roles.
 *
 * @example Usage
 * ```ts ignore
 * await record.addUser(2, "editor");
 * console.log((await record.getUsers()).items.map((item) => item.role.name));
 * ```
 */
export class RoleResource<J extends ResourceJson = ResourceJson> extends Resource<J> {
  /**
   * Gives a user a role (POST `roles/users`).
   *
   * @param userId Id of the user.
   * @param roleName Role, e.g. `member`, `collaborator`, `editor`, `admin` for records.
   * @throws {InputError} When the role does not exist for this resource type.
   */
  async addUser(userId: number, roleName: string): Promise<void> {
    const name = this.#role(roleName);
    const user = { id: requireId(userId, "user id") };
    await this.#send("POST", `${this.endpoint}/roles/users`, { user, role: { name } });
  }

  /**
   * Changes the role of a user (PATCH `roles/users/<id>`).
   *
   * @param userId Id of the user.
   * @param roleName The new role.
   * @throws {InputError} When the role does not exist for this resource type.
   */
  async changeUserRole(userId: number, roleName: string): Promise<void> {
    const name = this.#role(roleName);
    await this.#send("PATCH", `${this.endpoint}/roles/users/${requireId(userId, "user id")}`, {
      name,
    });
  }

  /**
   * Removes the role of a user (DELETE `roles/users/<id>`).
   *
   * @param userId Id of the user.
   */
  async removeUser(userId: number): Promise<void> {
    await this.#send("DELETE", `${this.endpoint}/roles/users/${requireId(userId, "user id")}`);
  }

  /**
   * Gives a group a role (POST `roles/groups`).
   *
   * @param groupId Id of the group.
   * @param roleName Role name.
   * @throws {InputError} When the role does not exist for this resource type.
   */
  async addGroupRole(groupId: number, roleName: string): Promise<void> {
    const name = this.#role(roleName);
    const group = { id: requireId(groupId, "group id") };
    await this.#send("POST", `${this.endpoint}/roles/groups`, { group, role: { name } });
  }

  /**
   * Changes the role of a group (PATCH `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   * @param roleName The new role.
   * @throws {InputError} When the role does not exist for this resource type.
   */
  async changeGroupRole(groupId: number, roleName: string): Promise<void> {
    const name = this.#role(roleName);
    await this.#send(
      "PATCH",
      `${this.endpoint}/roles/groups/${requireId(groupId, "group id")}`,
      { name },
    );
  }

  /**
   * Removes the role of a group (DELETE `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   */
  async removeGroupRole(groupId: number): Promise<void> {
    await this.#send("DELETE", `${this.endpoint}/roles/groups/${requireId(groupId, "group id")}`);
  }

  /**
   * One page of the users with a role in the resource.
   *
   * @param query `page`, `per_page`, `filter`, `exclude`.
   * @returns The page.
   */
  async getUsers(query: QueryParams = {}): Promise<PageJson<UserRoleJson>> {
    return await this.transport.json("GET", `${this.endpoint}/roles/users`, { query });
  }

  /**
   * One page of the groups with a role in the resource.
   *
   * @param query `page`, `per_page`, `filter`.
   * @returns The page.
   */
  async getGroups(query: QueryParams = {}): Promise<PageJson<GroupRoleJson>> {
    return await this.transport.json("GET", `${this.endpoint}/roles/groups`, { query });
  }

  #role(roleName: string): string {
    const type = this.type;
    const roles: readonly string[] = type === "user" ? [] : RESOURCE_ROLES[type];
    if (!roles.includes(roleName)) {
      throw new InputError(
        `Invalid role '${roleName}' for a ${type}: use one of ${roles.join(", ")}`,
      );
    }
    return roleName;
  }

  async #send(method: string, endpoint: string, json?: unknown): Promise<void> {
    const response = await this.transport.request(
      method,
      endpoint,
      json === undefined ? {} : { json },
    );
    await response.body?.cancel();
  }
}
