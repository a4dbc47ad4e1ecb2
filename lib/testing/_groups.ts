/**
 * Group routes: create, search (with `visibility`, `member_only` and `user` filters), get, edit,
 * delete, restore, purge, members and the resources shared with a group.
 *
 * @module
 */
import {
  boolQuery,
  can,
  type Ctx,
  intListQuery,
  loadActive,
  readObject,
  requireScopes,
} from "./_context.ts";
import { jsonResponse } from "./_errors.ts";
import { resourceList } from "./_filters.ts";
import { paginate } from "./_pagination.ts";
import { groupJson } from "./_render.ts";
import { insertResource, loadByIdentifier, newResource } from "./_resources.ts";
import { addRevision } from "./_revisions.ts";
import { memberRoutes } from "./_roles.ts";
import { type Route, route } from "./_router.ts";
import { validateResource } from "./_schema.ts";
import { matchesText, sortResources } from "./_search.ts";
import { trashRoutes } from "./_trash.ts";
import { type GroupData, now } from "./_state.ts";

async function create(ctx: Ctx): Promise<Response> {
  const group: GroupData = (await newResource(ctx, "group", [])).resource;
  insertResource(ctx, group);
  addRevision(ctx.state, group, ctx.user.id);
  return jsonResponse(groupJson(ctx, group), 201);
}

function list(ctx: Ctx): Response {
  requireScopes(ctx, "group.read");
  const q = ctx.url.searchParams;
  const query = q.get("query")?.trim().toLowerCase() ?? "";
  const visibility = q.get("visibility");
  const memberOnly = boolQuery(q, "member_only");
  const users = intListQuery(q, "user");
  const items = [...ctx.state.groups.values()].filter((g) =>
    g.state === "active" && can(ctx.state, ctx.user.id, g, "read") &&
    matchesText(g, query) &&
    (visibility !== "private" && visibility !== "public" || g.visibility === visibility) &&
    (!memberOnly || g.userRoles.has(ctx.user.id)) &&
    (users.length === 0 || users.includes(g.creatorId))
  );
  const params: [string, string][] = query === "" ? [] : [["query", query]];
  if (visibility === "private" || visibility === "public") params.push(["visibility", visibility]);
  if (memberOnly) params.push(["member_only", "true"]);
  for (const u of users) params.push(["user", String(u)]);
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  return paginate(
    ctx,
    sortResources(items, sort === "_score" ? null : sort),
    (g) => groupJson(ctx, g),
    { params, search: true, actions: { new_group: `${ctx.base}/groups` } },
  );
}

/**
 * The resources of a kind shared with a group (the group holds a role on them) that the caller
 * can read.
 */
function shared(kind: "record" | "collection" | "template") {
  return (ctx: Ctx): Response => {
    const group = loadActive<GroupData>(ctx, "group", "id", "read", "group.read", `${kind}.read`);
    return resourceList(
      ctx,
      ctx.state.resources(kind).values(),
      (r) => r.groupRoles.has(group.id),
    );
  };
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
    addRevision(ctx.state, group, ctx.user.id);
    return jsonResponse(groupJson(ctx, group));
  }),
  ...trashRoutes<GroupData>({
    kind: "group",
    segment: "groups",
    render: groupJson,
    purgeStatus: 204,
    purge: (state, group) => {
      state.groups.delete(group.id);
      for (const kind of ["record", "collection", "template"] as const) {
        for (const r of state.resources(kind).values()) r.groupRoles.delete(group.id);
      }
    },
  }),
  ...memberRoutes(),
  route("GET", "/groups/:id/records", shared("record")),
  route("GET", "/groups/:id/collections", shared("collection")),
  route("GET", "/groups/:id/templates", shared("template")),
];
