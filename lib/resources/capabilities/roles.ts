/**
 * Capability: user and group roles of a record, collection or template
 * (`<base>/<id>/roles/users|groups[/<id>]`).
 *
 * @module
 */

import { InputError } from "../../http/errors.ts";
import {
  type GroupRoleJson,
  type PageJson,
  RESOURCE_ROLES,
  type UserRoleJson,
} from "../../http/protocol.ts";
import { rolesPath } from "../../http/paths.ts";
import type { ListOptions } from "../../http/list_options.ts";
import { requireId } from "../_checks.ts";
import { getPage, type ResourceContext, send } from "./context.ts";

/** Users or groups. */
type RoleSubject = "users" | "groups";

/**
 * Checks a role name against the roles of the context's resource type.
 *
 * @param ctx The resource.
 * @param roleName The role.
 * @returns The role name.
 * @throws {InputError} When the type has no such role.
 */
export function checkRole(ctx: Pick<ResourceContext, "type">, roleName: string): string {
  const roles: readonly string[] = ctx.type === "user" ? [] : RESOURCE_ROLES[ctx.type];
  if (!roles.includes(roleName)) {
    throw new InputError(
      `Invalid role '${roleName}' for a ${ctx.type}: use one of ${roles.join(", ")}`,
    );
  }
  return roleName;
}

/**
 * Gives a user or group a role (POST `roles/<subject>`).
 *
 * @param ctx The resource.
 * @param subject `users` or `groups`.
 * @param grant The subject's id and the role.
 */
async function addRole(
  ctx: ResourceContext,
  subject: RoleSubject,
  grant: { subjectId: number; role: string },
): Promise<void> {
  const name = checkRole(ctx, grant.role);
  const key = subject === "users" ? "user" : "group";
  const id = requireId(grant.subjectId, `${key} id`);
  await send(ctx.transport, "POST", rolesPath(ctx, subject), {
    json: { [key]: { id }, role: { name } },
  });
}

/**
 * Changes the role of a user or group (PATCH `roles/<subject>/<id>`).
 *
 * @param ctx The resource.
 * @param subject `users` or `groups`.
 * @param grant The subject's id and the new role.
 */
async function changeRole(
  ctx: ResourceContext,
  subject: RoleSubject,
  grant: { subjectId: number; role: string },
): Promise<void> {
  const name = checkRole(ctx, grant.role);
  await send(ctx.transport, "PATCH", rolesPath(ctx, subject, grant.subjectId), { json: { name } });
}

/**
 * Removes the role of a user or group (DELETE `roles/<subject>/<id>`).
 *
 * @param ctx The resource.
 * @param subject `users` or `groups`.
 * @param subjectId Id of the user or group.
 */
async function removeRole(
  ctx: ResourceContext,
  subject: RoleSubject,
  subjectId: number,
): Promise<void> {
  await send(ctx.transport, "DELETE", rolesPath(ctx, subject, subjectId));
}

/**
 * One page of the users with a role in the resource.
 *
 * @param ctx The resource.
 * @param query `page`, `perPage`, `filter`, `exclude`.
 * @returns The page.
 */
async function getUserRoles(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<UserRoleJson>> {
  return await getPage(ctx.transport, rolesPath(ctx, "users"), query);
}

/**
 * One page of the groups with a role in the resource.
 *
 * @param ctx The resource.
 * @param query `page`, `perPage`, `filter`.
 * @returns The page.
 */
async function getGroupRoles(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<GroupRoleJson>> {
  return await getPage(ctx.transport, rolesPath(ctx, "groups"), query);
}

/** The role methods of records, collections and templates (mixed in from {@linkcode ROLE_METHODS}). */
export interface RoleMethods {
  /**
   * Gives a user a role (POST `roles/users`).
   *
   * @param userId Id of the user.
   * @param roleName A role of the type (`member`, `collaborator`, `editor`, `admin`; templates
   * have no `collaborator`).
   * @throws {InputError} When the type has no such role; nothing is sent.
   */
  addUser(userId: number, roleName: string): Promise<void>;
  /**
   * Changes the role of a user (PATCH `roles/users/<id>`).
   *
   * @param userId Id of the user.
   * @param roleName The new role.
   */
  changeUserRole(userId: number, roleName: string): Promise<void>;
  /**
   * Removes the role of a user (DELETE `roles/users/<id>`).
   *
   * @param userId Id of the user.
   */
  removeUser(userId: number): Promise<void>;
  /**
   * Gives a group a role (POST `roles/groups`): shares the resource with the group.
   *
   * @param groupId Id of the group.
   * @param roleName The role.
   */
  addGroupRole(groupId: number, roleName: string): Promise<void>;
  /**
   * Changes the role of a group (PATCH `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   * @param roleName The new role.
   */
  changeGroupRole(groupId: number, roleName: string): Promise<void>;
  /**
   * Removes the role of a group (DELETE `roles/groups/<id>`).
   *
   * @param groupId Id of the group.
   */
  removeGroupRole(groupId: number): Promise<void>;
  /**
   * One page of the users with a role in the resource.
   *
   * @param query `page`, `perPage`, `filter`, `exclude`.
   * @returns The page.
   */
  getUsers(query?: ListOptions): Promise<PageJson<UserRoleJson>>;
  /**
   * One page of the groups with a role in the resource.
   *
   * @param query `page`, `perPage`, `filter`.
   * @returns The page.
   */
  getGroups(query?: ListOptions): Promise<PageJson<GroupRoleJson>>;
}

/** The role methods, written once; a class mixes them into its prototype. */
export const ROLE_METHODS: RoleMethods & ThisType<ResourceContext> = {
  addUser(userId, roleName) {
    return addRole(this, "users", { subjectId: userId, role: roleName });
  },
  changeUserRole(userId, roleName) {
    return changeRole(this, "users", { subjectId: userId, role: roleName });
  },
  removeUser(userId) {
    return removeRole(this, "users", userId);
  },
  addGroupRole(groupId, roleName) {
    return addRole(this, "groups", { subjectId: groupId, role: roleName });
  },
  changeGroupRole(groupId, roleName) {
    return changeRole(this, "groups", { subjectId: groupId, role: roleName });
  },
  removeGroupRole(groupId) {
    return removeRole(this, "groups", groupId);
  },
  getUsers(query = {}) {
    return getUserRoles(this, query);
  },
  getGroups(query = {}) {
    return getGroupRoles(this, query);
  },
};
