/**
 * The search filters the resource searches share (`query`, `visibility`, `explicit_permissions`,
 * `user`, `tag` with `tag_operator`), applied in one place and echoed into the page links.
 *
 * @module
 */
import { boolQuery, can, type Ctx, intListQuery } from "./_context.ts";
import { paginate } from "./_pagination.ts";
import { resourceJson } from "./_render.ts";
import { matchesText, sortResources } from "./_search.ts";
import type { Resource, State } from "./_state.ts";

/** Which shared filters a search accepts. */
export type SharedFilter = "query" | "visibility" | "explicit_permissions" | "user" | "tag";

/**
 * Whether a user holds an explicit role on a resource, directly or through an active group.
 *
 * @returns True with an explicit role.
 */
export function hasExplicitRole(state: State, userId: number, r: Resource): boolean {
  if (r.userRoles.has(userId)) return true;
  return [...r.groupRoles.keys()].some((g) => {
    const group = state.groups.get(g);
    return group?.state === "active" && group.userRoles.has(userId);
  });
}

/**
 * Filters the active resources the caller can read by the shared search parameters. `query`
 * matches title or identifier (exactly when wrapped in double quotes).
 *
 * @param accepted Which shared filters the endpoint accepts.
 * @returns The matching resources and the parameters to repeat in page links.
 */
export function searchFilters<T extends Resource>(
  ctx: Ctx,
  all: Iterable<T>,
  accepted: readonly SharedFilter[],
): { items: T[]; params: [string, string][] } {
  const q = ctx.url.searchParams;
  const { state } = ctx;
  const params: [string, string][] = [];
  let items = [...all].filter((r) => r.state === "active" && can(state, ctx.user.id, r, "read"));
  const query = accepted.includes("query") ? q.get("query")?.trim() ?? "" : "";
  if (query !== "") {
    params.push(["query", query]);
    const exact = query.length >= 2 && query.startsWith('"') && query.endsWith('"');
    const needle = (exact ? query.slice(1, -1) : query).toLowerCase();
    items = items.filter((r) => {
      const fields = [r.title.toLowerCase(), r.identifier];
      return exact ? fields.includes(needle) : fields.some((f) => f.includes(needle));
    });
  }
  const visibility = accepted.includes("visibility") ? q.get("visibility") : null;
  if (visibility === "private" || visibility === "public") {
    params.push(["visibility", visibility]);
    items = items.filter((r) => r.visibility === visibility);
  }
  if (accepted.includes("explicit_permissions") && boolQuery(q, "explicit_permissions")) {
    params.push(["explicit_permissions", "true"]);
    items = items.filter((r) => hasExplicitRole(state, ctx.user.id, r));
  }
  const users = accepted.includes("user") ? intListQuery(q, "user") : [];
  if (users.length > 0) {
    for (const u of users) params.push(["user", String(u)]);
    items = items.filter((r) => users.includes(r.creatorId));
  }
  const tags = accepted.includes("tag")
    ? q.getAll("tag").map((t) => t.trim().toLowerCase()).filter((t) => t !== "")
    : [];
  if (tags.length > 0) {
    const and = q.get("tag_operator") === "and";
    for (const t of tags) params.push(["tag", t]);
    params.push(["tag_operator", and ? "and" : "or"]);
    items = items.filter((r) => {
      const own = "tags" in r && Array.isArray(r.tags) ? r.tags as string[] : [];
      return and ? tags.every((t) => own.includes(t)) : tags.some((t) => own.includes(t));
    });
  }
  return { items, params };
}

/** Options of {@linkcode resourceList}. */
export interface ResourceListOptions<T extends Resource> {
  /** Boolean query parameters of the list that are set (repeated in page links). */
  flags?: string[];
  /** Item renderer (default: {@linkcode resourceJson}). */
  render?: (r: T) => unknown;
}

/**
 * One page of a plain resource list (a collection's records or children, a record's collections,
 * a user's or a group's resources): the active candidates the caller can read that pass `keep`,
 * the `filter` parameter (title or identifier) and the `action` parameters (further actions the
 * caller must hold on each), sorted by `sort`.
 *
 * @param keep Which candidates belong to the list.
 * @param options Set flags and the renderer.
 */
export function resourceList<T extends Resource>(
  ctx: Ctx,
  candidates: Iterable<T>,
  keep: (r: T) => boolean,
  options: ResourceListOptions<T> = {},
): Response {
  const q = ctx.url.searchParams;
  const filter = q.get("filter")?.trim().toLowerCase() ?? "";
  const actions = q.getAll("action").map((a) => a.trim()).filter((a) => a !== "");
  const items = [...candidates].filter((r) =>
    r.state === "active" && matchesText(r, filter) && keep(r) &&
    ["read", ...actions].every((action) => can(ctx.state, ctx.user.id, r, action))
  );
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  for (const action of actions) params.push(["action", action]);
  for (const flag of options.flags ?? []) params.push([flag, "true"]);
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  const render = options.render ?? ((r: T) => resourceJson(ctx, r));
  return paginate(ctx, sortResources(items, sort), render, { params });
}
