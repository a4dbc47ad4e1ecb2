/**
 * The chunked half of the upload protocol: send the missing chunks through a bounded pool, finish
 * the upload, and poll the merge task until it produced the file or failed.
 *
 * @module
 */

import { InputError, type RepoApyError, RequestError } from "../http/errors.ts";
import { type FileJson, HEADER, type UploadJson } from "../http/protocol.ts";
import { sleep } from "../http/retry.ts";
import type { Transport } from "../http/transport.ts";
import { acquireHashPool } from "./_hash_pool.ts";
import { runPool } from "./_pool.ts";
import type { ResolvedSource } from "./_source.ts";
import { UploadError } from "./errors.ts";
import type { ProgressCallback } from "./progress.ts";

/** Options of {@linkcode sendChunked}. */
export interface ChunkedOptions {
  /** Chunk requests in flight at most. */
  concurrency: number;
  /** Progress callback. */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the upload (the server keeps it for resuming). */
  signal?: AbortSignal | undefined;
  /** Longest time to wait for the merge task, in milliseconds. */
  pollDeadlineMs: number;
}

const POLL_START_MS = 100;
const POLL_MAX_MS = 2000;

/**
 * Sends every chunk the upload lacks, finishes it and waits for the merged file.
 *
 * @param transport The transport.
 * @param upload The active chunked upload (possibly with chunks from an earlier attempt).
 * @param source The data.
 * @param options Concurrency, progress, signal and poll deadline.
 * @returns The created or replaced file.
 */
export async function sendChunked(
  transport: Transport,
  upload: UploadJson,
  source: ResolvedSource,
  options: ChunkedOptions,
): Promise<FileJson> {
  const chunkSize = upload._meta.chunk_size;
  const count = upload.chunk_count;
  const sizeOf = (index: number) =>
    Math.max(0, Math.min(chunkSize, source.size - index * chunkSize));
  // Chunks the server already has (from an earlier attempt), by index → MD5. They are still read
  // locally and compared, so a resumed upload never keeps chunks of a different file that happens
  // to have the same name and size; a chunk whose MD5 differs is sent again (overwriting it).
  const stored = new Map(
    (upload.chunks ?? [])
      .filter((chunk) => chunk.size === sizeOf(chunk.index) && typeof chunk.checksum === "string")
      .map((chunk) => [chunk.index, chunk.checksum.toLowerCase()]),
  );
  let bytes = 0;
  for (const index of stored.keys()) bytes += sizeOf(index);
  options.onProgress?.({ bytes, total: source.size });
  const wanted = (index: number) => index < count;
  const target = upload._actions.upload_data ?? upload._links.self;
  if (target === undefined) throw protocolError(upload, "upload_data");

  try {
    using hashes = acquireHashPool();
    const limit = Math.max(1, Math.min(options.concurrency, count));
    await runPool(limit, source.chunks(chunkSize, wanted), async (chunk) => {
      using _release = { [Symbol.dispose]: () => chunk.release() };
      // Hashed by a worker, so the chunks in flight are hashed on several cores at once while
      // this thread reads the next chunk and keeps the requests going.
      const hashed = await hashes.md5(chunk.bytes, { transfer: chunk.owned });
      chunk.bytes = hashed.bytes;
      const checksum = hashed.digest;
      const known = stored.get(chunk.index);
      if (known === checksum) return;
      const response = await transport.request("PUT", target, {
        body: chunk.bytes,
        headers: {
          [HEADER.contentType]: "application/octet-stream",
          [HEADER.chunkIndex]: String(chunk.index),
          [HEADER.chunkSize]: String(chunk.bytes.byteLength),
          [HEADER.md5Checksum]: checksum,
        },
        idempotent: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      await response.body?.cancel();
      // A stored chunk that was replaced is already counted.
      if (known === undefined) bytes += chunk.bytes.byteLength;
      options.onProgress?.({ bytes, total: source.size });
    }, { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw failure(upload, "Sending a chunk of", error);
  }

  const finish = upload._actions.finish;
  if (finish === undefined) throw protocolError(upload, "finish");
  let finished: UploadJson;
  try {
    finished = await transport.json<UploadJson>("POST", finish, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw failure(upload, "Finishing", error);
  }
  return await pollTask(transport, finished, options);
}

async function pollTask(
  transport: Transport,
  upload: UploadJson,
  options: ChunkedOptions,
): Promise<FileJson> {
  const self = upload._links.self;
  if (self === undefined) throw protocolError(upload, "self");
  const deadline = Date.now() + options.pollDeadlineMs;
  let delay = POLL_START_MS;
  let current = upload;
  for (;;) {
    const task = current._meta?.task;
    if (task?.file) return task.file;
    if (
      task?.error !== undefined || (task && /^(failure|failed|error|revoked)$/i.test(task.state))
    ) {
      throw new UploadError(
        `The server could not assemble '${upload.name}' (${
          task.error ?? task.state
        }): upload the file again`,
        { upload: current, task },
      );
    }
    if (current.state === "inactive" && !task) {
      throw new UploadError(
        `The upload of '${upload.name}' ended without a file: upload the file again`,
        { upload: current },
      );
    }
    if (Date.now() + delay > deadline) {
      throw new UploadError(
        `The server is still assembling '${upload.name}' after ${
          Math.round(options.pollDeadlineMs / 1000)
        } s: check the record's files later, or raise pollDeadlineMs`,
        { upload: current, ...(task ? { task } : {}) },
      );
    }
    await sleep(delay, options.signal);
    delay = Math.min(POLL_MAX_MS, delay * 2);
    current = await transport.json<UploadJson>("GET", self, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}

/**
 * Tells whether an error means the server no longer has the upload (it expired or was deleted):
 * a 404 answer to a chunk PUT or to the finish request.
 *
 * @param error The error thrown by {@linkcode sendChunked}.
 * @returns True when a new upload is needed.
 */
export function isUploadGone(error: unknown): boolean {
  return error instanceof UploadError && !error.resumable &&
    error.cause instanceof RequestError && error.cause.status === 404;
}

function failure(upload: UploadJson, step: string, cause: unknown): RepoApyError {
  // A problem with the local data (the file changed or shrank, a stream delivered the wrong
  // number of bytes) is the caller's to fix; resuming with the same data would not help.
  if (cause instanceof InputError) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  if (cause instanceof RequestError && cause.status === 404) {
    return new UploadError(
      `${step} '${upload.name}' failed (${reason}); the server no longer has this upload (it expired or was deleted): run the upload again to start a new one`,
      { upload, cause },
    );
  }
  return new UploadError(
    `${step} '${upload.name}' failed (${reason}); the server keeps the partial upload for a day: run the same upload again to resume it`,
    { upload, resumable: true, cause },
  );
}

function protocolError(upload: UploadJson, key: string): RepoApyError {
  return new UploadError(
    `The server's upload of '${upload.name}' has no '${key}' link: the server may use an unsupported upload API`,
    { upload },
  );
}
