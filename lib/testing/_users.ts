/**
 * User routes: the current user, user list, lookup by ID or identity, identities and a user's
 * records.
 *
 * @module
 */
import { IDENTITY_TYPES } from "../http/protocol.ts";
import { boolQuery, can, type Ctx, idParam, requireScopes } from "./_context.ts";
import { jsonResponse, notFound } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { recordJson, userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { matchesText, sortResources } from "./_search.ts";
import type { User } from "./_state.ts";

function loadUser(ctx: Ctx): User {
  requireScopes(ctx, "user.read");
  const user = ctx.state.users.get(idParam(ctx, "id"));
  if (!user) throw notFound();
  return user;
}

function list(ctx: Ctx): Response {
  requireScopes(ctx, "user.read");
  const filter = ctx.url.searchParams.get("filter")?.trim().toLowerCase() ?? "";
  const users = [...ctx.state.users.values()].filter((u) =>
    filter === "" || u.username.includes(filter) || u.displayname.toLowerCase().includes(filter)
  ).reverse();
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  if (boolQuery(ctx.url.searchParams, "inactive")) params.push(["inactive", "true"]);
  return paginate(ctx, users, (u) => userJson(ctx, u), { params });
}

function identities(ctx: Ctx): Response {
  const user = loadUser(ctx);
  return jsonResponse([{
    type: "local",
    username: user.username,
    email: user.email,
    email_confirmed: true,
  }]);
}

function records(ctx: Ctx): Response {
  requireScopes(ctx, "user.read", "record.read");
  const user = loadUser(ctx);
  const q = ctx.url.searchParams;
  const filter = q.get("filter")?.trim().toLowerCase() ?? "";
  const shared = boolQuery(q, "shared");
  let items = [...ctx.state.records.values()].filter((r) => r.state === "active");
  items = shared
    ? items.filter((r) => r.creatorId === ctx.user.id && r.userRoles.has(user.id))
    : items.filter((r) => r.creatorId === user.id && can(ctx.state, ctx.user.id, r, "read"));
  items = items.filter((r) => matchesText(r, filter));
  const params: [string, string][] = [];
  if (filter !== "") params.push(["filter", filter]);
  if (shared) params.push(["shared", "true"]);
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  return paginate(ctx, sortResources(items, sort), (r) => recordJson(ctx, r), { params });
}

/** User routes. */
export const userRoutes: Route[] = [
  route("GET", "/users", list),
  route("GET", "/users/me", (ctx) => {
    requireScopes(ctx, "user.read");
    return jsonResponse(userJson(ctx, ctx.user));
  }),
  route("GET", "/users/:id", (ctx) => jsonResponse(userJson(ctx, loadUser(ctx)))),
  route("GET", "/users/:id/identities", identities),
  route("GET", "/users/:id/records", records),
  route("GET", "/users/:type:str/:username:str", (ctx) => {
    requireScopes(ctx, "user.read");
    const type = ctx.params.type!;
    if (!(IDENTITY_TYPES as readonly string[]).includes(type) || type !== "local") {
      throw notFound();
    }
    const user = [...ctx.state.users.values()].find((u) => u.username === ctx.params.username);
    if (!user) throw notFound();
    return jsonResponse(userJson(ctx, user));
  }),
];
