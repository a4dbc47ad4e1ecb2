/**
 * User routes: the current user, user search, lookup by ID or by identity type and username,
 * identities, and a user's records, collections, templates and groups.
 *
 * @module
 */
import { IDENTITY_TYPES } from "../http/protocol.ts";
import { boolQuery, type Ctx, idParam, requireScopes } from "./_context.ts";
import { jsonResponse, notFound } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { resourceList } from "./_filters.ts";
import { identityJson, userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import type { Kind, User } from "./_state.ts";

function loadUser(ctx: Ctx): User {
  requireScopes(ctx, "user.read");
  const user = ctx.state.users.get(idParam(ctx, "id"));
  if (!user) throw notFound();
  return user;
}

function list(ctx: Ctx): Response {
  requireScopes(ctx, "user.read");
  const filter = ctx.url.searchParams.get("filter")?.trim().toLowerCase() ?? "";
  const inactive = boolQuery(ctx.url.searchParams, "inactive");
  const users = [...ctx.state.users.values()].filter((u) =>
    (inactive || u.state === "active") &&
    (filter === "" || u.username.includes(filter) || u.displayname.toLowerCase().includes(filter))
  ).reverse();
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  if (inactive) params.push(["inactive", "true"]);
  return paginate(ctx, users, (u) => userJson(ctx, u), { params });
}

function identities(ctx: Ctx): Response {
  const user = loadUser(ctx);
  return jsonResponse([identityJson(ctx, user)]);
}

/**
 * A user's records, collections or templates: those the user created that the caller can read,
 * or with `shared=true` those the caller created and shared with the user explicitly.
 */
function owned(kind: Exclude<Kind, "group">) {
  return (ctx: Ctx): Response => {
    requireScopes(ctx, "user.read", `${kind}.read`);
    const user = loadUser(ctx);
    const shared = boolQuery(ctx.url.searchParams, "shared");
    return resourceList(
      ctx,
      ctx.state.resources(kind).values(),
      (r) =>
        shared ? r.creatorId === ctx.user.id && r.userRoles.has(user.id) : r.creatorId === user.id,
      { flags: shared ? ["shared"] : [] },
    );
  };
}

/**
 * A user's groups: those the user created that the caller can read, or with `common=true` the
 * groups both are members of.
 */
function groups(ctx: Ctx): Response {
  requireScopes(ctx, "user.read", "group.read");
  const user = loadUser(ctx);
  const common = boolQuery(ctx.url.searchParams, "common");
  return resourceList(
    ctx,
    ctx.state.groups.values(),
    (g) =>
      common ? g.userRoles.has(user.id) && g.userRoles.has(ctx.user.id) : g.creatorId === user.id,
    { flags: common ? ["common"] : [] },
  );
}

function byIdentity(ctx: Ctx): Response {
  requireScopes(ctx, "user.read");
  const type = ctx.params.type!;
  if (!(IDENTITY_TYPES as readonly string[]).includes(type)) throw notFound();
  const user = [...ctx.state.users.values()].find((u) =>
    u.identityType === type && u.username === ctx.params.username
  );
  if (!user) throw notFound();
  return jsonResponse(userJson(ctx, user));
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
  route("GET", "/users/:id/records", owned("record")),
  route("GET", "/users/:id/collections", owned("collection")),
  route("GET", "/users/:id/templates", owned("template")),
  route("GET", "/users/:id/groups", groups),
  route("GET", "/users/:type:str/:username:str", byIdentity),
];
