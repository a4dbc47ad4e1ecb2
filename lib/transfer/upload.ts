/**
 * Uploading a file to a record with the server's upload protocol: initiate, replace on a name
 * clash when forced, then either one direct PUT or chunked PUTs (bounded concurrency, retried,
 * resumable), finish and wait for the merge.
 *
 * @module
 */

import { uploadsPath } from "../http/paths.ts";
import { InputError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import {
  type ErrorBodyJson,
  type FileJson,
  HEADER,
  UPLOAD_CHUNKED_BOUNDARY,
  type UploadJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { md5Hex } from "./_chunks.ts";
import { deleteUpload, isUploadGone, sendChunked, UploadConflict } from "./_chunked.ts";
import { checkUpload, FILE_ANSWER, UPLOAD_ANSWER } from "./_answers.ts";
import { type ResolvedSource, resolveSource, type UploadSource } from "./_source.ts";
import { fileFinder, holdsSource, sameContent, type SentData, verifyUploaded } from "./_verify.ts";
import { UploadError } from "./errors.ts";
import type { ProgressCallback } from "./progress.ts";

export type { UploadSource } from "./_source.ts";

/** What a transfer needs of a record: its transport, id and endpoint (`/records/1`). */
export interface TransferTarget {
  /** The transport requests go through. */
  readonly transport: Transport;
  /** Id of the record (paths are built from it by `lib/http/paths.ts`). */
  readonly id: number;
  /** Endpoint of the resource, relative to the API base. */
  readonly endpoint: string;
}

/**
 * A record as uploads use it. With `getFileByName` (every record resource has it), an upload whose
 * answer was lost, or that another process finished, is recognised by the file it produced.
 */
export interface UploadTarget extends TransferTarget {
  /** The record's file of a name; throws when there is none. */
  getFileByName?(name: string): Promise<FileJson>;
}

/** Options of {@linkcode uploadFile}. */
export interface UploadFileOptions {
  /** Name of the file in the record. @default {the path's base name} (required for streams and bytes) */
  fileName?: string | undefined;
  /** Description of the file; when replacing, a missing description keeps the existing one. */
  fileDescription?: string | undefined;
  /** Replace a file with the same name instead of failing with a 409 {@linkcode RequestError}. */
  force?: boolean | undefined;
  /** MIME type; the server's default is `application/octet-stream`. */
  mimetype?: string | undefined;
  /** Size in bytes; required for a stream source. */
  size?: number | undefined;
  /** Chunk requests in flight at most. @default {4} */
  concurrency?: number | undefined;
  /** Continue an earlier, interrupted chunked upload of the same name and size. @default {true} */
  resume?: boolean | undefined;
  /**
   * Receives the bytes on the server so far; for a resumed upload, `resumed` tells how many of
   * them were there before this run.
   */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the upload; a chunked upload stays on the server for resuming. */
  signal?: AbortSignal | undefined;
  /** Longest wait for the server to assemble a chunked upload, in ms. @default {1800000} */
  pollDeadlineMs?: number | undefined;
}

/**
 * Uploads a file, a byte stream or bytes to a record. The server decides between a direct upload
 * (one PUT) and a chunked one (10 MB chunks, `concurrency` at a time, each retried on gateway
 * errors and broken connections). A chunked upload that fails midway stays on the server; calling
 * `uploadFile` again with the same name and size sends only the missing chunks. Only an upload
 * whose stored chunks all equal (size and MD5) the source's chunks is resumed, so the upload of
 * another process (or of an earlier version of the file) is never continued with other data; when
 * the resumed upload has expired meanwhile, a new one starts. Just before the finish the upload
 * must hold exactly the chunks this call verified; when another process wrote into it, it is
 * deleted and a new upload starts. A file that changes while it is read is refused
 * ({@linkcode InputError}), never half sent.
 *
 * Every upload is verified end to end: the size and checksum the server reports for the stored
 * file must match the bytes sent (plain MD5 for a direct upload, the MD5 of the chunk MD5s for a
 * chunked one), otherwise an {@linkcode UploadError} with `mismatch` is thrown. When the answer to
 * the last request is lost, or another process finished the same upload, the record's file of
 * that name with the same size and checksum counts as success; so does a name clash (409, without
 * `force`) with a file of exactly the content to upload. Several processes resuming one upload
 * re-read the server's chunk list before each chunk and do not send what another one sent.
 *
 * Memory stays bounded: a file is read chunk by chunk with positioned reads; at most
 * `concurrency + 1` chunks are held. A direct upload (≤ 50 MB by the server's rule) is read
 * whole so it is sent with a `Content-Length`, which WSGI servers need.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for a file source.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { uploadFile } from "./upload.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const sizes: number[] = [];
 * const bytes = new TextEncoder().encode("0123456789");
 * const file = await uploadFile(record, bytes, {
 *   fileName: "data.bin",
 *   force: true,
 *   onProgress: ({ bytes }) => sizes.push(bytes),
 * });
 * assert.strictEqual(file.size, 10);
 * assert.strictEqual(sizes.at(-1), 10);
 * ```
 *
 * @param source File path, byte stream (with `size`) or bytes.
 * @throws {RequestError} 409 when the name exists with other content and `force` is off;
 * nothing is changed.
 * @throws {UploadError} When sending, finishing or assembling fails (`resumable` tells whether
 * running the same upload again continues it; `left` what the server keeps, `aborted` whether the
 * signal stopped it), or when the server stored other bytes than were sent (`mismatch`).
 * @throws {InputError} For a missing file, a directory, a stream without size or with another
 * size, a file that changed while it was uploaded, or bad options.
 */
export async function uploadFile(
  record: UploadTarget,
  source: UploadSource,
  options: UploadFileOptions = {},
): Promise<FileJson> {
  const {
    force = false,
    concurrency = 4,
    resume = true,
    pollDeadlineMs = 30 * 60 * 1000,
    signal,
    onProgress,
  } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const resolved = await resolveSource(source, options.size);
  try {
    const name = options.fileName ?? resolved.name;
    if (name === undefined || name.trim() === "") {
      throw new InputError("The upload has no file name: pass `fileName`");
    }
    const run: UploadRun = {
      record,
      name,
      source: resolved,
      force,
      init: {
        size: resolved.size,
        ...(options.fileDescription !== undefined ? { description: options.fileDescription } : {}),
        ...(options.mimetype !== undefined ? { mimetype: options.mimetype } : {}),
      },
      settings: { concurrency, onProgress, signal, pollDeadlineMs, findFile: fileFinder(record) },
    };
    const resumable = resume && resolved.size > UPLOAD_CHUNKED_BOUNDARY
      ? await findResumable(record, name, resolved, force, signal)
      : undefined;
    return await send(run, resumable);
  } finally {
    await resolved.close();
  }
}

/** One upload of a source under a name, with what starting and sending it needs. */
interface UploadRun {
  readonly record: UploadTarget;
  readonly name: string;
  readonly source: ResolvedSource;
  /** Replace a file of the name. */
  readonly force: boolean;
  /** The upload's fields besides its name: size, description, MIME type. */
  readonly init: { size: number; description?: string; mimetype?: string };
  /** What sending needs: concurrency, progress, signal, poll deadline, file lookup. */
  readonly settings: {
    concurrency: number;
    onProgress: ProgressCallback | undefined;
    signal: AbortSignal | undefined;
    pollDeadlineMs: number;
    findFile: (name: string) => Promise<FileJson | undefined>;
  };
}

/**
 * Sends the upload (a resumed one, or a new one), and starts a new one when the first cannot
 * finish: the resumed upload expired meanwhile, another process created the name meanwhile (a
 * replacement with force, else the name clash of a new upload), or another process wrote other
 * data into this upload (it was deleted). Twice at most, and only when the data can be read
 * again.
 */
async function send(run: UploadRun, resumable: Resumable | undefined): Promise<FileJson> {
  const { record: { transport }, source, settings } = run;
  let upload = resumable?.upload ?? await initiate(run);
  let resumed = resumable !== undefined;
  for (let attempt = 1;; attempt++) {
    // The record already holds this content under the name (a rerun after a lost answer).
    if (!("upload_type" in upload)) return upload;
    try {
      if (upload.upload_type === "direct") {
        return await sendDirect(transport, upload, source, settings);
      }
      return await sendChunked(transport, upload, source, {
        ...settings,
        recheck: resumed,
        ...(resumed && resumable ? { known: resumable.digests } : {}),
      });
    } catch (error) {
      const again = attempt < MAX_ATTEMPTS && source.rereadable &&
        !settings.signal?.aborted &&
        ((resumed && isUploadGone(error)) || error instanceof UploadConflict);
      if (!again) throw error;
    }
    upload = await initiate(run);
    resumed = false;
  }
}

/**
 * Starts a new upload of the name. On a name clash: with force, the replacement of that file;
 * without, the record's file when it holds this content already, else the clash.
 */
async function initiate(run: UploadRun): Promise<UploadJson | FileJson> {
  const { record: { transport }, name, init, settings: { signal } } = run;
  const common = signal ? { signal } : {};
  try {
    return await transport.jsonObject<UploadJson>("POST", uploadsPath(run.record.id), {
      ...UPLOAD_ANSWER,
      json: { name, ...init },
      ...common,
    });
  } catch (error) {
    const replace = replaceLink(error);
    if (replace === undefined) throw error;
    if (!run.force) {
      const same = await sameFile(error, run.source);
      if (same === undefined) throw error;
      return same;
    }
    return await transport.jsonObject<UploadJson>("PUT", replace, {
      ...UPLOAD_ANSWER,
      json: init,
      ...common,
    });
  }
}

/** Uploads started for one file at most: the first and two new ones after conflicts. */
const MAX_ATTEMPTS = 3;

async function sendDirect(
  transport: Transport,
  upload: UploadJson,
  source: ResolvedSource,
  options: {
    onProgress?: ProgressCallback | undefined;
    signal?: AbortSignal | undefined;
    findFile: (name: string) => Promise<FileJson | undefined>;
  },
): Promise<FileJson> {
  const target = upload._actions.upload_data ?? upload._links.self;
  if (target === undefined) {
    throw new UploadError(`The server's upload of '${upload.name}' has no 'upload_data' link`, {
      upload,
    });
  }
  // Read once and kept for retries: the server caps direct uploads (50 MB), a byte array is not
  // consumed by sending it, and a stream source could not be read a second time.
  const bytes = await source.readAll();
  const checksum = md5Hex(bytes);
  const sent: SentData = { size: source.size, checksums: [checksum] };
  let file: FileJson;
  try {
    file = await transport.jsonObject<FileJson>("PUT", target, {
      ...FILE_ANSWER,
      body: bytes,
      headers: {
        [HEADER.contentType]: "application/octet-stream",
        [HEADER.md5Checksum]: checksum,
      },
      idempotent: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    // A direct upload is never resumed: whatever failed, the server is left without it.
    await deleteUpload(transport, upload);
    if (options.signal?.aborted || error instanceof InputError) throw error;
    // The answer may be lost although the server stored the file (a repeated PUT then gets 404).
    const existing = await options.findFile(upload.name).catch(() => undefined);
    if (existing !== undefined && sameContent(existing, sent)) {
      file = existing;
    } else if (
      error instanceof RequestError && error.status === 409 && existing !== undefined &&
      upload.file == null
    ) {
      // Another process created the name after this upload started.
      throw new UploadConflict(upload, "name", error);
    } else {
      throw error;
    }
  }
  options.onProgress?.({ bytes: source.size, total: source.size });
  if (sameContent(file, sent)) return file;
  // Another process may have replaced the file's data since this upload stored it: the upload's
  // own checksum tells what this upload stored.
  const own = await storedChecksum(transport, upload, options.signal);
  if (own !== undefined && sameContent({ ...file, size: source.size, checksum: own }, sent)) {
    return { ...file, size: source.size, checksum: own };
  }
  return verifyUploaded(file, sent);
}

/** The checksum of the data an upload stored, where the server reports it. */
async function storedChecksum(
  transport: Transport,
  upload: UploadJson,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const self = upload._links.self;
  if (self === undefined) return undefined;
  try {
    const current = await transport.jsonObject<UploadJson>("GET", self, {
      ...UPLOAD_ANSWER,
      ...(signal ? { signal } : {}),
    });
    return typeof current.checksum === "string" ? current.checksum.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** The clashing file of a 409 when it holds exactly the content to upload. */
async function sameFile(error: unknown, source: ResolvedSource): Promise<FileJson | undefined> {
  const file = (error as RequestError).body as Partial<ErrorBodyJson> | undefined;
  const existing = file?.file;
  return existing !== undefined && await holdsSource(existing, source) ? existing : undefined;
}

function replaceLink(error: unknown): string | undefined {
  if (!(error instanceof RequestError) || error.status !== 409) return undefined;
  const body = error.body as Partial<ErrorBodyJson> | undefined;
  return body?.file?._actions?.edit_data;
}

/** A resumable upload, and the local chunks' MD5s (by index) that matched its stored chunks. */
interface Resumable {
  upload: UploadJson;
  digests: Map<number, string>;
}

/**
 * The newest upload of this name and size that holds only this data's chunks: at least one chunk
 * stored, and every stored chunk equal (size and MD5) to the source's chunk of that index (and
 * for one being merged already, all of them). Uploads of another process with other content
 * (same name and size) are never resumed. Only a source that can be read twice is resumed.
 */
async function findResumable(
  record: UploadTarget,
  name: string,
  source: ResolvedSource,
  force: boolean,
  signal: AbortSignal | undefined,
): Promise<Resumable | undefined> {
  if (!source.rereadable) return undefined;
  let items: unknown[];
  try {
    ({ items } = await record.transport.jsonObject<{ items: unknown[] }>(
      "GET",
      uploadsPath(record.id),
      { shape: { items: "array" }, ...(signal ? { signal } : {}) },
    ));
  } catch (error) {
    // Resuming is an optimization: without the list (older server, no scope) start afresh.
    if (error instanceof RequestError && error.status !== 429) return undefined;
    throw error;
  }
  // Newest first: the server lists the oldest first. A processing upload is one that another
  // process (or an earlier run whose answer was lost) finished: it is followed to its file.
  const candidates = items.filter(isUpload).reverse().filter((upload) =>
    upload.upload_type === "chunked" &&
    (upload.state === "active" || upload.state === "processing") &&
    upload.name === name && upload.size === source.size &&
    (upload.file ? force && upload.file.name === name : true) &&
    (upload.chunks?.length ?? 0) > 0 &&
    (upload.state === "active" || upload.chunks?.length === upload.chunk_count)
  );
  // MD5s of the source's chunks read so far, by chunk size and index.
  const local = new Map<string, string>();
  for (const upload of candidates) {
    const chunkSize = upload._meta.chunk_size;
    const stored = upload.chunks ?? [];
    const key = (index: number) => `${chunkSize}:${index}`;
    const missing = new Set(stored.map((chunk) => chunk.index).filter((i) => !local.has(key(i))));
    if (missing.size > 0) {
      for await (const chunk of source.chunks(chunkSize, (index) => missing.has(index))) {
        try {
          local.set(key(chunk.index), md5Hex(chunk.bytes));
        } finally {
          chunk.release();
        }
      }
    }
    const sizeOf = (index: number) =>
      Math.max(0, Math.min(chunkSize, source.size - index * chunkSize));
    const ours = stored.every((chunk) =>
      chunk.size === sizeOf(chunk.index) && typeof chunk.checksum === "string" &&
      local.get(key(chunk.index)) === chunk.checksum.toLowerCase()
    );
    if (ours) {
      const digests = new Map(stored.map((chunk) => [chunk.index, local.get(key(chunk.index))!]));
      return { upload, digests };
    }
  }
  return undefined;
}

function isUpload(value: unknown): value is UploadJson {
  try {
    checkUpload(value, "the record's uploads");
    return true;
  } catch {
    return false;
  }
}
