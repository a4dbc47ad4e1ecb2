/**
 * The chunked half of the upload protocol: send the missing chunks through a bounded pool, finish
 * the upload, poll the merge task until it produced the file, and verify the file's checksum.
 * When another process finished the same upload, or the answer to `finish` was lost, the upload
 * is followed to its file instead of failing.
 *
 * @module
 */

import { InputError, type RepoApyError, RequestError } from "../http/errors.ts";
import { type FileJson, HEADER, type UploadJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { compositeCandidates, md5Hex } from "./_chunks.ts";
import { runPool } from "./_pool.ts";
import type { ResolvedSource, SourceChunk } from "./_source.ts";
import { pollTask } from "./_task.ts";
import { sameContent, type SentData, verifyUploaded } from "./_verify.ts";
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
  /**
   * Re-read the server's chunk list before sending a chunk: another process may be resuming the
   * same upload, and a chunk it already sent is not sent again.
   */
  recheck?: boolean | undefined;
  /** Looks up the record's file of a name (to recognise an upload finished elsewhere). */
  findFile?: ((name: string) => Promise<FileJson | undefined>) | undefined;
}

/**
 * Sends every chunk the upload lacks, finishes it, waits for the merged file and verifies it.
 *
 * @param transport The transport.
 * @param upload The chunked upload (possibly with chunks from an earlier attempt, or already
 * finished by another process).
 * @param source The data.
 * @param options Concurrency, progress, signal, poll deadline, recheck and file lookup.
 * @returns The created or replaced file, verified.
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
  const request = options.signal ? { signal: options.signal } : {};
  // Chunks the server already has (from an earlier attempt), by index → MD5. They are still read
  // locally and compared, so a resumed upload never keeps chunks of a different file that happens
  // to have the same name and size; a chunk whose MD5 differs is sent again (overwriting it).
  const stored = new Map<number, string>();
  const learn = (current: UploadJson) => {
    for (const chunk of current.chunks ?? []) {
      if (chunk.size === sizeOf(chunk.index) && typeof chunk.checksum === "string") {
        stored.set(chunk.index, chunk.checksum.toLowerCase());
      }
    }
  };
  learn(upload);
  const onServer = new Set(stored.keys());
  const bytesOnServer = () => [...onServer].reduce((sum, index) => sum + sizeOf(index), 0);
  const resumed = bytesOnServer();
  const report = () =>
    options.onProgress?.({ bytes: bytesOnServer(), total: source.size, resumed });
  report();
  const self = upload._links.self;
  const target = upload._actions.upload_data ?? self;
  if (target === undefined || self === undefined) throw protocolError(upload, "upload_data");
  const digests: string[] = new Array(count);
  // Set when the server stopped taking chunks (404): another process finished the upload, or it
  // is gone. The remaining chunks are still hashed, so the result can be verified.
  let stopped: RequestError | undefined;
  let active = upload.state === "active";

  try {
    const limit = Math.max(1, Math.min(options.concurrency, count));
    const send = async (chunk: SourceChunk) => {
      using _release = { [Symbol.dispose]: () => chunk.release() };
      const checksum = md5Hex(chunk.bytes);
      digests[chunk.index] = checksum;
      if (!active || stopped || stored.get(chunk.index) === checksum) return;
      if (options.recheck) {
        const current = await transport.json<UploadJson>("GET", self, request);
        learn(current);
        if (current.state !== "active") {
          active = false;
          return;
        }
        if (stored.get(chunk.index) === checksum) {
          onServer.add(chunk.index);
          return report();
        }
      }
      try {
        const response = await transport.request("PUT", target, {
          body: chunk.bytes,
          headers: {
            [HEADER.contentType]: "application/octet-stream",
            [HEADER.chunkIndex]: String(chunk.index),
            [HEADER.chunkSize]: String(chunk.bytes.byteLength),
            [HEADER.md5Checksum]: checksum,
          },
          idempotent: true,
          ...request,
        });
        await response.body?.cancel();
      } catch (error) {
        if (!(error instanceof RequestError) || error.status !== 404) throw error;
        stopped ??= error;
        return;
      }
      stored.set(chunk.index, checksum);
      onServer.add(chunk.index);
      report();
    };
    for (const wanted of passes(count, stored, options.recheck === true)) {
      await runPool(limit, source.chunks(chunkSize, wanted), send, { signal: options.signal });
    }
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason, left());
    throw failure(upload, "Sending a chunk of", error, left());
  }
  const sent: SentData = { size: source.size, checksums: compositeCandidates(digests) };
  if (stopped !== undefined || !active) {
    // Following an upload someone else finished makes sense only if it holds this data.
    if ([...stored].some(([index, checksum]) => digests[index] !== checksum)) {
      throw new UploadError(
        `Another upload of '${upload.name}' with other content is being finished on the server: run the upload again once it is done`,
        { upload, ...(stopped ? { cause: stopped } : {}) },
      );
    }
    return await settle(transport, upload, sent, stopped, "Sending a chunk of", options);
  }

  const finish = upload._actions.finish;
  if (finish === undefined) throw protocolError(upload, "finish");
  let finished: UploadJson;
  try {
    finished = await transport.json<UploadJson>("POST", finish, request);
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason, left());
    // The answer may be lost although the server took the finish, or another process finished
    // first (404): look at the upload before reporting a failure.
    return await settle(transport, upload, sent, error, "Finishing", options);
  }
  return await merged(transport, finished, sent, options);

  function left() {
    return {
      uploadId: upload.id,
      chunks: onServer.size,
      chunkCount: count,
      bytes: bytesOnServer(),
    };
  }
}

/**
 * Waits for the merge task and verifies its file. A failed task is a success only when the
 * record holds the same content under the name anyway (another upload of it won).
 */
