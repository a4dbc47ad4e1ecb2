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
import { claimPart, type PartFile, tempPathFor, writeAtomic } from "./_atomic_file.ts";
import { cleanStaleParts, type PartListings } from "./_parts.ts";
import { IncompleteDownloadError, IntegrityError, LocalFileError } from "./errors.ts";
import { type ProgressCallback, ProgressStream } from "./progress.ts";

/** Options of {@linkcode saveResponse} and {@linkcode openBody}. */
export interface SaveOptions {
  /** Query parameters. */
  query?: QueryParams | undefined;
  /** Size the data must have: more bytes are refused as they arrive. */
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
  /**
   * Replace the target when it exists at the end; otherwise a target another process created
   * meanwhile is kept and the data gets the next free numbered name.
   */
  force?: boolean | undefined;
  /** Paths claimed by this operation (never chosen as a new name). */
  claimed?: Set<string> | undefined;
  /** Runs right before the finished file is renamed onto the target; throwing cancels it. */
  beforePlace?: (() => void | Promise<void>) | undefined;
  /** Claims the temporary file (tests replace it with a file system that fills up). */
  claim?: typeof claimPart | undefined;
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
    headers: { "accept-encoding": "identity" },
  });
  const body = response.body ?? ReadableStream.from<Uint8Array>([]);
  if (!options.onProgress) return body;
  const length = Number(response.headers.get(HEADER.contentLength) ?? Number.NaN);
  const total = options.size ?? (Number.isFinite(length) ? length : undefined);
  return body.pipeThrough(new ProgressStream(options.onProgress, total));
}

/**
 * Downloads an endpoint to `path` atomically: a temporary file beside it, owned by this process
 * (see `claimPart`), is renamed only when the data is complete and matches the expected size and
 * checksum. Data beyond the expected size is refused as it arrives (counted after any content
 * decoding). Stale temporary files of the target are removed first. When the disk fills up, the
 * temporary file is removed and the error says how much space the file needs.
 *
 * @param transport The transport.
 * @param endpoint The endpoint.
 * @param path The target file.
 * @param options Query, expected size and checksum, progress, signal, resuming, overwriting.
 * @returns The path written (a free numbered name when another process created `path` meanwhile
 * and `force` is off).
 * @throws {IntegrityError} When size or checksum differ; nothing is written.
 * @throws {IncompleteDownloadError} When the transfer stopped early and `keepPartial` kept data.
 * @throws {LocalFileError} When the disk is full (nothing is kept).
 */
export async function saveResponse(
  transport: Transport,
  endpoint: string,
  path: string,
  options: SaveOptions = {},
): Promise<string> {
  const key = options.resumeKey === undefined ? undefined : await resumeTag(options.resumeKey);
  await cleanStaleParts(path, {
    keep: key && tempPathFor(path, key),
    listings: options.partListings,
  });
  const part = await (options.claim ?? claimPart)(path, key);
  let written = 0;
  let keep = false;
  try {
    return await download(transport, endpoint, path, part, options, (bytes) => written = bytes);
  } catch (error) {
    if (isNoSpace(error)) {
      const onDisk = await part.file.stat().then((info) => info.size, () => written);
      throw noSpace(path, options.size, onDisk, error as Error);
    }
    keep = options.keepPartial === true && part.resumable && written > 0 &&
      !(error instanceof IntegrityError);
    if (!keep) throw error;
    throw new IncompleteDownloadError(
      [{ path, partPath: part.path, bytes: written, total: options.size }],
      error,
    );
  } finally {
    await part.release(keep);
  }
}

/**
 * The answer to read the file from, and where in the file it starts: data of an earlier run is
 * resumed unless it is already as long as the file (then it is bad) or the server does not send
 * the rest (then everything is asked for).
 */
