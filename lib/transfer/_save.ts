/**
 * Streams a GET response body to a file atomically, with progress and optional size and checksum
 * verification before the file appears under its name. A download that names its data
 * (`resumeKey`) writes to a temporary file named after it; when that file is found from an earlier
 * run, only the rest is requested (HTTP `Range`), and the whole file is verified as usual.
 *
 * @module
 */

import { HEADER } from "../http/protocol.ts";
import { hex } from "../utils/_hex.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { Checksum, checksumKind } from "./_chunks.ts";
import { tempPathFor, writeAtomic } from "./_atomic_file.ts";
import { parallelHashing } from "./_hash_pool.ts";
import { PartChecksum } from "./_part_checksum.ts";
import { LaneChecksum } from "./_lane_checksum.ts";
import { FileLaneChecksum } from "./_file_lane_checksum.ts";
import { cleanStaleParts, type PartListings } from "./_parts.ts";
import { IncompleteDownloadError, IntegrityError } from "./errors.ts";
import { type ProgressCallback, ProgressStream } from "./progress.ts";

/** Downloads from this size on are read as bulk data (a connection of their own). */
const BULK_BYTES = 1 << 20;

/** Options of {@linkcode saveResponse} and {@linkcode openBody}. */
export interface SaveOptions {
  /** Query parameters. */
  query?: QueryParams | undefined;
  /** Size the data must have. */
  size?: number | undefined;
  /** Checksum the data must have (plain MD5 or `md5-of-md5s-N`; other forms are not checked). */
  checksum?: string | null | undefined;
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the transfer. */
  signal?: AbortSignal | undefined;
  /** Names the data (a file's id, size and checksum): makes the download resumable. */
  resumeKey?: string | undefined;
  /** With `resumeKey`: keep the partial data when the transfer stops early, to resume later. */
  keepPartial?: boolean | undefined;
  /** Directory listings of temporary files shared by the files of one operation. */
  partListings?: PartListings | undefined;
}

/**
 * Sends a GET and returns the body stream, with progress reporting attached.
 *
 * @param transport The transport.
 * @param endpoint The endpoint.
 * @param options Query, expected size, progress, signal.
 * @returns The body stream.
 */
