/**
 * File routes of records: list, get (by ID, by name, globally), edit metadata, delete, download
 * (with HTTP `Range`: 206 and `Content-Range`) and the ZIP of all files.
 *
 * @module
 */
import { can, type Ctx, loadActive, readObject, requireScopes } from "./_context.ts";
import { serverFileName } from "../utils/server_name.ts";
import { HttpError, jsonResponse, noContent, notFound, validationError } from "./_errors.ts";
import { paginate } from "./_pagination.ts";
import { fileJson } from "./_render.ts";
import { addFileRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { openStored, removeStored } from "./_storage.ts";
import { now, type RecordData, type StoredFile } from "./_state.ts";
import { rangeIgnored } from "./_faults.ts";
import { activeFile } from "./_uploads.ts";
import { zipSize, zipStream } from "./_zip.ts";

/**
 * The `Content-Disposition` value of an attachment.
 */
export function attachment(name: string): string {
  if (/^[\x21-\x7e]+$/.test(name) && !/[";\\]/.test(name)) return `attachment; filename=${name}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The active files of a record, newest first.
 */
export function recordFiles(ctx: Ctx, record: RecordData): StoredFile[] {
  return [...ctx.state.filesOf(record.id)].filter((f) => f.state === "active").reverse();
}

function list(ctx: Ctx): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const q = ctx.url.searchParams;
  const filter = q.get("filter")?.trim() ?? "";
  const sortParam = q.get("sort");
  const keys: Record<string, (f: StoredFile) => string | number> = {
    last_modified: (f) => f.lastModified,
    created_at: (f) => f.createdAt,
    name: (f) => f.name,
    size: (f) => f.size,
  };
  const sort = sortParam !== null && keys[sortParam.replace(/^-/, "")]
    ? sortParam
    : "-last_modified";
  const get = keys[sort.replace(/^-/, "")]!;
  const desc = sort.startsWith("-");
  const needle = filter.toLowerCase();
  const files = [...ctx.state.filesOf(record.id)].filter((f) =>
    f.state === "active" && (needle === "" || f.name.toLowerCase().includes(needle))
  );
  // Each key read once, not twice per comparison.
  const keyed = files.map((f, i) => ({ f, i, key: get(f) }));
  const order = keyed.sort((a, b) => {
    const c = a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i;
    return desc ? -c : c;
  }).map(({ f }) => f);
  const params: [string, string][] = [];
  if (filter !== "") params.push(["filter", filter]);
  if (sortParam !== null) params.push(["sort", sortParam]);
  return paginate(ctx, order, (f) => fileJson(ctx, f), { params });
}

async function edit(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const file = activeFile(ctx, record, ctx.params.file);
  const body = await readObject(ctx);
  const errors: Record<string, string[]> = {};
  const changes: Partial<StoredFile> = {};
  if (body.name !== undefined) {
    const name = typeof body.name === "string" ? serverFileName(body.name) : null;
    if (name === null) errors.name = ["Not a valid string."];
    else if (name === "") errors.name = ["String must not be empty."];
    else if ([...name].length > 256) errors.name = ["Longer than maximum length 256."];
    // Another active file of the record holds the name.
    else if ((ctx.state.activeFileNamed(record.id, name) ?? file) !== file) {
      errors.name = ["Name is already in use."];
    } else changes.name = name;
  }
  if (body.description !== undefined) {
    if (typeof body.description !== "string") errors.description = ["Not a valid string."];
    else changes.description = body.description.trim();
  }
  if (body.mimetype !== undefined) {
    const m = typeof body.mimetype === "string" ? body.mimetype.trim().toLowerCase() : "";
    if (!/^[a-z]+\/[a-z0-9-+.]+$/.test(m)) errors.mimetype = ["Not a valid MIME type."];
    else changes.mimetype = m;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const changed = Object.entries(changes).some(([k, v]) => file[k as keyof StoredFile] !== v);
  if (changed) {
    ctx.state.updateFile(file, { ...changes, lastModified: now() });
    addFileRevision(ctx.state, file, ctx.user.id);
  }
  return jsonResponse(fileJson(ctx, file));
}

async function remove(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const file = activeFile(ctx, record, ctx.params.file);
  ctx.state.updateFile(file, { state: "deleted", lastModified: now() });
  addFileRevision(ctx.state, file, ctx.user.id);
  await removeStored(ctx.state, file.path);
  return noContent();
}

/**
 * The byte range a `Range` header asks for (`bytes=N-`, `bytes=N-M`, `bytes=-N`), `undefined`
 * for none (or several ranges: the whole file is sent), `"unsatisfiable"` past the end.
 */
function byteRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (match === null || (match[1] === "" && match[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start >= size || start > end ? "unsatisfiable" : { start, end };
}

async function download(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const file = activeFile(ctx, record, ctx.params.file);
  const headers = {
    "content-type": file.mimetype,
    "content-disposition": attachment(file.name),
    "accept-ranges": "bytes",
  };
  const range = rangeIgnored.has(ctx.request)
    ? undefined
    : byteRange(ctx.request.headers.get("range"), file.size);
  if (range === "unsatisfiable") {
    return new Response(null, {
      status: 416,
      headers: { "content-range": `bytes */${file.size}` },
    });
  }
  if (range !== undefined) {
    return new Response(await openStored(ctx.state, file.path, range), {
      status: 206,
      headers: {
        ...headers,
        "content-length": String(range.end - range.start + 1),
        "content-range": `bytes ${range.start}-${range.end}/${file.size}`,
      },
    });
  }
  return new Response(await openStored(ctx.state, file.path), {
    headers: { ...headers, "content-length": String(file.size) },
  });
}

function downloadAll(ctx: Ctx): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
  const entries = recordFiles(ctx, record).reverse().map((f) => ({
    name: f.name,
    size: f.size,
    content: () => openStored(ctx.state, f.path),
  }));
  return new Response(zipStream(entries), {
    headers: {
      "content-type": "application/zip",
      "content-length": String(zipSize(entries)),
      "content-disposition": attachment(`${record.identifier}.zip`),
    },
  });
}

function globalFile(ctx: Ctx): Response {
  const id = ctx.params.file ?? "";
  const file = ctx.state.files.get(id);
  if (!file) throw notFound();
  const record = ctx.state.records.get(file.recordId);
  if (!record) throw notFound();
  if (!can(ctx.state, ctx.user.id, record, "read")) throw new HttpError(403);
  requireScopes(ctx, "record.read");
  if (record.state !== "active" || file.state !== "active") throw notFound();
  return jsonResponse(fileJson(ctx, file));
}

/** File routes. */
export const fileRoutes: Route[] = [
  route("GET", "/records/files/:file:str", globalFile),
  route("GET", "/records/:id/files", list),
  route("GET", "/records/:id/files/download", downloadAll),
  route("GET", "/records/:id/files/name/*name", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
    const file = ctx.state.activeFileNamed(record.id, ctx.params.name ?? "");
    if (!file) throw notFound();
    return jsonResponse(fileJson(ctx, file));
  }),
  route("GET", "/records/:id/files/:file:str", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "read", "record.read");
    return jsonResponse(fileJson(ctx, activeFile(ctx, record, ctx.params.file)));
  }),
  route("PATCH", "/records/:id/files/:file:str", edit),
  route("DELETE", "/records/:id/files/:file:str", remove),
  route("GET", "/records/:id/files/:file:str/download", download),
];
