/**
 * Capability: user and group roles of a record, collection or template
 * (`<base>/<id>/roles/users|groups[/<id>]`).
 *
 * @module
 */

import { InputError } from "../../errors.ts";
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
export type RoleSubject = "users" | "groups";

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
export async function addRole(
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
export async function changeRole(
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
export async function removeRole(
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
export async function getUserRoles(
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
export async function getGroupRoles(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<GroupRoleJson>> {
  return await getPage(ctx.transport, rolesPath(ctx, "groups"), query);
}
