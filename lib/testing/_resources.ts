/**
 * What the record, collection and group routes share: creating a resource from a request body and
 * loading one from the trash.
 *
 * @module
 */
import { can, type Ctx, idParam, readObject, requireScopes } from "./_context.ts";
import { HttpError, notFound, validationError } from "./_errors.ts";
import { type ResourceInput, type ValidateOptions, validateResource } from "./_schema.ts";
import { type Kind, now, type Resource } from "./_state.ts";

/** A validated create request: the input and the new resource's shared fields. */
export interface NewResource<K extends Kind> {
  /** The cleaned input, for the fields of the kind. */
  input: ResourceInput;
  /** The shared fields; the current user is its creator and admin. Not stored yet. */
  resource: Resource & { kind: K };
}

/**
 * Checks the `<kind>.create` scope, validates the body (401, then 400) and builds the shared
 * fields of the new resource with the next ID of its kind.
 *
 * @param fields Optional fields the kind accepts beyond the base fields.
 * @param more Checks of the kind's own fields (see {@linkcode ValidateOptions}).
 * @returns The input and the resource's shared fields.
 */
export async function newResource<K extends Kind>(
  ctx: Ctx,
  kind: K,
  fields: ValidateOptions["fields"],
  more?: ValidateOptions["more"],
): Promise<NewResource<K>> {
  requireScopes(ctx, `${kind}.create`);
  const input = validateResource(ctx.state, kind, await readObject(ctx), {
    partial: false,
    fields,
    ...(more !== undefined ? { more } : {}),
  });
  const time = now();
  const resource = {
    kind,
    id: ctx.state.nextId(kind),
    identifier: input.identifier!,
    title: input.title!,
    description: input.description ?? "",
    visibility: input.visibility ?? "private",
    state: "active" as const,
    createdAt: time,
    lastModified: time,
    deletedAt: null,
    creatorId: ctx.user.id,
    userRoles: new Map([[ctx.user.id, "admin"]]),
    groupRoles: new Map(),
  };
  return { input, resource };
}

/**
 * Stores a new resource, unless another request took its identifier meanwhile (between the
 * validation and now): the database's unique constraint, so of two creations at once one wins
 * and the other gets 400 `Identifier is already in use.`.
 */
export function insertResource(ctx: Ctx, resource: Resource): void {
  const map = ctx.state.resources(resource.kind);
  for (const other of map.values()) {
    if (other.identifier === resource.identifier) {
      throw validationError({ identifier: ["Identifier is already in use."] });
    }
  }
  map.set(resource.id, resource);
}

/**
 * Loads a deleted resource of the current user from the trash (route parameter `id`): 401 without
 * `misc.manage_trash`, 404 when absent, not deleted or created by someone else.
 */
export function loadTrashed<T extends Resource>(ctx: Ctx, kind: Kind): T {
  requireScopes(ctx, "misc.manage_trash");
  const resource = ctx.state.resources(kind).get(idParam(ctx, "id"));
  if (!resource || resource.state !== "deleted" || resource.creatorId !== ctx.user.id) {
    throw notFound();
  }
  return resource as T;
}

/**
 * Loads an active resource by the `identifier` route parameter (lower-cased and trimmed; the URL
 * converter accepts `\s*[a-zA-Z0-9-_]+\s*`): 401 without the read scope, 404 without an active
 * match, 403 when the caller may not read it.
 */
export function loadByIdentifier<T extends Resource>(ctx: Ctx, kind: Kind): T {
  requireScopes(ctx, `${kind}.read`);
  const raw = ctx.params.identifier ?? "";
  if (!/^\s*[a-zA-Z0-9-_]+\s*$/.test(raw)) throw notFound();
  const identifier = raw.trim().toLowerCase();
  const resource = [...ctx.state.resources(kind).values()].find((item) =>
    item.identifier === identifier && item.state === "active"
  );
  if (!resource) throw notFound();
  if (!can(ctx.state, ctx.user.id, resource, "read")) throw new HttpError(403);
  return resource as T;
}
