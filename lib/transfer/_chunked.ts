/**
 * The chunked half of the upload protocol: send the missing chunks through a bounded pool, finish
 * the upload, and poll the merge task until it produced the file or failed.
 *
 * @module
 */

import type { RepoApyError } from "../http/errors.ts";
import { type FileJson, HEADER, type UploadJson } from "../http/protocol.ts";
import { sleep } from "../http/retry.ts";
import type { Transport } from "../http/transport.ts";
import { md5Hex } from "./_chunks.ts";
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
  const stored = new Set(
    (upload.chunks ?? []).filter((chunk) => chunk.size === sizeOf(chunk.index)).map((c) => c.index),
  );
  let bytes = 0;
  for (const index of stored) bytes += sizeOf(index);
  options.onProgress?.({ bytes, total: source.size });
  const wanted = (index: number) => index < count && !stored.has(index);
  const target = upload._actions.upload_data ?? upload._links.self;
  if (target === undefined) throw protocolError(upload, "upload_data");

  try {
    await runPool(options.concurrency, source.chunks(chunkSize, wanted), async (chunk) => {
      using _release = { [Symbol.dispose]: () => chunk.release() };
      const response = await transport.request("PUT", target, {
        body: chunk.bytes,
        headers: {
          [HEADER.contentType]: "application/octet-stream",
          [HEADER.chunkIndex]: String(chunk.index),
          [HEADER.chunkSize]: String(chunk.bytes.byteLength),
          [HEADER.md5Checksum]: md5Hex(chunk.bytes),
        },
        idempotent: true,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      await response.body?.cancel();
      bytes += chunk.bytes.byteLength;
      options.onProgress?.({ bytes, total: source.size });
    }, { signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw resumable(upload, "Sending a chunk of", error);
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
    throw resumable(upload, "Finishing", error);
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

function resumable(upload: UploadJson, step: string, cause: unknown): UploadError {
  const reason = cause instanceof Error ? cause.message : String(cause);
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
