/**
 * Revisions of records and files: recorded on every change, listed newest first, shown with a
 * diff against the parent (or the revision named by `revision=`).
 *
 * @module
 */
import { type Ctx, idParam, intQuery, loadActive, seesUsers } from "./_context.ts";
import { jsonResponse, notFound } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { userJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { now, type RecordData, type Revision, type State, type StoredFile } from "./_state.ts";

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
    links_to: links.filter((l) => l.fromId === r.id).map((l) => [l.id, l.toId, l.name, l.term]),
    linked_from: links.filter((l) => l.toId === r.id).map((l) => [l.id, l.fromId, l.name, l.term]),
  };
}

/**
 * Records a revision of a record.
 *
 * @param state Server state.
 * @param record The record after the change.
 * @param userId Who changed it.
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
 * @param state Server state.
 * @param file The file after the change.
 * @param userId Who changed it.
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

function listRevisions(ctx: Ctx, files: boolean): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const all = files ? ctx.state.fileRevisions : ctx.state.recordRevisions;
  const urlBase = `${ctx.base}/records/${record.id}${files ? "/files" : ""}/revisions`;
  const items = all.filter((r) => r.recordId === record.id).reverse();
  return paginate(ctx, items, (rev) => revisionJson(ctx, all, rev, urlBase));
}

function getRevision(ctx: Ctx, files: boolean): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const all = files ? ctx.state.fileRevisions : ctx.state.recordRevisions;
  const rev = all.find((r) => r.id === idParam(ctx, "rev") && r.recordId === record.id);
  if (!rev) throw notFound();
  const otherId = intQuery(ctx.url.searchParams, "revision", 0);
  const other = all.find((r) => r.id === otherId && r.objectId === rev.objectId);
  const urlBase = `${ctx.base}/records/${record.id}${files ? "/files" : ""}/revisions`;
  return jsonResponse(revisionJson(ctx, all, rev, urlBase, other));
}

/** Revision routes of records and files. */
export const revisionRoutes: Route[] = [
  route("GET", "/records/:id/revisions", (ctx) => listRevisions(ctx, false)),
  route("GET", "/records/:id/revisions/:rev", (ctx) => getRevision(ctx, false)),
  route("GET", "/records/:id/files/revisions", (ctx) => listRevisions(ctx, true)),
  route("GET", "/records/:id/files/revisions/:rev", (ctx) => getRevision(ctx, true)),
];
