/**
 * Capability: members of a group and their roles (`/groups/<id>/members[/<user id>]`).
 *
 * @module
 */

import type { PageJson, ResourceJson, UserRoleJson } from "../../http/protocol.ts";
import { membersPath } from "../../http/paths.ts";
import type { ListOptions } from "../../http/list_options.ts";
import { requireId } from "../_checks.ts";
import { allItems, getPage, type MetaContext, type ResourceContext, send } from "./context.ts";
import { checkRole } from "./roles.ts";

/**
 * Adds a member with a role (POST `_actions.add_member`).
 *
 * @param ctx The group.
 * @param grant The user's id and role (`member`, `editor`, `admin`).
 */
export async function addMember(
  ctx: MetaContext<ResourceJson>,
  grant: { userId: number; role: string },
): Promise<void> {
  const name = checkRole(ctx, grant.role);
  const id = requireId(grant.userId, "user id");
  const endpoint = (await ctx.meta())._actions.add_member ?? membersPath(ctx.id);
  await send(ctx.transport, "POST", endpoint, { json: { user: { id }, role: { name } } });
}

/**
 * Changes a member's role (PATCH `members/<user id>`).
 *
 * @param ctx The group.
 * @param grant The user's id and new role.
 */
export async function changeMember(
  ctx: ResourceContext,
  grant: { userId: number; role: string },
): Promise<void> {
  const name = checkRole(ctx, grant.role);
  await send(ctx.transport, "PATCH", membersPath(ctx.id, grant.userId), { json: { name } });
}

/**
 * Removes a member (DELETE `members/<user id>`).
 *
 * @param ctx The group.
 * @param userId Id of the user.
 */
export async function removeMember(ctx: ResourceContext, userId: number): Promise<void> {
  await send(ctx.transport, "DELETE", membersPath(ctx.id, userId));
}

/**
 * One page of the members with their roles, the creator first.
 *
 * @param ctx The group.
 * @param query `filter`, `exclude`, `page`, `perPage`.
 * @returns The page.
 */
export async function getMembers(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<UserRoleJson>> {
  return await getPage(ctx.transport, membersPath(ctx.id), query);
}

/**
 * Every member with their role.
 *
 * @param ctx The group.
 * @param query `filter`, `exclude`.
 * @returns An async iterator over the members.
 */
export function members(
  ctx: ResourceContext,
  query: ListOptions = {},
): AsyncGenerator<UserRoleJson, void, undefined> {
  return allItems(ctx.transport, membersPath(ctx.id), query);
}
