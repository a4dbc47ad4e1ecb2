/**
 * Miscellaneous routes: API index, instance info, roles, tags, licenses and the trash.
 *
 * @module
 */
import { can, type Ctx, requireScopes, ROLE_ACTIONS } from "./_context.ts";
import { jsonResponse } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { type Route, route } from "./_router.ts";
import { LICENSES } from "./_schema.ts";
import type { Kind, Resource } from "./_state.ts";

/** Version the local server reports at `/info`. */
export const SERVER_VERSION = "1.13.0";

const ACTION_TEXT: Record<string, string> = {
  read: "View this resource.",
  link: "Manage links of this resource with other resources.",
  update: "Edit this resource.",
  permissions: "Manage permissions of this resource.",
  delete: "Delete this resource.",
  members: "Manage members of this group.",
};

function roles(): Response {
  const body: Record<string, unknown> = {};
  for (const kind of ["record", "collection", "template", "group"]) {
    const table = ROLE_ACTIONS[kind as Kind];
    body[kind] = Object.entries(table).map(([name, actions]) => ({
      name,
      permissions: actions.map((action) => ({ action, description: ACTION_TEXT[action] })),
    }));
  }
  return jsonResponse(body);
}

function tags(ctx: Ctx): Response {
  const q = ctx.url.searchParams;
  const filter = q.get("filter")?.trim().toLowerCase() ?? "";
  const type = q.get("type");
  const kinds: Kind[] = type === "record" || type === "collection" ? [type] : [
    "record",
    "collection",
  ];
  const names = new Set<string>();
  for (const kind of kinds) {
    for (const r of ctx.state.resources(kind).values()) {
      if (r.state !== "active" || !can(ctx.state, ctx.user.id, r, "read")) continue;
      for (const tag of (r as Resource & { tags: string[] }).tags) {
        if (tag.includes(filter)) names.add(tag);
      }
    }
  }
  const params: [string, string][] = [];
  if (filter !== "") params.push(["filter", filter]);
  if (type !== null) params.push(["type", type]);
  return paginate(ctx, [...names].sort(), (name) => ({ name }), { params });
}

function licenses(ctx: Ctx): Response {
  const filter = ctx.url.searchParams.get("filter")?.trim().toLowerCase() ?? "";
  const items = LICENSES.filter((l) =>
    l.name.toLowerCase().includes(filter) || l.title.toLowerCase().includes(filter)
  ).sort((a, b) => a.title.localeCompare(b.title));
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  return paginate(ctx, items, (l) => ({ ...l }), { params });
}

function trash(ctx: Ctx): Response {
  requireScopes(ctx, "misc.manage_trash");
  const filter = ctx.url.searchParams.get("filter")?.trim().toLowerCase() ?? "";
  const items: Resource[] = [];
  for (const kind of ["record", "collection", "template", "group"] as const) {
    for (const r of ctx.state.resources(kind).values()) {
      if (r.state === "deleted" && r.creatorId === ctx.user.id && r.identifier.includes(filter)) {
        items.push(r);
      }
    }
  }
  items.sort((a, b) => (b.deletedAt ?? "").localeCompare(a.deletedAt ?? "") || b.id - a.id);
  const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
  return paginate(ctx, items, (r) => {
    const self = `${ctx.base}/${r.kind}s/${r.id}`;
    return {
      id: r.id,
      identifier: r.identifier,
      type: r.kind,
      deleted_at: r.deletedAt,
      _actions: { restore: `${self}/restore`, purge: `${self}/purge` },
    };
  }, { params });
}

function index(ctx: Ctx): Response {
  const body: Record<string, string> = {};
  for (
    const key of [
      "collections",
      "groups",
      "info",
      "licenses",
      "records",
      "roles",
      "tags",
      "templates",
      "trash",
      "users",
    ]
  ) {
    body[key] = `${ctx.base}/${key}`;
  }
  return jsonResponse(body);
}

/** Miscellaneous routes. */
export const miscRoutes: Route[] = [
  route("GET", "/", index),
  route("GET", "/info", () => jsonResponse({ version: SERVER_VERSION })),
  route("GET", "/roles", roles),
  route("GET", "/tags", tags),
  route("GET", "/licenses", licenses),
  route("GET", "/trash", trash),
];
