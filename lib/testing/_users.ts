/**
 * User routes: the current user, user search, lookup by ID or by identity type and username,
 * identities, and a user's records, collections, templates and groups.
 *
 * @module
 */
import { IDENTITY_TYPES } from "../http/protocol.ts";
import { boolQuery, can, type Ctx, idParam, requireScopes } from "./_context.ts";
import { jsonResponse, notFound } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { collectionJson, groupJson, recordJson, templateJson, userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { matchesText, sortResources } from "./_search.ts";
import type {
  CollectionData,
  GroupData,
  Kind,
  RecordData,
  Resource,
  TemplateData,
  User,
} from "./_state.ts";

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
    type: user.identityType,
    username: user.username,
    email: user.email,
    email_confirmed: true,
  }]);
}

/** How each kind a user owns is listed. */
const RENDER: Record<Exclude<Kind, "group">, (ctx: Ctx, r: Resource) => unknown> = {
  record: (ctx, r) => recordJson(ctx, r as RecordData),
  collection: (ctx, r) => collectionJson(ctx, r as CollectionData),
  template: (ctx, r) => templateJson(ctx, r as TemplateData),
};

/**
 * A user's records, collections or templates: those the user created that the caller can read,
 * or with `shared=true` those the caller created and shared with the user explicitly.
 */
function owned(kind: Exclude<Kind, "group">) {
  return (ctx: Ctx): Response => {
    requireScopes(ctx, "user.read", `${kind}.read`);
    const user = loadUser(ctx);
    const q = ctx.url.searchParams;
    const filter = q.get("filter")?.trim().toLowerCase() ?? "";
    const shared = boolQuery(q, "shared");
    const items = [...ctx.state.resources(kind).values()].filter((r) =>
      r.state === "active" && matchesText(r, filter) &&
      (shared
        ? r.creatorId === ctx.user.id && r.userRoles.has(user.id)
        : r.creatorId === user.id && can(ctx.state, ctx.user.id, r, "read"))
    );
    const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
    if (shared) params.push(["shared", "true"]);
    const sort = q.get("sort");
    if (sort !== null) params.push(["sort", sort]);
    return paginate(ctx, sortResources(items, sort), (r) => RENDER[kind](ctx, r), { params });
  };
}

/** A user's groups: those the user created that the caller can read, or with `common=true` the
 * groups both are members of. */
function groups(ctx: Ctx): Response {
  requireScopes(ctx, "user.read", "group.read");
  const user = loadUser(ctx);
  const q = ctx.url.searchParams;
  const filter = q.get("filter")?.trim().toLowerCase() ?? "";
  const common = boolQuery(q, "common");
  const items = [...ctx.state.groups.values()].filter((g: GroupData) =>
    g.state === "active" && matchesText(g, filter) &&
    (common
      ? g.userRoles.has(user.id) && g.userRoles.has(ctx.user.id)
      : g.creatorId === user.id && can(ctx.state, ctx.user.id, g, "read"))
  );
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  if (common) params.push(["common", "true"]);
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  return paginate(ctx, sortResources(items, sort), (g) => groupJson(ctx, g), { params });
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
