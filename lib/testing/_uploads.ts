/**
 * The upload protocol: initiate (new file or data replacement), send data (direct or chunked with
 * `Kadi-Chunk-*` headers), finish with a background merge task, poll, cancel, list for resuming.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { HEADER, UPLOAD_CHUNK_SIZE, UPLOAD_CHUNKED_BOUNDARY } from "../http/protocol.ts";
import { type Ctx, loadActive, readObject } from "./_context.ts";
import { HttpError, jsonResponse, notFound, validationError } from "./_errors.ts";
import { corruptedRequests, taskErrors } from "./_faults.ts";
import { fileJson, uploadJson } from "./_render.ts";
import { addFileRevision } from "./_revisions.ts";
import { type Route, route } from "./_router.ts";
import { hex, openStored, sniffMimetype, storagePath, storeBody } from "./_storage.ts";
import { now, type RecordData, type State, type StoredFile, type Upload } from "./_state.ts";

const MIMETYPE_RE = /^[a-z]+\/[a-z0-9-+.]+$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Formats bytes like the server's quota message (decimal units).
 *
 * @param bytes Size.
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
  let used = size;
  for (const f of state.files.values()) {
    if (f.creatorId === userId && f.state === "active") used += f.size;
  }
  for (const u of state.uploads.values()) {
    if (u.creatorId === userId && u.state !== "inactive") used += u.size;
  }
  if (used > state.quota) {
    throw new HttpError(413, `Maximum upload quota exceeded (${formatSize(state.quota)}).`);
  }
}

/**
 * A file of a record by ID (404 unless active and in that record).
 *
 * @param ctx Request context.
 * @param record The record.
 * @param id File UUID.
 * @returns The file.
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
    else if (body.name.trim() === "") errors.name = ["String must not be empty."];
    else if (body.name.trim().length > 256) errors.name = ["Longer than maximum length 256."];
    else name = body.name.trim();
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
  description: string;
  mimetype: string;
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
  ctx.state.uploads.set(upload.id, upload);
  return upload;
}

async function initiate(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const input = uploadInput(await readObject(ctx), true);
  const existing = [...ctx.state.files.values()].find((f) =>
    f.recordId === record.id && f.state === "active" && f.name === input.name
  );
  if (existing) {
    throw new HttpError(409, "A file with that name already exists.", {
      file: fileJson(ctx, existing),
    });
  }
  checkQuota(ctx.state, ctx.user.id, input.size);
  const upload = newUpload(ctx, record, {
    name: input.name,
    size: input.size,
    description: input.description ?? "",
    mimetype: input.mimetype ?? "application/octet-stream",
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
    description: input.description ?? file.description,
    mimetype: input.mimetype ?? file.mimetype,
    fileId: file.id,
  });
  return jsonResponse(uploadJson(ctx, upload, false), 201);
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

/** Creates or updates the file an upload produces; returns null when that is impossible. */
async function completeFile(
  state: State,
  upload: Upload,
  stored: { path: string; size: number; checksum: string },
): Promise<StoredFile | null> {
  const time = now();
  const magic = await sniffMimetype(stored.path);
  if (upload.fileId !== null) {
    const file = state.files.get(upload.fileId);
    if (!file || file.state !== "active") return null;
    await Deno.remove(file.path).catch(() => {});
    Object.assign(file, {
      path: stored.path,
      size: stored.size,
      checksum: stored.checksum,
      description: upload.description,
      mimetype: upload.mimetype,
      magicMimetype: magic,
      lastModified: time,
    });
    addFileRevision(state, file, upload.creatorId);
    return file;
  }
  const clash = [...state.files.values()].some((f) =>
    f.recordId === upload.recordId && f.state === "active" && f.name === upload.name
  );
  if (clash) return null;
  const file: StoredFile = {
    id: crypto.randomUUID(),
    recordId: upload.recordId,
    name: upload.name,
    description: upload.description,
    mimetype: upload.mimetype,
    magicMimetype: magic,
    size: stored.size,
    checksum: stored.checksum,
    path: stored.path,
    state: "active",
    createdAt: time,
    lastModified: time,
    creatorId: upload.creatorId,
  };
  state.files.set(file.id, file);
  addFileRevision(state, file, upload.creatorId);
  return file;
}