async function merged(
  transport: Transport,
  upload: UploadJson,
  sent: SentData,
  options: ChunkedOptions,
): Promise<FileJson> {
  let file: FileJson;
  try {
    file = await pollTask(transport, upload, options);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const existing = await options.findFile?.(upload.name);
    if (existing !== undefined && sameContent(existing, sent)) return existing;
    throw error;
  }
  return verifyUploaded(file, sent);
}

/**
 * Finds out what became of an upload whose chunk or finish request failed: finished (by this
 * or another process) → wait for the file and verify it; gone → the record's file of that name
 * if it has the content sent; still active → the original failure.
 */
async function settle(
  transport: Transport,
  upload: UploadJson,
  sent: SentData,
  cause: unknown,
  step: string,
  options: ChunkedOptions,
): Promise<FileJson> {
  let current: UploadJson | undefined;
  try {
    current = await transport.json<UploadJson>("GET", upload._links.self!, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason);
    if (!(error instanceof RequestError) || error.status !== 404) {
      throw failure(upload, step, cause ?? error);
    }
  }
  if (current !== undefined && (current.state !== "active" || current._meta?.task)) {
    return await merged(transport, current, sent, options);
  }
  if (current === undefined) {
    const existing = await options.findFile?.(upload.name);
    if (existing !== undefined && sameContent(existing, sent)) return existing;
  }
  throw failure(upload, step, cause ?? new Error("the upload stopped on the server"));
}

/**
 * The chunk ranges to go through, in order. Resumers that may run side by side start at a random
 * missing chunk and wrap around, so they send different chunks first and, re-reading the
 * server's list before each chunk, skip what the others sent meanwhile.
 */
function passes(
  count: number,
  stored: ReadonlyMap<number, string>,
  spread: boolean,
): ((index: number) => boolean)[] {
  const missing = Array.from({ length: count }, (_, index) => index).filter((i) => !stored.has(i));
  const start = spread && missing.length > 1
    ? missing[Math.floor(Math.random() * missing.length)]!
    : 0;
  if (start === 0) return [(index) => index < count];
  return [(index) => index >= start && index < count, (index) => index < start];
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

type Left = NonNullable<UploadError["left"]>;

function aborted(upload: UploadJson, reason: unknown, left?: Left): UploadError {
  const kept = left === undefined
    ? ""
    : `; the server keeps ${left.chunks} of ${left.chunkCount} chunks (${left.bytes} bytes) for a day`;
  return new UploadError(
    `The upload of '${upload.name}' was cancelled${kept}: run the same upload again to resume it`,
    { upload, resumable: true, aborted: true, cause: reason, ...(left ? { left } : {}) },
  );
}

function failure(upload: UploadJson, step: string, cause: unknown, left?: Left): RepoApyError {
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
    { upload, resumable: true, cause, ...(left ? { left } : {}) },
  );
}

function protocolError(upload: UploadJson, key: string): RepoApyError {
  return new UploadError(
    `The server's upload of '${upload.name}' has no '${key}' link: the server may use an unsupported upload API`,
    { upload },
  );
}
