/**
 * Collection routes (create, search, get, edit, delete, restore, purge, child collections) and the
 * record ↔ collection membership routes.
 *
 * @module
 */
import {
  boolQuery,
  can,
  type Ctx,
  idParam,
  loadActive,
  readObject,
  requireScopes,
} from "./_context.ts";
import { HttpError, jsonResponse, noContent, validationError } from "./_errors.ts";
import { resourceList, searchFilters } from "./_filters.ts";
import { paginate } from "./_pagination.ts";
import { collectionJson, recordJson } from "./_render.ts";
import { collectionTree } from "./_records.ts";
import { insertResource, loadByIdentifier, newResource } from "./_resources.ts";
import { addRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { validateResource } from "./_schema.ts";
import { sortResources } from "./_search.ts";
import { trashRoutes } from "./_trash.ts";
import { type CollectionData, now, type RecordData } from "./_state.ts";

function bodyId(body: Record<string, unknown>): number {
  if (typeof body.id !== "number" || !Number.isInteger(body.id)) {
    throw validationError({ id: ["Missing data for required field."] });
  }
  return body.id;
}

function otherActive<T extends RecordData | CollectionData>(
  ctx: Ctx,
  map: Map<number, T>,
  id: number,
  action: string,
): T {
  const other = map.get(id);
  if (!other || other.state !== "active") {
    // The body's id names nothing active: the real server's schema rejects it (400, not 404).
    const kind = map === ctx.state.records ? "record" : "collection";
    throw validationError({ id: [`No ${kind} with this ID exists.`] });
  }
  if (!can(ctx.state, ctx.user.id, other, action)) throw new HttpError(403);
  return other;
}

async function create(ctx: Ctx): Promise<Response> {
  const { input, resource } = await newResource(ctx, "collection", ["tags"]);
  const c: CollectionData = {
    ...resource,
    tags: input.tags ?? [],
    parentId: null,
    recordIds: new Set(),
  };
  insertResource(ctx, c);
  addRevision(ctx.state, c, ctx.user.id);
  return jsonResponse(collectionJson(ctx, c), 201);
}

function search(ctx: Ctx): Response {
  requireScopes(ctx, "collection.read");
  const { items, params } = searchFilters(ctx, ctx.state.collections.values(), [
    "query",
    "visibility",
    "explicit_permissions",
    "user",
    "tag",
  ]);
  const sort = ctx.url.searchParams.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  return paginate(
    ctx,
    sortResources(items, sort === "_score" ? null : sort),
    (c) => collectionJson(ctx, c),
    {
      params,
      search: true,
      actions: { new_collection: `${ctx.base}/collections` },
    },
  );
}

async function edit(ctx: Ctx): Promise<Response> {
  const c = loadActive<CollectionData>(ctx, "collection", "id", "update", "collection.update");
  const input = validateResource(ctx.state, "collection", await readObject(ctx), {
    partial: true,
    selfId: c.id,
    fields: ["tags"],
  });
  Object.assign(c, input, { lastModified: now() });
  addRevision(ctx.state, c, ctx.user.id);
  return jsonResponse(collectionJson(ctx, c));
}

function records(ctx: Ctx): Response {
  const c = loadActive<CollectionData>(
    ctx,
    "collection",
    "id",
    "read",
    "collection.read",
    "record.read",
  );
  const children = boolQuery(ctx.url.searchParams, "children");
  const ids = new Set<number>();
  for (const id of collectionTree(ctx.state, c.id, children)) {
    for (const rid of ctx.state.collections.get(id)?.recordIds ?? []) ids.add(rid);
  }
  const records = [...ids].map((id) => ctx.state.records.get(id)).filter((r) => r !== undefined);
  return resourceList(ctx, records, () => true, {
    flags: children ? ["children"] : [],
    render: (r) => recordJson(ctx, r, c.id),
  });
}

function children(ctx: Ctx): Response {
  const c = loadActive<CollectionData>(ctx, "collection", "id", "read", "collection.read");
  return resourceList(ctx, ctx.state.collections.values(), (child) => child.parentId === c.id, {
    render: (child) =>
      collectionJson(ctx, child, `${ctx.base}/collections/${c.id}/collections/${child.id}`),
  });
}

async function linkChild(ctx: Ctx): Promise<Response> {
  const parent = loadActive<CollectionData>(ctx, "collection", "id", "link", "collection.link");
  const child = otherActive(ctx, ctx.state.collections, bodyId(await readObject(ctx)), "link");
  const ancestors = new Set<number>();
  for (
    let p: CollectionData | undefined = parent;
    p;
    p = ctx.state.collections.get(p.parentId ?? -1)
  ) {
    if (ancestors.has(p.id)) break;
    ancestors.add(p.id);
  }
  if (child.id === parent.id || child.parentId !== null || ancestors.has(child.id)) {
    throw new HttpError(409, "Unable to link collections.");
  }
  child.parentId = parent.id;
  return jsonResponse({}, 201);
}

async function linkRecordFromRecord(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "link", "record.link");
  const c = otherActive(ctx, ctx.state.collections, bodyId(await readObject(ctx)), "link");
  if (c.recordIds.has(record.id)) throw new HttpError(409, "Link already exists.");
  c.recordIds.add(record.id);
  return jsonResponse({}, 201);
}

