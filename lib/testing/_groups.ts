/**
 * Group routes (minimal): create, list, get, edit, delete and members.
 *
 * @module
 */
import {
  can,
  type Ctx,
  idParam,
  isObject,
  loadActive,
  readObject,
  requireScopes,
  ROLE_ACTIONS,
} from "./_context.ts";
import { HttpError, jsonResponse, notFound, validationError } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { groupJson, userJson } from "./_render.ts";
import { loadByIdentifier, newResource } from "./_resources.ts";
import { type Route, route } from "./_router.ts";
import { validateResource } from "./_schema.ts";
import { matchesText, sortResources } from "./_search.ts";
import { type GroupData, now } from "./_state.ts";

async function create(ctx: Ctx): Promise<Response> {
  const group: GroupData = (await newResource(ctx, "group", [])).resource;
  ctx.state.groups.set(group.id, group);
  return jsonResponse(groupJson(ctx, group), 201);
}

function list(ctx: Ctx): Response {
  requireScopes(ctx, "group.read");
  const query = ctx.url.searchParams.get("query")?.trim().toLowerCase() ?? "";
  const items = [...ctx.state.groups.values()].filter((g) =>
    g.state === "active" && can(ctx.state, ctx.user.id, g, "read") &&
    matchesText(g, query)
  );
  const sort = ctx.url.searchParams.get("sort");
  const params: [string, string][] = query === "" ? [] : [["query", query]];
  return paginate(
    ctx,
    sortResources(items, sort === "_score" ? null : sort),
    (g) => groupJson(ctx, g),
    {
      params,
      search: true,
      actions: { new_group: `${ctx.base}/groups` },
    },
  );
}

async function addMember(ctx: Ctx): Promise<Response> {
  const group = loadActive<GroupData>(ctx, "group", "id", "members", "group.members");
  const body = await readObject(ctx);
  const uid = isObject(body.user) ? body.user.id : undefined;
  const role = isObject(body.role) ? body.role.name : undefined;
  const names = Object.keys(ROLE_ACTIONS.group);
  if (typeof uid !== "number") {
    throw validationError({ user: { id: ["Missing data for required field."] } });
  }
  if (typeof role !== "string" || !names.includes(role)) {
    throw validationError({ role: { name: [`Must be one of: ${names.join(", ")}.`] } });
  }
  if (!ctx.state.users.has(uid)) throw notFound();
  if (group.userRoles.has(uid)) {
    throw new HttpError(409, "A role for that resource already exists.");
  }
  group.userRoles.set(uid, role);
  return jsonResponse({}, 201);
}

/** Group routes. */
export const groupRoutes: Route[] = [
  route("GET", "/groups", list),
  route("POST", "/groups", create),
  route(
    "GET",
    "/groups/identifier/:identifier:str",
    (ctx) => jsonResponse(groupJson(ctx, loadByIdentifier<GroupData>(ctx, "group"))),
  ),
  route(
    "GET",
    "/groups/:id",
    (ctx) =>
      jsonResponse(groupJson(ctx, loadActive<GroupData>(ctx, "group", "id", "read", "group.read"))),
  ),
  route("PATCH", "/groups/:id", async (ctx) => {
    const group = loadActive<GroupData>(ctx, "group", "id", "update", "group.update");
    const input = validateResource(ctx.state, "group", await readObject(ctx), {
      partial: true,
      selfId: group.id,
      fields: [],
    });
    Object.assign(group, input, { lastModified: now() });
    return jsonResponse(groupJson(ctx, group));
  }),
  route("DELETE", "/groups/:id", (ctx) => {
    const group = loadActive<GroupData>(ctx, "group", "id", "delete", "group.delete");
    group.state = "deleted";
    group.deletedAt = now();
    return new Response(null, { status: 204 });
  }),
  route("GET", "/groups/:id/members", (ctx) => {
    const group = loadActive<GroupData>(ctx, "group", "id", "read", "group.read", "user.read");
    const items = [...group.userRoles].sort(([a], [b]) =>
      Number(b === group.creatorId) - Number(a === group.creatorId) || a - b
    );
    return paginate(ctx, items, ([uid, role]) => {
      const url = `${ctx.base}/groups/${group.id}/members/${uid}`;
      return {
        user: userJson(ctx, ctx.state.users.get(uid)!),
        role: { name: role },
        _actions: { remove: url, change: url },
      };
    });
  }),
  route("POST", "/groups/:id/members", addMember),
  route("DELETE", "/groups/:id/members/:user", (ctx) => {
    const group = loadActive<GroupData>(ctx, "group", "id", "members", "group.members");
    const uid = idParam(ctx, "user");
    if (uid === group.creatorId) throw new HttpError(409, "Cannot remove the creator's role.");
    if (!group.userRoles.delete(uid)) throw new HttpError(404, "Role does not exist.");
    return new Response(null, { status: 204 });
  }),
];
