/**
 * The data side of the upload protocol: a direct upload's body, one chunk of a chunked upload
 * (with its `Kadi-Chunk-*` headers), and the background merge that turns chunks into a file.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { HEADER, UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import type { Ctx } from "./_context.ts";
import { HttpError, jsonResponse, notFound, validationError } from "./_errors.ts";
import { corruptedRequests } from "./_faults.ts";
import { hex } from "../utils/_hex.ts";
import { fileJson, uploadJson } from "./_render.ts";
import { addFileRevision } from "./_revisions.ts";
import {
  guessMimetype,
  HeadBytes,
  openStored,
  removeStored,
  sniffMimetype,
  storagePath,
  storeBody,
} from "./_storage.ts";
import { now, type State, type StoredFile, type Upload } from "./_state.ts";

/** Creates or updates the file an upload produces; returns null when that is impossible. */
async function completeFile(
  state: State,
  upload: Upload,
  stored: { path: string; size: number; checksum: string; head: Uint8Array },
): Promise<StoredFile | null> {
  // Cancelled or purged with its record while the data came in: the file would belong to nothing.
  if (state.uploads.get(upload.id) !== upload) return null;
  const time = now();
  const magic = sniffMimetype(stored.head);
  if (upload.fileId !== null) {
    const file = state.files.get(upload.fileId);
    if (!file || file.state !== "active") return null;
    await removeStored(state, file.path);
    state.updateFile(file, {
      path: stored.path,
      size: stored.size,
      checksum: stored.checksum,
      description: upload.description ?? file.description,
      mimetype: upload.mimetype ?? guessMimetype(upload.name) ?? magic,
      magicMimetype: magic,
      lastModified: time,
    });
    addFileRevision(state, file, upload.creatorId);
    return file;
  }
  if (state.activeFileNamed(upload.recordId, upload.name) !== undefined) return null;
  const file: StoredFile = {
    id: crypto.randomUUID(),
    recordId: upload.recordId,
    name: upload.name,
    description: upload.description ?? "",
    mimetype: upload.mimetype ?? guessMimetype(upload.name) ?? magic,
    magicMimetype: magic,
    size: stored.size,
    checksum: stored.checksum,
    path: stored.path,
    state: "active",
    createdAt: time,
    lastModified: time,
    creatorId: upload.creatorId,
  };
  state.addFile(file);
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

/** Stores the data of a direct upload and creates or updates its file. */
export async function direct(ctx: Ctx, upload: Upload): Promise<Response> {
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
  // The upload may have been cancelled while the body streamed in: no file then, as for a chunk.
  const cancelled = ctx.state.uploads.get(upload.id) !== upload;
  if (mismatch !== undefined || cancelled) {
    await removeStored(ctx.state, stored.path);
    if (mismatch !== undefined) throw new HttpError(400, mismatch);
    throw notFound();
  }
  const file = await completeFile(ctx.state, upload, { ...stored, checksum: md5 });
  if (!file) {
    await removeStored(ctx.state, stored.path);
    return jsonResponse("Error creating or updating file.", 409);
  }
  ctx.state.updateUpload(upload, { state: "inactive", checksum: md5, lastModified: now() });
  return jsonResponse(fileJson(ctx, file), 201);
}

/** Stores one chunk of a chunked upload (`Kadi-Chunk-*` headers checked). */
export async function chunk(ctx: Ctx, upload: Upload): Promise<Response> {
  const errors: Record<string, string[]> = {};
  const index = headerInt(ctx, HEADER.chunkIndex, errors, "index");
  const size = headerInt(ctx, HEADER.chunkSize, errors, "size");
  const checksum = expectedChecksum(ctx, errors);
  if (index !== undefined && index >= upload.chunkCount) {
    errors.index = [`Must be less than ${upload.chunkCount}.`];
  }
  // The real server's schema: no chunk above the chunk size, every chunk but the last exactly
  // the chunk size; the last chunk's size is not checked here (the merge checks the total).
  if (size !== undefined && size > UPLOAD_CHUNK_SIZE) {
    errors.size = ["Chunk size (10 MB) exceeded."];
  } else if (
    size !== undefined && index !== undefined && !errors.index &&
    index < upload.chunkCount - 1 && size < UPLOAD_CHUNK_SIZE
  ) {
    errors.size = ["Only the last chunk may be smaller than the chunk size (10 MB)."];
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
    await removeStored(ctx.state, stored.path);
    if (mismatch !== undefined) throw new HttpError(400, mismatch);
    throw notFound();
  }
  const previous = upload.chunks.get(index!);
  if (previous) await removeStored(ctx.state, previous.path);
  upload.chunks.set(index!, { index: index!, size: stored.size, checksum: md5, path: stored.path });
  upload.lastModified = now();
  return jsonResponse(uploadJson(ctx, upload));
}

/** The background task of a finished chunked upload: merges the chunks into the file. */
export async function merge(
  state: State,
  upload: Upload,
  taskError: string | undefined,
): Promise<void> {
  const fail = (error: string) => {
    state.updateUpload(upload, { task: { state: "failure", error }, state: "inactive" });
  };
  await new Promise((r) => setTimeout(r, 5));
  if (taskError !== undefined) return fail(taskError);
  const path = storagePath(state, "merged");
  const out = await Deno.open(path, { write: true, createNew: true });
  const writer = out.writable.getWriter();
  const digests = createHash("md5");
  const head = new HeadBytes();
  let size = 0;
  try {
    for (let i = 0; i < upload.chunkCount; i++) {
      const c = upload.chunks.get(i)!;
      digests.update(Buffer.from(c.checksum, "hex"));
      for await (const part of await openStored(state, c.path)) {
        size += part.byteLength;
        head.add(part);
        await writer.write(part);
      }
    }
    await writer.close();
  } catch (error) {
    await writer.abort().catch(() => {});
    await removeStored(state, path);
    return fail(`Error merging chunks: ${error instanceof Error ? error.message : error}`);
  }
  for (const c of upload.chunks.values()) await removeStored(state, c.path);
  if (size !== upload.size) {
    await removeStored(state, path);
    return fail(`File size mismatch (expected ${upload.size} bytes, got ${size}).`);
  }
  const checksum = `${digests.digest("hex")}-${upload.chunkCount}`;
  const file = await completeFile(state, upload, {
    path,
    size,
    checksum,
    head: head.bytes,
  });
  if (!file) {
    await removeStored(state, path);
    return fail("Error creating or updating file.");
  }
  state.updateUpload(upload, {
    checksum,
    task: { state: "success", fileId: file.id },
    state: "inactive",
    lastModified: now(),
  });
}