async function linkRecordFromCollection(ctx: Ctx): Promise<Response> {
  const c = loadActive<CollectionData>(ctx, "collection", "id", "link", "collection.link");
  const record = otherActive(ctx, ctx.state.records, bodyId(await readObject(ctx)), "link");
  if (c.recordIds.has(record.id)) throw new HttpError(409, "Link already exists.");
  c.recordIds.add(record.id);
  return jsonResponse({}, 201);
}

function unlink(c: CollectionData, recordId: number): Response {
  if (!c.recordIds.has(recordId)) throw new HttpError(404, "Link does not exist.");
  c.recordIds.delete(recordId);
  return noContent();
}

/** Collection routes. */
export const collectionRoutes: Route[] = [
  route("GET", "/collections", search),
  route("POST", "/collections", create),
  route(
    "GET",
    "/collections/identifier/:identifier:str",
    (ctx) => jsonResponse(collectionJson(ctx, loadByIdentifier<CollectionData>(ctx, "collection"))),
  ),
  route("GET", "/collections/:id", (ctx) =>
    jsonResponse(collectionJson(
      ctx,
      loadActive<CollectionData>(ctx, "collection", "id", "read", "collection.read"),
    ))),
  route("PATCH", "/collections/:id", edit),
  ...trashRoutes<CollectionData>({
    kind: "collection",
    segment: "collections",
    render: collectionJson,
    purgeStatus: 204,
    purge: (state, c) => {
      state.collections.delete(c.id);
      for (const other of state.collections.values()) {
        if (other.parentId === c.id) other.parentId = null;
      }
    },
  }),
  route("GET", "/collections/:id/records", records),
  route("POST", "/collections/:id/records", linkRecordFromCollection),
  route("DELETE", "/collections/:id/records/:record", (ctx) => {
    const c = loadActive<CollectionData>(ctx, "collection", "id", "link", "collection.link");
    return unlink(c, idParam(ctx, "record"));
  }),
  route("GET", "/collections/:id/collections", children),
  route("POST", "/collections/:id/collections", linkChild),
  route("DELETE", "/collections/:id/collections/:child", (ctx) => {
    const parent = loadActive<CollectionData>(ctx, "collection", "id", "link", "collection.link");
    const child = ctx.state.collections.get(idParam(ctx, "child"));
    if (!child || child.parentId !== parent.id) throw new HttpError(404, "Link does not exist.");
    child.parentId = null;
    return noContent();
  }),
  route("GET", "/records/:id/collections", (ctx) => {
    const record = loadActive<RecordData>(
      ctx,
      "record",
      "id",
      "read",
      "record.read",
      "collection.read",
    );
    return resourceList(ctx, ctx.state.collections.values(), (c) => c.recordIds.has(record.id), {
      render: (c) => collectionJson(ctx, c, `${ctx.base}/records/${record.id}/collections/${c.id}`),
    });
  }),
  route("POST", "/records/:id/collections", linkRecordFromRecord),
  route("DELETE", "/records/:id/collections/:collection", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "link", "record.link");
    const c = ctx.state.collections.get(idParam(ctx, "collection"));
    if (!c) throw new HttpError(404, "Link does not exist.");
    return unlink(c, record.id);
  }),
];