function headerInt(ctx: Ctx, name: string, errors: Record<string, string[]>, key: string) {
  const raw = ctx.request.headers.get(name);
  if (raw === null) {
    errors[key] = ["Missing data for required field."];
    return undefined;
  }
  if (!/^\s*\d+\s*$/.test(raw)) {
    errors[key] = [
      /^\s*-\d+\s*$/.test(raw) ? "Must be greater than or equal to 0." : "Not a valid integer.",
    ];
    return undefined;
  }
  return Number(raw);
}

function expectedChecksum(ctx: Ctx, errors: Record<string, string[]>): string | undefined {
  // Damaged storage (fault injection) comes with a server that does not check the header.
  if (corruptedRequests.has(ctx.request)) return undefined;
  const raw = ctx.request.headers.get(HEADER.md5Checksum)?.trim().toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (!/^[0-9a-f]{32}$/.test(raw)) errors.checksum = ["Not a valid MD5 checksum."];
  return raw;
}

/** Stores the request body (damaged under a `corruptStorage` fault). */
function storeData(ctx: Ctx, label: string) {
  return storeBody(ctx.state, ctx.request.body, label, corruptedRequests.has(ctx.request));
}

async function direct(ctx: Ctx, upload: Upload): Promise<Response> {
  const errors: Record<string, string[]> = {};
  const checksum = expectedChecksum(ctx, errors);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const stored = await storeData(ctx, "direct");
  const md5 = hex(stored.md5);
  const mismatch = stored.size !== upload.size
    ? `File size mismatch (expected ${upload.size} bytes, got ${stored.size}).`
    : checksum !== undefined && checksum !== md5
    ? `Checksum mismatch (expected ${checksum}, got ${md5}).`
    : undefined;
  if (mismatch !== undefined) {
    await Deno.remove(stored.path).catch(() => {});
    throw new HttpError(400, mismatch);
  }
  const file = await completeFile(ctx.state, upload, { ...stored, checksum: md5 });
  if (!file) {
    await Deno.remove(stored.path).catch(() => {});
    return jsonResponse("Error creating or updating file.", 409);
  }
  upload.state = "inactive";
  upload.checksum = md5;
  upload.lastModified = now();
  return jsonResponse(fileJson(ctx, file), 201);
}

