/**
 * Record routes: search, create, get (by ID and identifier), update, delete, restore, purge.
 *
 * @module
 */
import {
  boolQuery,
  type Ctx,
  intListQuery,
  loadActive,
  readObject,
  requireScopes,
} from "./_context.ts";
import { HttpError, jsonResponse } from "./_errors.ts";
import { searchFilters } from "./_filters.ts";
import { paginate } from "./_pagination.ts";
import { recordJson } from "./_render.ts";
import { addRecordRevision } from "./_revisions.ts";
import { insertResource, loadByIdentifier, newResource } from "./_resources.ts";
import { type Route, route } from "./_router.ts";
import { validateResource } from "./_schema.ts";
import { matchExtras, parseExtrasQuery, sortResources } from "./_search.ts";
import { removeStored } from "./_storage.ts";
import { trashRoutes } from "./_trash.ts";
import { now, type RecordData, type State } from "./_state.ts";

const RECORD_FIELDS = ["type", "license", "tags", "extras"] as const;

/**
 * IDs of a collection and (optionally) all its descendants.
 */
export function collectionTree(state: State, id: number, children: boolean): number[] {
  const ids = [id];
  if (!children) return ids;
  for (let i = 0; i < ids.length; i++) {
    for (const c of state.collections.values()) {
      if (c.parentId === ids[i] && c.state === "active" && !ids.includes(c.id)) ids.push(c.id);
    }
  }
  return ids;
}

function search(ctx: Ctx): Response {
  requireScopes(ctx, "record.read");
  const q = ctx.url.searchParams;
  const { state } = ctx;
  const filtered = searchFilters(ctx, state.records.values(), [
    "query",
    "visibility",
    "explicit_permissions",
    "user",
    "tag",
  ]);
  const params = filtered.params;
  let items = filtered.items;
  const collections = intListQuery(q, "collection");
  if (collections.length > 0) {
    const children = boolQuery(q, "child_collections");
    for (const c of collections) params.push(["collection", String(c)]);
    if (children) params.push(["child_collections", "true"]);
    const member = new Set<number>();
    for (const id of collections.flatMap((c) => collectionTree(state, c, children))) {
      for (const rid of state.collections.get(id)?.recordIds ?? []) member.add(rid);
    }
    items = items.filter((r) => member.has(r.id));
  }
  const types = q.getAll("type").map((t) => t.trim().toLowerCase()).filter((t) => t !== "");
  if (types.length > 0) {
    for (const t of types) params.push(["type", t]);
    items = items.filter((r) => r.type !== null && types.includes(r.type));
  }
  const mimetypes = q.getAll("mimetype").map((m) => m.trim().toLowerCase()).filter((m) => m);
  if (mimetypes.length > 0) {
    for (const m of mimetypes) params.push(["mimetype", m]);
    const files = [...state.files.values()].filter((f) =>
      f.state === "active" && mimetypes.includes(f.mimetype)
    );
    items = items.filter((r) => files.some((f) => f.recordId === r.id));
  }
  const extras = parseExtrasQuery(q.get("extras"));
  if (extras !== null) {
    params.push(["extras", JSON.stringify(extras)]);
    items = items.filter((r) => matchExtras(r.extras, extras));
  }
  const sort = q.get("sort");
  if (sort !== null) params.push(["sort", sort]);
  items = sortResources(items, sort === "_score" ? null : sort);
  return paginate(ctx, items, (r) => recordJson(ctx, r), {
    params,
    search: true,
    actions: { new_record: `${ctx.base}/records` },
  });
}

async function create(ctx: Ctx): Promise<Response> {
  const { input, resource } = await newResource(ctx, "record", RECORD_FIELDS);
  const record: RecordData = {
    ...resource,
    type: input.type ?? null,
    license: input.license ?? null,
    tags: input.tags ?? [],
    extras: input.extras ?? [],
  };
  insertResource(ctx, record);
  addRecordRevision(ctx.state, record, ctx.user.id);
  return jsonResponse(recordJson(ctx, record), 201);
}

function byIdentifier(ctx: Ctx): Response {
  return jsonResponse(recordJson(ctx, loadByIdentifier<RecordData>(ctx, "record")));
}

async function update(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const body = await readObject(ctx);
  const input = validateResource(ctx.state, "record", body, {
    partial: true,
    selfId: record.id,
    fields: RECORD_FIELDS,
  });
  if (input.title === undefined && body.title === null) {
    throw new HttpError(400, undefined, { errors: { title: ["Field may not be null."] } });
  }
  const before = JSON.stringify(recordJson(ctx, record));
  Object.assign(record, input);
  if (JSON.stringify(recordJson(ctx, record)) !== before) {
    record.lastModified = now();
    addRecordRevision(ctx.state, record, ctx.user.id);
  }
  return jsonResponse(recordJson(ctx, record));
}

/**
 * Removes a record and everything attached to it, including stored bytes.
 */
export async function purgeRecord(state: State, record: RecordData): Promise<void> {
  state.records.delete(record.id);
  // Everything leaves the state before the first wait, so a merge ending meanwhile sees it gone.
  const files = [...state.filesOf(record.id)];
  const uploads = [...state.uploadsOf(record.id)];
  for (const file of files) state.purgeFile(file);
  for (const upload of uploads) state.purgeUpload(upload);
  for (const file of files) await removeStored(state, file.path);
  for (const upload of uploads) {
    for (const chunk of upload.chunks.values()) await removeStored(state, chunk.path);
  }
  for (const [id, link] of state.links) {
    if (link.fromId === record.id || link.toId === record.id) state.links.delete(id);
  }
  for (const c of state.collections.values()) c.recordIds.delete(record.id);
}

/** Record routes. */
export const recordRoutes: Route[] = [
  route("GET", "/records", search),
  route("POST", "/records", create),
  route("GET", "/records/identifier/:identifier:str", byIdentifier),
  route("GET", "/records/:id", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
    return jsonResponse(recordJson(ctx, record));
  }),
  route("PATCH", "/records/:id", update),
  ...trashRoutes<RecordData>({
    kind: "record",
    segment: "records",
    render: (ctx, r) => recordJson(ctx, r),
    purgeStatus: 202,
    purge: purgeRecord,
  }),
];
