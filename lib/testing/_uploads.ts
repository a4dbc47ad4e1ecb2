/**
 * The upload protocol: initiate (new file or data replacement), send data (direct or chunked with
 * `Kadi-Chunk-*` headers), finish with a background merge task, poll, cancel, list for resuming.
 *
 * @module
 */
import { UPLOAD_CHUNK_SIZE, UPLOAD_CHUNKED_BOUNDARY } from "../http/protocol.ts";
import { serverFileName } from "../utils/server_name.ts";
import { type Ctx, loadActive, readObject } from "./_context.ts";
import { HttpError, jsonResponse, noContent, notFound, validationError } from "./_errors.ts";
import { taskErrors } from "./_faults.ts";
import { fileJson, uploadJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import { removeStored } from "./_storage.ts";
import { chunk, direct, merge } from "./_upload_data.ts";
import { now, type RecordData, type State, type StoredFile, type Upload } from "./_state.ts";

const MIMETYPE_RE = /^[a-z]+\/[a-z0-9-+.]+$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Formats bytes like the server's quota message (decimal units).
 *
 * @returns E.g. `1.5 GB`.
 */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB", "TB", "PB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function checkQuota(state: State, userId: number, size: number): void {
  if (!Number.isFinite(state.quota)) return;
  if (size + state.usedBytes(userId) > state.quota) {
    throw new HttpError(413, `Maximum upload quota exceeded (${formatSize(state.quota)}).`);
  }
}

/**
 * A file of a record by ID (404 unless active and in that record).
 */
export function activeFile(ctx: Ctx, record: RecordData, id: string | undefined): StoredFile {
  const file = id !== undefined && UUID_RE.test(id) ? ctx.state.files.get(id) : undefined;
  if (!file || file.recordId !== record.id || file.state !== "active") throw notFound();
  return file;
}

function uploadInput(body: Record<string, unknown>, withName: boolean) {
  const errors: Record<string, string[]> = {};
  let name = "";
  if (withName) {
    if (body.name === undefined) errors.name = ["Missing data for required field."];
    else if (typeof body.name !== "string") errors.name = ["Not a valid string."];
    else if (serverFileName(body.name) === "") errors.name = ["String must not be empty."];
    else if ([...serverFileName(body.name)].length > 256) {
      errors.name = ["Longer than maximum length 256."];
    } else name = serverFileName(body.name);
  }
  let size = 0;
  if (body.size === undefined) errors.size = ["Missing data for required field."];
  else if (typeof body.size !== "number" || !Number.isInteger(body.size)) {
    errors.size = ["Not a valid integer."];
  } else if (body.size < 0) errors.size = ["Must be greater than or equal to 0."];
  else size = body.size;
  let description: string | undefined;
  if (body.description !== undefined && body.description !== null) {
    if (typeof body.description !== "string") errors.description = ["Not a valid string."];
    else description = body.description.trim();
  }
  let mimetype: string | undefined;
  if (body.mimetype !== undefined && body.mimetype !== null) {
    const m = typeof body.mimetype === "string" ? body.mimetype.trim().toLowerCase() : "";
    if (!MIMETYPE_RE.test(m) || m.length > 256) errors.mimetype = ["Not a valid MIME type."];
    else mimetype = m;
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { name, size, description, mimetype };
}

function newUpload(ctx: Ctx, record: RecordData, init: {
  name: string;
  size: number;
  description: string | null;
  mimetype: string | null;
  fileId: string | null;
}): Upload {
  const chunked = init.size > UPLOAD_CHUNKED_BOUNDARY;
  const time = now();
  const upload: Upload = {
    id: crypto.randomUUID(),
    recordId: record.id,
    ...init,
    checksum: null,
    chunkCount: chunked ? Math.max(1, Math.ceil(init.size / UPLOAD_CHUNK_SIZE)) : 1,
    uploadType: chunked ? "chunked" : "direct",
    state: "active",
    createdAt: time,
    lastModified: time,
    creatorId: ctx.user.id,
    chunks: new Map(),
    task: null,
  };
  ctx.state.addUpload(upload);
  return upload;
}

async function initiate(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const input = uploadInput(await readObject(ctx), true);
  const existing = ctx.state.activeFileNamed(record.id, input.name);
  if (existing) {
    throw new HttpError(409, "A file with that name already exists.", {
      file: fileJson(ctx, existing),
    });
  }
  checkQuota(ctx.state, ctx.user.id, input.size);
  const upload = newUpload(ctx, record, {
    name: input.name,
    size: input.size,
    description: input.description ?? null,
    mimetype: input.mimetype ?? null,
    fileId: null,
  });
  return jsonResponse(uploadJson(ctx, upload, false), 201);
}

async function replace(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const file = activeFile(ctx, record, ctx.params.file);
  const input = uploadInput(await readObject(ctx), false);
  checkQuota(ctx.state, ctx.user.id, input.size);
  const upload = newUpload(ctx, record, {
    name: file.name,
    size: input.size,
    description: input.description ?? null,
    mimetype: input.mimetype ?? null,
    fileId: file.id,
  });
  // Unlike a new upload, the replacement upload shows its (null) checksum on the real server.
  return jsonResponse(uploadJson(ctx, upload), 201);
}

function ownUpload(ctx: Ctx, record: RecordData, states: Upload["state"][]): Upload {
  const id = ctx.params.upload;
  const upload = id !== undefined && UUID_RE.test(id) ? ctx.state.uploads.get(id) : undefined;
  if (
    !upload || upload.recordId !== record.id || upload.creatorId !== ctx.user.id ||
    !states.includes(upload.state)
  ) throw notFound();
  return upload;
}

async function putData(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  return upload.uploadType === "direct" ? await direct(ctx, upload) : await chunk(ctx, upload);
}

function finish(ctx: Ctx): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  if (upload.uploadType !== "chunked") throw notFound();
  if (upload.chunks.size !== upload.chunkCount) {
    throw new HttpError(400, "Number of uploaded chunks does not match the expected chunk count.");
  }
  ctx.state.updateUpload(upload, {
    state: "processing",
    task: { state: "pending" },
    lastModified: now(),
  });
  const body = uploadJson(ctx, upload);
  const task = merge(ctx.state, upload, taskErrors.get(ctx.request)).catch(() => {});
  ctx.state.tasks.add(task);
  task.finally(() => ctx.state.tasks.delete(task));
  return jsonResponse(body, 202);
}

async function cancel(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  ctx.state.purgeUpload(upload);
  for (const c of upload.chunks.values()) await removeStored(ctx.state, c.path);
  return noContent();
}

/** Upload routes. */
export const uploadRoutes: Route[] = [
  route("GET", "/records/:id/uploads", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
    const items = [...ctx.state.uploadsOf(record.id)].filter((u) =>
      u.creatorId === ctx.user.id && u.state !== "inactive"
    );
    return jsonResponse({ items: items.map((u) => uploadJson(ctx, u)) });
  }),
  route("POST", "/records/:id/uploads", initiate),
  route("GET", "/records/:id/uploads/:upload:str", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
    return jsonResponse(
      uploadJson(ctx, ownUpload(ctx, record, ["active", "processing", "inactive"])),
    );
  }),
  route("PUT", "/records/:id/uploads/:upload:str", putData),
  route("POST", "/records/:id/uploads/:upload:str", finish),
  route("DELETE", "/records/:id/uploads/:upload:str", cancel),
  route("PUT", "/records/:id/files/:file:str", replace),
];