async function chunk(ctx: Ctx, upload: Upload): Promise<Response> {
  const errors: Record<string, string[]> = {};
  const index = headerInt(ctx, HEADER.chunkIndex, errors, "index");
  const size = headerInt(ctx, HEADER.chunkSize, errors, "size");
  const checksum = expectedChecksum(ctx, errors);
  if (index !== undefined && index >= upload.chunkCount) {
    errors.index = [`Must be less than ${upload.chunkCount}.`];
  }
  if (size !== undefined && index !== undefined && !errors.index) {
    const last = index === upload.chunkCount - 1;
    const lastSize = upload.size - (upload.chunkCount - 1) * UPLOAD_CHUNK_SIZE;
    if (size > UPLOAD_CHUNK_SIZE) {
      errors.size = [`Must be less than or equal to ${UPLOAD_CHUNK_SIZE}.`];
    } else if (!last && size !== UPLOAD_CHUNK_SIZE) {
      errors.size = [
        `Only the last chunk may be smaller than the chunk size (${UPLOAD_CHUNK_SIZE} bytes).`,
      ];
    } else if (last && size !== lastSize) {
      errors.size = [`Must be equal to ${lastSize}.`];
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const stored = await storeData(ctx, `chunk${index}`);
  const md5 = hex(stored.md5);
  const mismatch = stored.size !== size
    ? `Chunk size mismatch (expected ${size} bytes, got ${stored.size}).`
    : checksum !== undefined && checksum !== md5
    ? `Checksum mismatch (expected ${checksum}, got ${md5}).`
    : undefined;
  // The upload may have been deleted or finished while the body streamed in.
  if (mismatch !== undefined || upload.state !== "active") {
    await Deno.remove(stored.path).catch(() => {});
    if (mismatch !== undefined) throw new HttpError(400, mismatch);
    throw notFound();
  }
  const previous = upload.chunks.get(index!);
  if (previous) await Deno.remove(previous.path).catch(() => {});
  upload.chunks.set(index!, { index: index!, size: stored.size, checksum: md5, path: stored.path });
  upload.lastModified = now();
  return jsonResponse(uploadJson(ctx, upload));
}

async function putData(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  return upload.uploadType === "direct" ? await direct(ctx, upload) : await chunk(ctx, upload);
}

async function merge(state: State, upload: Upload, taskError: string | undefined): Promise<void> {
  const fail = (error: string) => {
    upload.task = { state: "failure", error };
    upload.state = "inactive";
  };
  await new Promise((r) => setTimeout(r, 5));
  if (taskError !== undefined) return fail(taskError);
  const path = storagePath(state, "merged");
  const out = await Deno.open(path, { write: true, createNew: true });
  const writer = out.writable.getWriter();
  const digests = createHash("md5");
  let size = 0;
  try {
    for (let i = 0; i < upload.chunkCount; i++) {
      const c = upload.chunks.get(i)!;
      digests.update(Buffer.from(c.checksum, "hex"));
      for await (const part of await openStored(c.path)) {
        size += part.byteLength;
        await writer.write(part);
      }
    }
    await writer.close();
  } catch (error) {
    await writer.abort().catch(() => {});
    await Deno.remove(path).catch(() => {});
    return fail(`Error merging chunks: ${error instanceof Error ? error.message : error}`);
  }
  for (const c of upload.chunks.values()) await Deno.remove(c.path).catch(() => {});
  if (size !== upload.size) {
    await Deno.remove(path).catch(() => {});
    return fail(`File size mismatch (expected ${upload.size} bytes, got ${size}).`);
  }
  const checksum = `${digests.digest("hex")}-${upload.chunkCount}`;
  const file = await completeFile(state, upload, { path, size, checksum });
  if (!file) {
    await Deno.remove(path).catch(() => {});
    return fail("Error creating or updating file.");
  }
  upload.checksum = checksum;
  upload.task = { state: "success", fileId: file.id };
  upload.state = "inactive";
  upload.lastModified = now();
}

function finish(ctx: Ctx): Response {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  if (upload.uploadType !== "chunked") throw notFound();
  if (upload.chunks.size !== upload.chunkCount) {
    throw new HttpError(400, "Number of uploaded chunks does not match the expected chunk count.");
  }
  upload.state = "processing";
  upload.task = { state: "pending" };
  upload.lastModified = now();
  const body = uploadJson(ctx, upload);
  const task = merge(ctx.state, upload, taskErrors.get(ctx.request)).catch(() => {});
  ctx.state.tasks.add(task);
  task.finally(() => ctx.state.tasks.delete(task));
  return jsonResponse(body, 202);
}

async function cancel(ctx: Ctx): Promise<Response> {
  const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
  const upload = ownUpload(ctx, record, ["active"]);
  ctx.state.uploads.delete(upload.id);
  for (const c of upload.chunks.values()) await Deno.remove(c.path).catch(() => {});
  return new Response(null, { status: 204 });
}

/** Upload routes. */
export const uploadRoutes: Route[] = [
  route("GET", "/records/:id/uploads", (ctx) => {
    const record = loadActive<RecordData>(ctx, "record", "id", "update", "record.update");
    const items = [...ctx.state.uploads.values()].filter((u) =>
      u.recordId === record.id && u.creatorId === ctx.user.id && u.state !== "inactive"
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
