/**
 * Role routes of records, collections and templates (`/roles/users`, `/roles/groups`) and group
 * members (`/groups/<id>/members`), one implementation for all.
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
import { HttpError, jsonResponse, noContent, validationError } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { groupJson, userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import type { Kind, Resource } from "./_state.ts";
import { matchesText } from "./_search.ts";

function roleNames(kind: Kind): string[] {
  return Object.keys(ROLE_ACTIONS[kind]);
}

/**
 * The role name of a body as the server's schema reads it (a string, lower-cased and stripped):
 * a missing or non-string name is a validation error; whether the role exists is checked later by
 * {@linkcode knownRole}, after the "already has a role" check, as the real server does.
 */
function roleInput(body: Record<string, unknown>, path: "role" | "name"): string {
  const missing = ["Missing data for required field."];
  if (path === "role") {
    if (!isObject(body.role)) throw validationError({ role: missing });
    const name = body.role.name;
    if (typeof name !== "string") {
      throw validationError({
        role: { name: name === undefined ? missing : ["Not a valid string."] },
      });
    }
    return name.trim().toLowerCase();
  }
  if (typeof body.name !== "string") {
    throw validationError({ name: body.name === undefined ? missing : ["Not a valid string."] });
  }
  return body.name.trim().toLowerCase();
}

/** Throws the real server's 400 for a role name the resource type does not have. */
function knownRole(kind: Kind, name: string): string {
  if (!roleNames(kind).includes(name)) {
    throw new HttpError(400, "A role with that name does not exist.");
  }
  return name;
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

/** The validation error of a subject id that names no active user or group. */
function noSuchSubject(key: "user" | "group"): HttpError {
  return validationError({ [key]: { id: [`No ${key} with this ID exists.`] } });
}

function rank(kind: Kind, role: string): number {
  return -roleNames(kind).indexOf(role);
}

/** Where a resource's user roles live and what managing them takes. */
interface UserRoleTarget {
  kind: Kind;
  /** URL segment of the kind, e.g. `records`. */
  segment: string;
  /** Path below the resource, `roles/users` or (groups) `members`. */
  sub: string;
  /** Action needed to change roles (`permissions`, or `members` for groups). */
  action: string;
  /** Scope needed to change roles. */
  scope: string;
}

/**
 * Routes listing, adding, changing and removing the user roles of one resource kind (the
 * `/roles/users` routes, and a group's `/members`).
 *
 * @param t Where the roles live and what managing them takes.
 */
function userRoleRoutes(t: UserRoleTarget): Route[] {
  const { kind, segment, sub } = t;
  const url = (ctx: Ctx, r: Resource, id: number) => `${ctx.base}/${segment}/${r.id}/${sub}/${id}`;
  const manage = (ctx: Ctx) => loadActive<Resource>(ctx, kind, "id", t.action, t.scope);

  const list = (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "read", `${kind}.read`, "user.read");
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
    const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
    for (const id of exclude) params.push(["exclude", String(id)]);
    return paginate(ctx, items, ({ user, role }) => ({
      user: userJson(ctx, user),
      role: { name: role },
      _actions: { remove: url(ctx, r, user.id), change: url(ctx, r, user.id) },
    }), { params });
  };

  const add = async (ctx: Ctx) => {
    const r = manage(ctx);
    const body = await readObject(ctx);
    const uid = subjectId(body, "user");
    const name = roleInput(body, "role");
    if (!ctx.state.users.has(uid)) throw noSuchSubject("user");
    if (r.userRoles.has(uid)) throw new HttpError(409, "A role for that resource already exists.");
    r.userRoles.set(uid, knownRole(kind, name));
    return jsonResponse({}, 201);
  };

  const change = async (ctx: Ctx) => {
    const r = manage(ctx);
    const id = idParam(ctx, "subject");
    const name = roleInput(await readObject(ctx), "name");
    if (id === r.creatorId) throw new HttpError(409, "Cannot change the creator's role.");
    if (!r.userRoles.has(id)) throw new HttpError(404, "Role does not exist.");
    r.userRoles.set(id, knownRole(kind, name));
    return noContent();
  };

  const remove = (ctx: Ctx) => {
    const r = manage(ctx);
    const id = idParam(ctx, "subject");
    if (id === r.creatorId) throw new HttpError(409, "Cannot remove the creator's role.");
    if (!r.userRoles.delete(id)) throw new HttpError(404, "Role does not exist.");
    return noContent();
  };

  return [
    route("GET", `/${segment}/:id/${sub}`, list),
    route("POST", `/${segment}/:id/${sub}`, add),
    route("PATCH", `/${segment}/:id/${sub}/:subject`, change),
    route("DELETE", `/${segment}/:id/${sub}/:subject`, remove),
  ];
}

