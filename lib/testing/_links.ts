/**
 * Record link routes: list (in/out), create, get, edit, delete.
 *
 * @module
 */
import {
  can,
  type Ctx,
  idParam,
  isObject,
  loadActive,
  readObject,
  requireScopes,
} from "./_context.ts";
import { HttpError, jsonResponse, noContent, notFound, validationError } from "./_errors.ts";
import { isIri, normalize } from "./_extras.ts";
import { paginate } from "./_pagination.ts";
import { linkJson } from "./_render.ts";
import { addRecordRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { now, type RecordData, type RecordLink } from "./_state.ts";
import { matchesText } from "./_search.ts";

function linkInput(ctx: Ctx, body: Record<string, unknown>, partial: boolean) {
  const errors: Record<string, unknown> = {};
  const out: { name?: string; term?: string | null; toId?: number } = {};
  if (body.name === undefined) {
    if (!partial) errors.name = ["Missing data for required field."];
  } else if (typeof body.name !== "string") errors.name = ["Not a valid string."];
  else if (normalize(body.name) === "") errors.name = ["String must not be empty."];
  else if (normalize(body.name).length > 150) errors.name = ["Longer than maximum length 150."];
  else out.name = normalize(body.name);
  if (body.term !== undefined) {
    if (body.term === null || body.term === "") out.term = null;
    else if (typeof body.term !== "string") errors.term = ["Not a valid string."];
    else if (!isIri(body.term.trim()) || body.term.length > 2048) {
      errors.term = ["Not a valid IRI."];
    } else out.term = body.term.trim();
  }
  if (body.record_to === undefined) {
    if (!partial) errors.record_to = ["Missing data for required field."];
  } else if (!isObject(body.record_to) || typeof body.record_to.id !== "number") {
    errors.record_to = { id: ["Missing data for required field."] };
  } else out.toId = body.record_to.id;
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (out.toId !== undefined) {
    const target = ctx.state.records.get(out.toId);
    if (!target || target.state !== "active") {
      throw validationError({ record_to: { id: ["No record with this ID exists."] } });
    }
    if (!can(ctx.state, ctx.user.id, target, "link")) throw new HttpError(403);
  }
  return out;
}

function checkConflict(
  ctx: Ctx,
  link: Omit<RecordLink, "id" | "createdAt" | "lastModified" | "creatorId">,
  selfId?: number,
) {
  if (link.fromId === link.toId) throw new HttpError(409, "Cannot link record with itself.");
  const duplicate = [...ctx.state.links.values()].some((l) =>
    l.id !== selfId && l.fromId === link.fromId && l.toId === link.toId && l.name === link.name
  );
  if (duplicate) throw new HttpError(409, "Link already exists.");
}

function revise(ctx: Ctx, ...ids: number[]): void {
  for (const id of new Set(ids)) {
    const r = ctx.state.records.get(id);
    if (r) addRecordRevision(ctx.state, r, ctx.user.id);
  }
}

function list(ctx: Ctx): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const q = ctx.url.searchParams;
  const direction = q.get("direction") === "in" ? "in" : "out";
  const filter = q.get("filter")?.trim().toLowerCase() ?? "";
  const actions = q.getAll("action");
  const sortParam = q.get("sort");
  const sort = ["last_modified", "created_at", "name"].includes(sortParam?.replace(/^-/, "") ?? "")
    ? sortParam!
    : "-last_modified";
  const items = [...ctx.state.links.values()].filter((l) => {
    if ((direction === "out" ? l.fromId : l.toId) !== record.id) return false;
    const other = ctx.state.records.get(direction === "out" ? l.toId : l.fromId);
    if (!other || other.state !== "active") return false;
    if (!["read", ...actions].every((a) => can(ctx.state, ctx.user.id, other, a))) return false;
    return l.name.toLowerCase().includes(filter) || matchesText(other, filter);
  });
  const key = sort.replace(/^-/, "") as "last_modified" | "created_at" | "name";
  const get = (l: RecordLink) =>
    key === "name" ? l.name : key === "created_at" ? l.createdAt : l.lastModified;
  items.sort((a, b) => {
    const c = get(a) < get(b) ? -1 : get(a) > get(b) ? 1 : a.id - b.id;
    return sort.startsWith("-") ? -c : c;
  });
  const params: [string, string][] = [["direction", direction]];
  if (filter !== "") params.push(["filter", filter]);
  if (sortParam !== null) params.push(["sort", sortParam]);
  return paginate(ctx, items, (l) => linkJson(ctx, l, direction), { params });
}

async function create(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "link", "record.link");
  const input = linkInput(ctx, await readObject(ctx), false);
  const base = {
    fromId: record.id,
    toId: input.toId!,
    name: input.name!,
    term: input.term ?? null,
  };
  checkConflict(ctx, base);
  const time = now();
  const link: RecordLink = {
    id: ctx.state.nextId("link"),
    ...base,
    createdAt: time,
    lastModified: time,
    creatorId: ctx.user.id,
  };
  ctx.state.links.set(link.id, link);
  revise(ctx, link.fromId, link.toId);
  return jsonResponse(linkJson(ctx, link, "out"), 201);
}

function outgoing(ctx: Ctx, record: RecordData): RecordLink {
  const link = ctx.state.links.get(idParam(ctx, "link"));
  if (!link || link.fromId !== record.id) throw new HttpError(404, "Link does not exist.");
  return link;
}

async function edit(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "link", "record.link");
  const link = outgoing(ctx, record);
  const input = linkInput(ctx, await readObject(ctx), true);
  const next = {
    fromId: link.fromId,
    toId: input.toId ?? link.toId,
    name: input.name ?? link.name,
    term: input.term === undefined ? link.term : input.term,
  };
  checkConflict(ctx, next, link.id);
  const oldTo = link.toId;
  Object.assign(link, next, { lastModified: now() });
  revise(ctx, link.fromId, oldTo, link.toId);
  return jsonResponse(linkJson(ctx, link, "out"));
}

/** Record link routes. */
export const linkRoutes: Route[] = [
  route("GET", "/records/records/:link", (ctx) => {
    requireScopes(ctx, "record.read");
    const link = ctx.state.links.get(idParam(ctx, "link"));
    if (!link) throw new HttpError(404, "Link does not exist.");
    const ends = [link.fromId, link.toId].map((id) => ctx.state.records.get(id));
    if (ends.some((r) => !r || r.state !== "active")) throw notFound();
    if (ends.some((r) => !can(ctx.state, ctx.user.id, r!, "read"))) throw new HttpError(403);
    return jsonResponse(linkJson(ctx, link, "both"));
  }),
  route("GET", "/records/:id/records", list),
  route("POST", "/records/:id/records", create),
  route("GET", "/records/:id/records/:link", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
    const link = outgoing(ctx, record);
    const target = ctx.state.records.get(link.toId);
    if (!target || !can(ctx.state, ctx.user.id, target, "read")) throw new HttpError(403);
    return jsonResponse(linkJson(ctx, link, "out"));
  }),
  route("PATCH", "/records/:id/records/:link", edit),
  route("DELETE", "/records/:id/records/:link", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "link", "record.link");
    const link = outgoing(ctx, record);
    ctx.state.links.delete(link.id);
    revise(ctx, link.fromId, link.toId);
    return noContent();
  }),
];