async function startResponse(
  transport: Transport,
  endpoint: string,
  part: PartFile,
  options: SaveOptions,
): Promise<{ response: Response; offset: number }> {
  const { size } = options;
  const get = (offset: number) =>
    transport.request("GET", endpoint, {
      ...(options.query ? { query: options.query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      headers: {
        // The bytes of the file itself: a Range counts them, and so does the size limit.
        "accept-encoding": "identity",
        ...(offset > 0 ? { [HEADER.range]: `bytes=${offset}-` } : {}),
      },
      ...(offset > 0 ? { expect: [416] } : {}),
    });
  const offset = part.size > 0 && (size === undefined || part.size < size) ? part.size : 0;
  const response = await get(offset);
  if (offset === 0 || resumes(response, offset)) return { response, offset };
  // 200: the server ignored the range and sends everything; anything else: ask for everything.
  if (response.status === 200) return { response, offset: 0 };
  await response.body?.cancel();
  return { response: await get(0), offset: 0 };
}

/** The download into a claimed temporary file; `track` learns the bytes the file holds. */
async function download(
  transport: Transport,
  endpoint: string,
  path: string,
  part: PartFile,
  options: SaveOptions,
  track: (bytes: number) => void,
): Promise<string> {
  const { size } = options;
  const { response, offset } = await startResponse(transport, endpoint, part, options);
  if (offset < part.size) await part.file.truncate(offset);
  const body = response.body ?? ReadableStream.from<Uint8Array>([]);
  const facts = { expectedSize: size, expectedChecksum: options.checksum };
  // A declared length that cannot be the file's is refused before anything is read.
  const declared = Number(response.headers.get(HEADER.contentLength) ?? Number.NaN);
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  if (size !== undefined && Number.isFinite(declared) && !encoded && offset + declared !== size) {
    await body.cancel().catch(() => {});
    throw new IntegrityError(path, { ...facts, size: offset + declared });
  }
  const kind = size === undefined ? undefined : checksumKind(options.checksum, size);
  const checksum = kind === undefined ? undefined : new Checksum(kind);
  // The data already in the file is hashed from the disk, then the rest as it is written: the
  // file is this process's alone (claimPart), so these are the bytes renamed into place.
  if (offset > 0 && checksum) await hashPrefix(part.file, offset, checksum);
  await part.file.seek(offset, Deno.SeekMode.Start);
  let written = offset;
  track(written);
  return await writeAtomic(path, body, {
    part,
    ...(size !== undefined
      ? {
        maxBytes: size - offset,
        tooLong: (received: number) =>
          new IntegrityError(path, { ...facts, size: offset + received }),
      }
      : {}),
    ...(options.force ? { replace: true } : {}),
    ...(options.claimed ? { claimed: options.claimed } : {}),
    ...(options.beforePlace ? { beforePlace: options.beforePlace } : {}),
    verify: async () => {
      const info = await part.file.stat();
      if (info.size !== written || (size !== undefined && written !== size)) {
        throw new IntegrityError(path, { ...facts, size: info.size });
      }
      if (!checksum) return;
      const { candidates } = checksum.result();
      if (!candidates.includes(options.checksum?.toLowerCase() ?? "")) {
        throw new IntegrityError(path, { ...facts, size: written, checksum: candidates[0] });
      }
    },
    onChunk: (chunk) => {
      written += chunk.byteLength;
      track(written);
      options.onProgress?.({
        bytes: written,
        total: size,
        // The bytes a resumed download found on disk: a caller can say it resumes.
        ...(offset > 0 ? { resumed: offset } : {}),
      });
      checksum?.update(chunk);
    },
  });
}

/** Whether an error is the disk running full. */
function isNoSpace(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === "ENOSPC";
}

/** The error of a full disk, saying how much space the file needs. */
function noSpace(path: string, size: number | undefined, written: number, cause: Error) {
  const need = size === undefined
    ? "the disk filled up"
    : `the file needs ${size} bytes (${
      megabytes(size)
    }); ${written} were written when the disk filled up, so at least ${size - written} bytes (${
      megabytes(size - written)
    }) more must be free`;
  return new LocalFileError(
    path,
    new Error(`No space left on the device: ${need}; nothing was kept`, { cause }),
  );
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** 8 hex digits naming the data, used in the temporary file's name. */
async function resumeTag(key: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return hex(new Uint8Array(digest, 0, 4));
}

/** Whether the response carries the data from `offset` on (206 with a matching Content-Range). */
function resumes(response: Response, offset: number): boolean {
  if (response.status !== 206) return false;
  const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(
    response.headers.get(HEADER.contentRange)?.trim() ?? "",
  );
  return range !== null && Number(range[1]) === offset;
}

/** Feeds the first `bytes` of the file (read from the disk) to the checksum. */
async function hashPrefix(file: Deno.FsFile, bytes: number, checksum: Checksum): Promise<void> {
  await file.seek(0, Deno.SeekMode.Start);
  const buffer = new Uint8Array(1 << 20);
  let left = bytes;
  while (left > 0) {
    const read = await file.read(buffer.subarray(0, Math.min(buffer.byteLength, left)));
    if (read === null) throw new Error("The partial file shrank while it was resumed");
    checksum.update(buffer.subarray(0, read));
    left -= read;
  }
}
