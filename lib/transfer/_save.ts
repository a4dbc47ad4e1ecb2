/**
 * Streams a GET response body to a file atomically, with progress and optional size and checksum
 * verification before the file appears under its name.
 *
 * @module
 */

import { HEADER } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { Checksum, checksumKind } from "./_chunks.ts";
import { writeAtomic } from "./_atomic_file.ts";
import { PartChecksum } from "./_part_checksum.ts";
import { IntegrityError } from "./errors.ts";
import { type ProgressCallback, ProgressStream } from "./progress.ts";

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
  });
  const body = response.body ?? ReadableStream.from<Uint8Array>([]);
  if (!options.onProgress) return body;
  const length = Number(response.headers.get(HEADER.contentLength) ?? Number.NaN);
  const total = options.size ?? (Number.isFinite(length) ? length : undefined);
  return body.pipeThrough(new ProgressStream(options.onProgress, total));
}

/**
 * Downloads an endpoint to `path` atomically: a temporary file beside it is renamed only when
 * the data is complete and matches the expected size and checksum.
 *
 * @param transport The transport.
 * @param endpoint The endpoint.
 * @param path The target file.
 * @param options Query, expected size and checksum, progress, signal.
 * @returns The path written.
 * @throws {IntegrityError} When size or checksum differ; nothing is written.
 */
export async function saveResponse(
  transport: Transport,
  endpoint: string,
  path: string,
  options: SaveOptions = {},
): Promise<string> {
  const { onProgress, ...request } = options;
  const body = await openBody(transport, endpoint, request);
  const kind = options.size === undefined
    ? undefined
    : checksumKind(options.checksum, options.size);
  // The per-part form is hashed by workers in parallel; the plain MD5 is one sequence.
  using checksum = kind === "composite" ? new PartChecksum() : kind ? plainChecksum() : undefined;
  let written = 0;
  await writeAtomic(path, body, {
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
      onProgress?.({ bytes: written, total: options.size });
      return checksum?.update(chunk);
    },
  });
  return path;
}

/** The plain MD5 with the same shape as {@linkcode PartChecksum}. */
function plainChecksum() {
  const checksum = new Checksum("md5");
  return {
    update: (chunk: Uint8Array) => checksum.update(chunk),
    result: () => Promise.resolve(checksum.result()),
    [Symbol.dispose]() {},
  };
}
