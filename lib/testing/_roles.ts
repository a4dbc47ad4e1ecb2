/**
 * Role routes of records and collections (`/roles/users`, `/roles/groups`) and group members.
 *
 * @module
 */
import {
  can,
  type Ctx,
  idParam,
  intListQuery,
  isObject,
  loadActive,
  readObject,
  ROLE_ACTIONS,
} from "./_context.ts";
import { HttpError, jsonResponse, notFound, validationError } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { groupJson, userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import type { Kind, Resource } from "./_state.ts";
import { matchesText } from "./_search.ts";

function roleNames(kind: Kind): string[] {
  return Object.keys(ROLE_ACTIONS[kind]);
}

function roleName(kind: Kind, value: unknown, path: "role" | "name"): string {
  const names = roleNames(kind);
  if (typeof value === "string" && names.includes(value)) return value;
  const message = value === undefined
    ? ["Missing data for required field."]
    : [`Must be one of: ${names.join(", ")}.`];
  throw validationError(path === "role" ? { role: { name: message } } : { name: message });
}

function subjectId(body: Record<string, unknown>, key: "user" | "group"): number {
  const subject = body[key];
  if (!isObject(subject) || typeof subject.id !== "number" || !Number.isInteger(subject.id)) {
    throw validationError({
      [key]: isObject(subject)
        ? { id: ["Missing data for required field."] }
        : ["Missing data for required field."],
    });
  }
  return subject.id;
}

function rank(kind: Kind, role: string): number {
  return -roleNames(kind).indexOf(role);
}

/**
 * Role routes of one resource kind.
 *
 * @param kind `record` or `collection`.
 * @param segment URL segment (`records` or `collections`).
 * @returns The routes.
 */
export function roleRoutes(kind: "record" | "collection", segment: string): Route[] {
  const read = `${kind}.read`;
  const perms = `${kind}.permissions`;
  const url = (ctx: Ctx, r: Resource, type: string, id: number) =>
    `${ctx.base}/${segment}/${r.id}/roles/${type}/${id}`;

  const listUsers = (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "read", read, "user.read");
    const q = ctx.url.searchParams;
    const filter = q.get("filter")?.trim().toLowerCase() ?? "";
    const exclude = intListQuery(q, "exclude");
    const items = [...r.userRoles].filter(([uid]) => !exclude.includes(uid)).map((
      [uid, role],
    ) => ({ user: ctx.state.users.get(uid)!, role })).filter(({ user }) =>
      user && (user.username.includes(filter) || user.displayname.toLowerCase().includes(filter))
    ).sort((a, b) =>
      Number(b.user.id === r.creatorId) - Number(a.user.id === r.creatorId) ||
      rank(kind, a.role) - rank(kind, b.role) || a.user.id - b.user.id
    );
    return paginate(ctx, items, ({ user, role }) => ({
      user: userJson(ctx, user),
      role: { name: role },
      _actions: { remove: url(ctx, r, "users", user.id), change: url(ctx, r, "users", user.id) },
    }));
  };

  const listGroups = (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "read", read, "group.read");
    const filter = ctx.url.searchParams.get("filter")?.trim().toLowerCase() ?? "";
    const items = [...r.groupRoles].map(([gid, role]) => ({
      group: ctx.state.groups.get(gid)!,
      role,
    }))
      .filter(({ group }) =>
        group && group.state === "active" &&
        matchesText(group, filter)
      ).sort((a, b) => rank(kind, a.role) - rank(kind, b.role) || a.group.id - b.group.id);
    return paginate(ctx, items, ({ group, role }) => ({
      group: can(ctx.state, ctx.user.id, group, "read") ? groupJson(ctx, group) : {
        id: group.id,
        title: group.title,
        identifier: group.identifier,
        visibility: group.visibility,
      },
      role: { name: role },
      _actions: {
        remove: url(ctx, r, "groups", group.id),
        change: url(ctx, r, "groups", group.id),
      },
    }));
  };

  const addUser = async (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const body = await readObject(ctx);
    const uid = subjectId(body, "user");
    const role = roleName(kind, isObject(body.role) ? body.role.name : undefined, "role");
    if (!ctx.state.users.has(uid)) throw notFound();
    if (r.userRoles.has(uid)) throw new HttpError(409, "A role for that resource already exists.");
    r.userRoles.set(uid, role);
    return jsonResponse({}, 201);
  };

  const addGroup = async (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const body = await readObject(ctx);
    const gid = subjectId(body, "group");
    const role = roleName(kind, isObject(body.role) ? body.role.name : undefined, "role");
    const group = ctx.state.groups.get(gid);
    if (!group || group.state !== "active") throw notFound();
    if (!can(ctx.state, ctx.user.id, group, "read")) {
      throw new HttpError(403, "No permission to add role to group.");
    }
    if (r.groupRoles.has(gid)) throw new HttpError(409, "A role for that resource already exists.");
    r.groupRoles.set(gid, role);
    return jsonResponse({}, 201);
  };

  const change = (type: "users" | "groups") => async (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const id = idParam(ctx, "subject");
    const map = type === "users" ? r.userRoles : r.groupRoles;
    const role = roleName(kind, (await readObject(ctx)).name, "name");
    if (type === "users" && id === r.creatorId) {
      throw new HttpError(409, "Cannot change the creator's role.");
    }
    if (!map.has(id)) throw new HttpError(404, "Role does not exist.");
    map.set(id, role);
    return new Response(null, { status: 204 });
  };

  const remove = (type: "users" | "groups") => (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const id = idParam(ctx, "subject");
    const map = type === "users" ? r.userRoles : r.groupRoles;
    if (type === "users" && id === r.creatorId) {
      throw new HttpError(409, "Cannot remove the creator's role.");
    }
    if (!map.has(id)) throw new HttpError(404, "Role does not exist.");
    map.delete(id);
    return new Response(null, { status: 204 });
  };

  return [
    route("GET", `/${segment}/:id/roles/users`, listUsers),
    route("GET", `/${segment}/:id/roles/groups`, listGroups),
    route("POST", `/${segment}/:id/roles/users`, addUser),
    route("POST", `/${segment}/:id/roles/groups`, addGroup),
    route("PATCH", `/${segment}/:id/roles/users/:subject`, change("users")),
    route("PATCH", `/${segment}/:id/roles/groups/:subject`, change("groups")),
    route("DELETE", `/${segment}/:id/roles/users/:subject`, remove("users")),
    route("DELETE", `/${segment}/:id/roles/groups/:subject`, remove("groups")),
  ];
}