export async function openBody(
  transport: Transport,
  endpoint: string,
  options: SaveOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const response = await transport.request("GET", endpoint, {
    ...(options.query ? { query: options.query } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    bulk: true,
  });
  const body = response.body ?? ReadableStream.from<Uint8Array>([]);
  if (!options.onProgress) return body;
  const length = Number(response.headers.get(HEADER.contentLength) ?? Number.NaN);
  const total = options.size ?? (Number.isFinite(length) ? length : undefined);
  return body.pipeThrough(new ProgressStream(options.onProgress, total));
}

/**
 * Downloads an endpoint to `path` atomically: a temporary file beside it is renamed only when
 * the data is complete and matches the expected size and checksum. Stale temporary files of the
 * target are removed first.
 *
 * @param transport The transport.
 * @param endpoint The endpoint.
 * @param path The target file.
 * @param options Query, expected size and checksum, progress, signal, resuming.
 * @returns The path written.
 * @throws {IntegrityError} When size or checksum differ; nothing is written.
 * @throws {IncompleteDownloadError} When the transfer stopped early and `keepPartial` kept data.
 */
export async function saveResponse(
  transport: Transport,
  endpoint: string,
  path: string,
  options: SaveOptions = {},
): Promise<string> {
  const key = options.resumeKey === undefined ? undefined : await resumeTag(options.resumeKey);
  const temp = tempPathFor(path, key);
  await cleanStaleParts(path, { keep: key && temp, listings: options.partListings });
  // Big answers (or of unknown size) are bulk: read straight into the reader's buffers also
  // through a proxy (see RequestOptions.bulk).
  const bulk = options.size === undefined || options.size >= BULK_BYTES;
  const get = (offset: number) =>
    transport.request("GET", endpoint, {
      ...(options.query ? { query: options.query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      bulk,
      ...(offset > 0 ? { headers: { [HEADER.range]: `bytes=${offset}-` }, expect: [416] } : {}),
    });
  let offset = key === undefined ? 0 : await partSize(temp, options.size);
  let response = await get(offset);
  if (offset > 0 && !resumes(response, offset)) {
    // 200: the server ignored the range and sends everything; anything else: ask for everything.
    if (response.status !== 200) {
      await response.body?.cancel();
      response = await get(0);
    }
    await Deno.remove(temp).catch(() => {});
    offset = 0;
  }
  const kind = options.size === undefined
    ? undefined
    : checksumKind(options.checksum, options.size);
  // The per-part form is hashed from the file by the MD5 worker, four parts at a time in SIMD
  // lanes, as they are written; where the worker cannot read the file, as it arrives.
  using fromFile = kind === "composite"
    ? FileLaneChecksum.create(temp, { size: options.size })
    : undefined;
  using inMemory = fromFile || !kind ? undefined : arrivingChecksum(kind);
  const checksum = fromFile ?? inMemory;
  if (offset > 0) {
    if (fromFile) fromFile.written(offset);
    else if (inMemory) await hashFile(temp, (chunk) => inMemory.update(chunk));
  }
  const body = response.body ?? ReadableStream.from<Uint8Array>([]);
  let written = offset;
  const keep = (error: unknown) =>
    key !== undefined && options.keepPartial === true && written > 0 &&
    !(error instanceof IntegrityError);
  try {
    await writeAtomic(path, body, {
      temp,
      append: offset > 0,
      keepOnError: keep,
      verify: async () => {
        const facts = { expectedSize: options.size, expectedChecksum: options.checksum };
        if (options.size !== undefined && written !== options.size) {
          throw new IntegrityError(path, { ...facts, size: written });
        }
        if (!checksum) return;
        const { candidates } = await checksum.result();
        if (!candidates.includes(options.checksum?.toLowerCase() ?? "")) {
          throw new IntegrityError(path, { ...facts, size: written, checksum: candidates[0] });
        }
      },
      onChunk: (chunk) => {
        written += chunk.byteLength;
        options.onProgress?.({
          bytes: written,
          total: options.size,
          // The bytes a resumed download found on disk: a caller can say it resumes.
          ...(offset > 0 ? { resumed: offset } : {}),
        });
        return inMemory?.update(chunk);
      },
      ...(fromFile ? { onWritten: (bytes: number) => fromFile.written(bytes) } : {}),
    });
  } catch (error) {
    if (!keep(error)) throw error;
    throw new IncompleteDownloadError(
      [{ path, partPath: temp, bytes: written, total: options.size }],
      error,
    );
  }
  return path;
}

/**
 * The checksum of data hashed as it arrives: the per-part form by workers in parallel where that
 * pays (3 cores or more), else four parts at a time in SIMD lanes in memory (one download of the
 * process at a time); the others, and the plain MD5, one stream in place.
 */
function arrivingChecksum(kind: "md5" | "composite"): Checksum | PartChecksum | LaneChecksum {
  if (kind !== "composite") return new Checksum(kind);
  return parallelHashing() ? new PartChecksum() : LaneChecksum.create() ?? new Checksum(kind);
}

/** 8 hex digits naming the data, used in the temporary file's name. */
async function resumeTag(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return hex(new Uint8Array(digest, 0, 4));
}

/** Bytes of a kept partial file worth resuming; 0 (and the file removed) when there is none. */
async function partSize(temp: string, size: number | undefined): Promise<number> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(temp);
  } catch {
    return 0;
  }
  if (info.isFile && info.size > 0 && (size === undefined || info.size < size)) return info.size;
  await Deno.remove(temp).catch(() => {});
  return 0;
}

/** Whether the response carries the data from `offset` on (206 with a matching Content-Range). */
function resumes(response: Response, offset: number): boolean {
  if (response.status !== 206) return false;
  const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(
    response.headers.get(HEADER.contentRange)?.trim() ?? "",
  );
  return range !== null && Number(range[1]) === offset;
}

/** Feeds the bytes already on disk to the checksum, so the whole file is verified. */
async function hashFile(
  path: string,
  update: (chunk: Uint8Array) => void | Promise<void>,
): Promise<void> {
  // The stream closes the file when it ends or fails; each piece is a fresh buffer.
  const file = await Deno.open(path, { read: true });
  for await (const chunk of file.readable) await update(chunk);
}
