/**
 * Request context of the local repository server and the checks every route shares: scopes,
 * permissions (check order of the server), JSON body parsing and query parameters.
 *
 * @module
 */
import { HttpError, notFound, validationError } from "./_errors.ts";
import { concatBytes } from "./_storage.ts";
import type { Kind, Resource, State, Token, User } from "./_state.ts";

/** Everything a route handler sees. */
export interface Ctx {
  request: Request;
  url: URL;
  /** Request origin, e.g. `http://127.0.0.1:4000`. */
  origin: string;
  /** `/api` or `/api/v1`, as the request came in. */
  prefix: string;
  /** `origin + prefix`. */
  base: string;
  /** Path below the prefix, e.g. `/records/1`. */
  path: string;
  params: Record<string, string>;
  state: State;
  user: User;
  token: Token;
}

/** Actions each role grants, per resource kind. */
export const ROLE_ACTIONS: Record<Kind, Record<string, string[]>> = {
  record: {
    member: ["read"],
    collaborator: ["read", "link"],
    editor: ["read", "link", "update"],
    admin: ["read", "link", "update", "permissions", "delete"],
  },
  collection: {
    member: ["read"],
    collaborator: ["read", "link"],
    editor: ["read", "link", "update"],
    admin: ["read", "link", "update", "permissions", "delete"],
  },
  template: {
    member: ["read"],
    editor: ["read", "update"],
    admin: ["read", "update", "permissions", "delete"],
  },
  group: {
    member: ["read"],
    editor: ["read", "update"],
    admin: ["read", "update", "members", "delete"],
  },
};

/**
 * Throws 401 (insufficient scope) unless the token holds every scope.
 */
export function requireScopes(ctx: Ctx, ...scopes: string[]): void {
  if (!scopes.every((s) => ctx.token.scopes.has(s))) {
    throw new HttpError(401, "Access token has insufficient scope.", { scopes });
  }
}

/**
 * Whether the token may see user information (`user.read`).
 *
 * @returns True with `user.read`.
 */
export function seesUsers(ctx: Ctx): boolean {
  return ctx.token.scopes.has("user.read");
}

/**
 * Whether a user holds `action` on a resource (explicit role, group role or public read).
 *
 * @param action Action name, e.g. `read`.
 */
export function can(state: State, userId: number, resource: Resource, action: string): boolean {
  if (action === "read" && resource.visibility === "public") return true;
  const actions = ROLE_ACTIONS[resource.kind];
  const role = resource.userRoles.get(userId);
  if (role !== undefined && actions[role]?.includes(action)) return true;
  for (const [groupId, groupRole] of resource.groupRoles) {
    const group = state.groups.get(groupId);
    if (group?.state !== "active" || !group.userRoles.has(userId)) continue;
    if (actions[groupRole]?.includes(action)) return true;
  }
  return false;
}

/** What {@linkcode loadResource} takes after the context. */
type LoadArgs = [kind: Kind, idParam: string, action: string, ...scopes: string[]];

/**
 * Loads a resource with the server's check order: 404 if absent (any state), 403 without the
 * action, 401 without the scopes. The handler checks `active` itself.
 *
 * @param idParam Name of the route parameter holding the ID.
 */
export function loadResource<T extends Resource>(
  ctx: Ctx,
  kind: Kind,
  idParam: string,
  action: string,
  ...scopes: string[]
): T {
  const resource = ctx.state.resources(kind).get(Number(ctx.params[idParam]));
  if (!resource) throw notFound();
  if (!can(ctx.state, ctx.user.id, resource, action)) throw new HttpError(403);
  requireScopes(ctx, ...scopes);
  return resource as T;
}

/**
 * Like {@linkcode loadResource} and then 404 unless the resource is active.
 *
 * @param args Resource kind, route parameter name, required action and scopes, as for
 * {@linkcode loadResource}.
 */
export function loadActive<T extends Resource>(
  ctx: Ctx,
  ...args: LoadArgs
): T {
  const resource = loadResource<T>(ctx, ...args);
  if (resource.state !== "active") throw notFound();
  return resource;
}

const decoder = new TextDecoder();

/**
 * The request body as text, as `request.text()` reads it, but with a reader that is not released
 * afterwards (releasing makes an error object, with its stack trace, per request).
 */
async function bodyText(request: Request): Promise<string> {
  if (request.body === null) return "";
  const reader = request.body.getReader();
  const pieces: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pieces.push(value);
    size += value.byteLength;
  }
  return decoder.decode(concatBytes(pieces, size));
}

/**
 * Parses the body as JSON whatever the content type (400 `Failed to decode JSON object.`).
 */
export async function readJson(ctx: Ctx): Promise<unknown> {
  const text = await bodyText(ctx.request);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Failed to decode JSON object.");
  }
}

/**
 * Parses the body as a JSON object (400 `Invalid input type.` otherwise).
 */
export async function readObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const value = await readJson(ctx);
  if (!isObject(value)) throw validationError({ _schema: ["Invalid input type."] });
  return value;
}

/**
 * Whether a value is a plain JSON object.
 *
 * @returns True for objects that are not arrays or null.
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * An integer query parameter, or the fallback when missing or not an integer.
 */
export function intQuery(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name)?.trim();
  return raw !== undefined && /^[-+]?\d+$/.test(raw) ? Number(raw) : fallback;
}

/**
 * A boolean query parameter (`true/1/yes/on`, `false/0/no/off`), else the fallback.
 */
export function boolQuery(query: URLSearchParams, name: string, fallback = false): boolean {
  const raw = query.get(name)?.trim().toLowerCase();
  if (raw === undefined) return fallback;
  if (["true", "1", "yes", "on", "t", "y"].includes(raw)) return true;
  if (["false", "0", "no", "off", "f", "n"].includes(raw)) return false;
  return fallback;
}

/**
 * A repeated integer parameter; values that fail to parse are dropped.
 */
export function intListQuery(query: URLSearchParams, name: string): number[] {
  return query.getAll(name).map((v) => v.trim()).filter((v) => /^\d+$/.test(v)).map(Number);
}

/**
 * The numeric ID of a route parameter.
 */
export function idParam(ctx: Ctx, name: string): number {
  return Number(ctx.params[name]);
}