/**
 * Role routes of one resource kind: user roles and group roles.
 *
 * @param kind `record`, `collection` or `template`.
 * @param segment URL segment (`records`, `collections` or `templates`).
 */
export function roleRoutes(kind: "record" | "collection" | "template", segment: string): Route[] {
  const read = `${kind}.read`;
  const perms = `${kind}.permissions`;
  const url = (ctx: Ctx, r: Resource, id: number) =>
    `${ctx.base}/${segment}/${r.id}/roles/groups/${id}`;

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
    const params: [string, string][] = filter === "" ? [] : [["filter", filter]];
    return paginate(ctx, items, ({ group, role }) => ({
      group: can(ctx.state, ctx.user.id, group, "read") ? groupJson(ctx, group) : {
        id: group.id,
        title: group.title,
        identifier: group.identifier,
        visibility: group.visibility,
      },
      role: { name: role },
      _actions: { remove: url(ctx, r, group.id), change: url(ctx, r, group.id) },
    }), { params });
  };

  const addGroup = async (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const body = await readObject(ctx);
    const gid = subjectId(body, "group");
    const name = roleInput(body, "role");
    const group = ctx.state.groups.get(gid);
    if (!group || group.state !== "active") throw noSuchSubject("group");
    if (!can(ctx.state, ctx.user.id, group, "read")) {
      throw new HttpError(403, "No permission to add role to group.");
    }
    if (r.groupRoles.has(gid)) throw new HttpError(409, "A role for that resource already exists.");
    r.groupRoles.set(gid, knownRole(kind, name));
    return jsonResponse({}, 201);
  };

  const changeGroup = async (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    const id = idParam(ctx, "subject");
    const name = roleInput(await readObject(ctx), "name");
    if (!r.groupRoles.has(id)) throw new HttpError(404, "Role does not exist.");
    r.groupRoles.set(id, knownRole(kind, name));
    return noContent();
  };

  const removeGroup = (ctx: Ctx) => {
    const r = loadActive<Resource>(ctx, kind, "id", "permissions", perms);
    if (!r.groupRoles.delete(idParam(ctx, "subject"))) {
      throw new HttpError(404, "Role does not exist.");
    }
    return noContent();
  };

  return [
    ...userRoleRoutes({ kind, segment, sub: "roles/users", action: "permissions", scope: perms }),
    route("GET", `/${segment}/:id/roles/groups`, listGroups),
    route("POST", `/${segment}/:id/roles/groups`, addGroup),
    route("PATCH", `/${segment}/:id/roles/groups/:subject`, changeGroup),
    route("DELETE", `/${segment}/:id/roles/groups/:subject`, removeGroup),
  ];
}

/**
 * Member routes of groups (`/groups/<id>/members`): the user roles of a group, managed with the
 * `members` action and the `group.members` scope.
 */
export function memberRoutes(): Route[] {
  return userRoleRoutes({
    kind: "group",
    segment: "groups",
    sub: "members",
    action: "members",
    scope: "group.members",
  });
}
