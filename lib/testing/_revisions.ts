/**
 * Revisions of records, files, collections, templates and groups: recorded on every change, listed
 * newest first, shown with a diff against the parent (or the revision named by `revision=`).
 *
 * @module
 */
import { type Ctx, idParam, intQuery, loadActive, seesUsers } from "./_context.ts";
import { jsonResponse, notFound } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import {
  type Kind,
  now,
  type RecordData,
  type Resource,
  type Revision,
  type State,
  type StoredFile,
} from "./_state.ts";

function recordData(state: State, r: RecordData): Record<string, unknown> {
  const links = [...state.links.values()];
  return {
    identifier: r.identifier,
    title: r.title,
    type: r.type,
    description: r.description,
    extras: structuredClone(r.extras),
    visibility: r.visibility,
    state: r.state,
    license: r.license,
    tags: [...r.tags],
    links_to: links.filter((l) => l.fromId === r.id).map((l) => ({
      id: l.id,
      name: l.name,
      record_to_id: l.toId,
      term: l.term,
    })),
    linked_from: links.filter((l) => l.toId === r.id).map((l) => ({
      id: l.id,
      name: l.name,
      record_from_id: l.fromId,
      term: l.term,
    })),
  };
}

/**
 * Records a revision of a record.
 *
 * @param record The record after the change.
 */
export function addRecordRevision(state: State, record: RecordData, userId: number): void {
  state.recordRevisions.push({
    id: state.nextId("record_revision"),
    objectId: record.id,
    recordId: record.id,
    timestamp: now(),
    userId,
    data: recordData(state, record),
  });
}

/**
 * Records a revision of a file.
 *
 * @param file The file after the change.
 */
export function addFileRevision(state: State, file: StoredFile, userId: number): void {
  state.fileRevisions.push({
    id: state.nextId("file_revision"),
    objectId: file.id,
    recordId: file.recordId,
    timestamp: now(),
    userId,
    data: {
      name: file.name,
      description: file.description,
      size: file.size,
      mimetype: file.mimetype,
      checksum: file.checksum,
      state: file.state,
    },
  });
}

/** Revisioned fields of collections, templates and groups beyond the base fields. */
function resourceData(r: Resource): Record<string, unknown> {
  const data: Record<string, unknown> = {
    identifier: r.identifier,
    title: r.title,
    description: r.description,
    visibility: r.visibility,
    state: r.state,
  };
  if ("tags" in r) data.tags = structuredClone(r.tags);
  if ("type" in r) data.type = r.type;
  if ("data" in r) data.data = structuredClone(r.data);
  return data;
}

function store(state: State, kind: Kind): Revision[] {
  if (kind === "record") return state.recordRevisions;
  let list = state.resourceRevisions.get(kind);
  if (!list) state.resourceRevisions.set(kind, list = []);
  return list;
}

/**
 * Records a revision of a record, collection, template or group after a change; nothing is
 * recorded when the revisioned fields did not change.
 *
 * @param resource The resource after the change.
 */
export function addRevision(state: State, resource: Resource, userId: number): void {
  if (resource.kind === "record") return addRecordRevision(state, resource as RecordData, userId);
  const all = store(state, resource.kind);
  const data = resourceData(resource);
  const last = all.findLast((r) => r.objectId === resource.id);
  if (last && JSON.stringify(last.data) === JSON.stringify(data)) return;
  all.push({
    id: state.nextId(`${resource.kind}_revision`),
    objectId: resource.id,
    recordId: resource.id,
    timestamp: now(),
    userId,
    data,
  });
}

function diff(current: Revision, previous: Revision | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(current.data)) {
    const before = previous?.data[key] ?? null;
    if (JSON.stringify(before) !== JSON.stringify(value)) out[key] = before;
  }
  return out;
}

function revisionJson(
  ctx: Ctx,
  all: Revision[],
  rev: Revision,
  urlBase: string,
  compareTo?: Revision,
): Record<string, unknown> {
  const siblings = all.filter((r) => r.objectId === rev.objectId);
  const index = siblings.indexOf(rev);
  const parent = siblings[index - 1];
  const child = siblings[index + 1];
  const links: Record<string, string> = { self: `${urlBase}/${rev.id}` };
  if (parent) links.parent = `${urlBase}/${parent.id}`;
  if (child) links.child = `${urlBase}/${child.id}`;
  const out: Record<string, unknown> = { id: rev.id, timestamp: rev.timestamp };
  const user = ctx.state.users.get(rev.userId);
  if (user && seesUsers(ctx)) out.user = userJson(ctx, user);
  Object.assign(out, {
    object_id: rev.objectId,
    data: rev.data,
    diff: diff(rev, compareTo ?? parent),
    _links: links,
  });
  return out;
}

/** Where a revision list lives: the resource kind, its URL segment, and files or not. */
interface RevisionSource {
  kind: Kind;
  segment: string;
  files: boolean;
}

function revisionsOf(ctx: Ctx, source: RevisionSource) {
  const { kind, segment, files } = source;
  const resource = loadActive<Resource>(ctx, kind, "id", "read", `${kind}.read`);
  const all = files ? ctx.state.fileRevisions : store(ctx.state, kind);
  const urlBase = `${ctx.base}/${segment}/${resource.id}${files ? "/files" : ""}/revisions`;
  return { resource, all, urlBase };
}

function listRevisions(ctx: Ctx, source: RevisionSource): Response {
  const { resource, all, urlBase } = revisionsOf(ctx, source);
  const items = all.filter((r) => r.recordId === resource.id).reverse();
  return paginate(ctx, items, (rev) => revisionJson(ctx, all, rev, urlBase));
}

function getRevision(ctx: Ctx, source: RevisionSource): Response {
  const { resource, all, urlBase } = revisionsOf(ctx, source);
  const rev = all.find((r) => r.id === idParam(ctx, "rev") && r.recordId === resource.id);
  if (!rev) throw notFound();
  const otherId = intQuery(ctx.url.searchParams, "revision", 0);
  const other = all.find((r) => r.id === otherId && r.objectId === rev.objectId);
  return jsonResponse(revisionJson(ctx, all, rev, urlBase, other));
}

function routesOf(source: RevisionSource): Route[] {
  const path = `/${source.segment}/:id${source.files ? "/files" : ""}/revisions`;
  return [
    route("GET", path, (ctx) => listRevisions(ctx, source)),
    route("GET", `${path}/:rev`, (ctx) => getRevision(ctx, source)),
  ];
}

/** Revision routes of records, files, collections, templates and groups. */
export const revisionRoutes: Route[] = [
  ...routesOf({ kind: "record", segment: "records", files: false }),
  ...routesOf({ kind: "record", segment: "records", files: true }),
  ...routesOf({ kind: "collection", segment: "collections", files: false }),
  ...routesOf({ kind: "template", segment: "templates", files: false }),
  ...routesOf({ kind: "group", segment: "groups", files: false }),
];
