/**
 * The chunked half of the upload protocol: send the missing chunks through a bounded pool, finish
 * the upload, poll the merge task until it produced the file, and verify the file's checksum.
 * When another process finished the same upload, or the answer to `finish` was lost, the upload
 * is followed to its file instead of failing.
 *
 * @module
 */

import { InputError, type RepoApyError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import { type FileJson, HEADER, type UploadJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { compositeCandidates, md5Hex } from "./_chunks.ts";
import { UPLOAD_ANSWER } from "./_answers.ts";
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
  /** MD5s of the source's chunks, by index, already computed (and found on the server). */
  known?: ReadonlyMap<number, string> | undefined;
}

/**
 * Another process got in the way of this upload: it created the file's name after this upload
 * started (`name`), or wrote other data into this upload (`chunks`; the upload was deleted).
 * A new upload is the remedy.
 */
export class UploadConflict extends UploadError {
  /** What the other process did. */
  readonly conflict: "name" | "chunks";

  /**
   * Creates the error.
   *
   * @param conflict What the other process did.
   * @param cause The server's answer that showed it.
   */
  constructor(upload: UploadJson, conflict: "name" | "chunks", cause?: unknown) {
    super(
      conflict === "name"
        ? `Another process created a file named '${upload.name}' while it was uploaded: nothing was replaced; add force to replace it`
        : `Another process wrote other data into the upload of '${upload.name}': the upload was deleted and nothing was changed; run the upload again`,
      { upload, ...(cause === undefined ? {} : { cause }) },
    );
    this.conflict = conflict;
  }
}

/**
 * Deletes an upload the server should not keep (best effort: it may be gone already, and the
 * server drops active uploads after a day anyway).
 */
export async function deleteUpload(transport: Transport, upload: UploadJson): Promise<void> {
  const link = upload._actions.delete ?? upload._links.self;
  if (link === undefined) return;
  try {
    const response = await transport.request("DELETE", link, { expect: [404] });
    await response.body?.cancel();
  } catch {
    // Left to the server's expiry.
  }
}

/**
 * One run of {@linkcode sendChunked}: the upload, what the server has of it, and what this
 * process read of the source.
 */
interface Session {
  readonly transport: Transport;
  readonly upload: UploadJson;
  readonly source: ResolvedSource;
  readonly options: ChunkedOptions;
  /** The upload's own link (read back to see what the server holds). */
  readonly self: string;
  /** Where chunks are sent. */
  readonly target: string;
  readonly chunkSize: number;
  readonly count: number;
  /** The signal for every request. */
  readonly request: { signal?: AbortSignal };
  /**
   * Chunks the server holds, by index → MD5, from its lists. They are still read locally and
   * compared, so a resumed upload never keeps chunks of a different file that happens to have
   * the same name and size; a chunk whose MD5 differs is sent again (overwriting it).
   */
  readonly stored: Map<number, string>;
  /** Chunks counted as on the server, for progress and for what a failure leaves there. */
  readonly onServer: Set<number>;
  /** Bytes on the server when this run started. */
  resumed: number;
  /** MD5s of the source's chunks, by index, as read. */
  readonly digests: string[];
  /**
   * Set when the server stopped taking chunks (404): another process finished the upload, or it
   * is gone. The remaining chunks are still hashed, so the result can be verified.
   */
  stopped: RequestError | undefined;
  /** False once the server's list says the upload is no longer active. */
  active: boolean;
}

/**
 * Sends every chunk the upload lacks, finishes it, waits for the merged file and verifies it.
 *
 * @param upload The chunked upload (possibly with chunks from an earlier attempt, or already
 * finished by another process).
 * @returns The created or replaced file, verified.
 */
export async function sendChunked(
  transport: Transport,
  upload: UploadJson,
  source: ResolvedSource,
  options: ChunkedOptions,
): Promise<FileJson> {
  const session = openSession(transport, upload, source, options);
  await sendMissing(session);
  const sent: SentData = { size: source.size, checksums: compositeCandidates(session.digests) };
  if (session.stopped !== undefined || !session.active) return await followOther(session, sent);
  return await finishUpload(session, sent);
}

/** The session of an upload, with what the server holds learned; reports the starting progress. */
function openSession(
  transport: Transport,
  upload: UploadJson,
  source: ResolvedSource,
  options: ChunkedOptions,
): Session {
  const self = upload._links.self;
  const session: Session = {
    transport,
    upload,
    source,
    options,
    self: self ?? "",
    target: upload._actions.upload_data ?? self ?? "",
    chunkSize: upload._meta.chunk_size,
    count: upload.chunk_count,
    request: options.signal ? { signal: options.signal } : {},
    stored: new Map(),
    onServer: new Set(),
    resumed: 0,
    digests: new Array(upload.chunk_count),
    stopped: undefined,
    active: upload.state === "active",
  };
  learn(session, upload);
  for (const index of session.stored.keys()) session.onServer.add(index);
  session.resumed = bytesOnServer(session);
  report(session);
  if (self === undefined) throw protocolError(upload, "upload_data");
  return session;
}

/** Bytes of chunk `index` of the source. */
function sizeOf(session: Session, index: number): number {
  const { chunkSize, source } = session;
  return Math.max(0, Math.min(chunkSize, source.size - index * chunkSize));
}

/** Takes the chunks of the server's list that have their full size and a checksum. */
function learn(session: Session, current: UploadJson): void {
  for (const chunk of current.chunks ?? []) {
    if (chunk.size === sizeOf(session, chunk.index) && typeof chunk.checksum === "string") {
      session.stored.set(chunk.index, chunk.checksum.toLowerCase());
    }
  }
}

function bytesOnServer(session: Session): number {
  return [...session.onServer].reduce((sum, index) => sum + sizeOf(session, index), 0);
}

function report(session: Session): void {
  const { source, resumed } = session;
  session.options.onProgress?.({ bytes: bytesOnServer(session), total: source.size, resumed });
}

/** What a failed or cancelled run leaves on the server, for resuming. */
function left(session: Session): Left {
  return {
    uploadId: session.upload.id,
    chunks: session.onServer.size,
    chunkCount: session.count,
    bytes: bytesOnServer(session),
  };
}

/**
 * Reads every chunk not yet verified and sends those the server lacks, through a bounded pool.
 * A failure deletes the upload unless it can be resumed.
 */
async function sendMissing(session: Session): Promise<void> {
  const { transport, upload, source, options, stored, digests, count } = session;
  try {
    const limit = Math.max(1, Math.min(options.concurrency, count));
    // Chunks already verified against the server's (when resuming) are not read again.
    for (const [index, checksum] of options.known ?? []) {
      if (stored.get(index) === checksum) digests[index] = checksum;
    }
    const unread = (index: number) => digests[index] === undefined;
    const send = (chunk: SourceChunk) => sendChunk(session, chunk);
    for (const wanted of passes(count, stored, options.recheck === true)) {
      const chunks = source.chunks(session.chunkSize, (index) => wanted(index) && unread(index));
      await runPool(limit, chunks, send, { signal: options.signal });
    }
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason, left(session));
    const failed = failure(upload, "Sending a chunk of", error, left(session));
    // Kept only for resuming: an upload that cannot be resumed is not left on the server.
    if (!(failed instanceof UploadError && failed.resumable)) await deleteUpload(transport, upload);
    throw failed;
  }
}

/** Hashes one chunk and sends it unless the server holds it already or stopped taking chunks. */
async function sendChunk(session: Session, chunk: SourceChunk): Promise<void> {
  using _release = { [Symbol.dispose]: () => chunk.release() };
  const checksum = session.options.known?.get(chunk.index) ?? md5Hex(chunk.bytes);
  session.digests[chunk.index] = checksum;
  if (!session.active || session.stopped || session.stored.get(chunk.index) === checksum) return;
  if (session.options.recheck && await sentMeanwhile(session, chunk.index, checksum)) return;
  const answer = await putChunk(session, chunk, checksum);
  if (answer === undefined) return;
  // The server's list right after storing the chunk: other bytes than were sent are never
  // finished into a file.
  const kept = answer.chunks?.find((stored) => stored.index === chunk.index)?.checksum;
  if (typeof kept === "string" && kept.toLowerCase() !== checksum) {
    throw new UploadError(
      `The server stored other data than was sent for chunk ${chunk.index} of '${session.upload.name}' (checksum ${kept} instead of ${checksum}): the upload was deleted and nothing was changed; upload the file again`,
      { upload: session.upload },
    );
  }
  session.stored.set(chunk.index, checksum);
  session.onServer.add(chunk.index);
  report(session);
}

/**
 * Re-reads the server's list before a chunk is sent: true when the chunk need not be sent,
 * because another process sent it meanwhile or the upload is no longer active.
 */
async function sentMeanwhile(session: Session, index: number, checksum: string) {
  const current = await session.transport.jsonObject<UploadJson>("GET", session.self, {
    ...UPLOAD_ANSWER,
    ...session.request,
  });
  learn(session, current);
  if (current.state !== "active") {
    session.active = false;
    return true;
  }
  if (session.stored.get(index) !== checksum) return false;
  session.onServer.add(index);
  report(session);
  return true;
}

/**
 * Sends one chunk; the server's answer, or `undefined` when it stopped taking chunks (404,
 * remembered in `stopped`). The request is idempotent: the same bytes at the same index.
 */
async function putChunk(
  session: Session,
  chunk: SourceChunk,
  checksum: string,
): Promise<UploadJson | undefined> {
  try {
    return await session.transport.jsonObject<UploadJson>("PUT", session.target, {
      ...UPLOAD_ANSWER,
      body: chunk.bytes,
      headers: {
        [HEADER.contentType]: "application/octet-stream",
        [HEADER.chunkIndex]: String(chunk.index),
        [HEADER.chunkSize]: String(chunk.bytes.byteLength),
        [HEADER.md5Checksum]: checksum,
      },
      idempotent: true,
      ...session.request,
    });
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 404) throw error;
    session.stopped ??= error;
    return undefined;
  }
}

/**
 * Follows an upload the server stopped taking chunks for, or that is no longer active, to its
 * file; only when every chunk it holds is one of this data.
 */
async function followOther(session: Session, sent: SentData): Promise<FileJson> {
  const { upload, stopped, stored, digests } = session;
  if ([...stored].some(([index, checksum]) => digests[index] !== checksum)) {
    throw new UploadError(
      `Another upload of '${upload.name}' with other content is being finished on the server: run the upload again once it is done`,
      { upload, ...(stopped ? { cause: stopped } : {}) },
    );
  }
  return await settle(
    session.transport,
    upload,
    sent,
    stopped,
    "Sending a chunk of",
    session.options,
  );
}

/**
 * Finishes the upload once every chunk is sent: checks that the server holds only this data,
 * asks for the merge, and waits for the verified file. A finish whose answer is lost is followed
 * to its outcome, never sent again.
 */
async function finishUpload(session: Session, sent: SentData): Promise<FileJson> {
  const { transport, upload, options } = session;
  const finish = upload._actions.finish;
  if (finish === undefined) throw protocolError(upload, "finish");
  // Just before the finish: every chunk the server holds must be one this process verified (sent
  // or compared); another process may have written into the upload meanwhile.
  let before: UploadJson;
  try {
    before = await transport.jsonObject<UploadJson>("GET", session.self, {
      ...UPLOAD_ANSWER,
      ...session.request,
    });
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason, left(session));
    throw failure(upload, "Checking the chunks of", error, left(session));
  }
  if (before.state !== "active") {
    return await settle(transport, upload, sent, undefined, "Finishing", options);
  }
  if (!holdsOnly(before, session)) {
    await deleteUpload(transport, upload);
    throw new UploadConflict(upload, "chunks");
  }
  let finished: UploadJson;
  try {
    finished = await transport.jsonObject<UploadJson>("POST", finish, {
      ...UPLOAD_ANSWER,
      ...session.request,
    });
  } catch (error) {
    if (options.signal?.aborted) throw aborted(upload, options.signal.reason, left(session));
    // The answer may be lost although the server took the finish, or another process finished
    // first (404): look at the upload before reporting a failure.
    return await settle(transport, upload, sent, error, "Finishing", options);
  }
  return await merged(transport, finished, sent, options);
}

/** Whether the upload holds every chunk, each of the size and MD5 this process verified. */
function holdsOnly(upload: UploadJson, session: Session): boolean {
  const { digests } = session;
  const seen = new Set<number>();
  for (const chunk of upload.chunks ?? []) {
    const ours = digests[chunk.index];
    if (
      ours === undefined || chunk.size !== sizeOf(session, chunk.index) ||
      typeof chunk.checksum !== "string" || chunk.checksum.toLowerCase() !== ours
    ) return false;
    seen.add(chunk.index);
  }
  return seen.size === digests.length;
}

/**
 * Waits for the merge task and verifies what it stored: the upload's own checksum where the
 * server reports it (the file may have been replaced by another upload since), else the file's.
 * A failed task is a success only when the record holds the same content under the name anyway
 * (another upload of it won); a name another process created meanwhile is an
 * {@linkcode UploadConflict}.
 */
async function merged(
  transport: Transport,
  upload: UploadJson,
  sent: SentData,
  options: ChunkedOptions,
): Promise<FileJson> {
  let done: { file: FileJson; checksum: string | undefined };
  try {
    done = await pollTask(transport, upload, options);
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const existing = await options.findFile?.(upload.name);
    if (existing !== undefined && sameContent(existing, sent)) return existing;
    if (error.task !== undefined && existing !== undefined && upload.file == null) {
      throw new UploadConflict(upload, "name", error);
    }
    throw error;
  }
  const { file, checksum } = done;
  if (checksum !== undefined && sameContent({ ...file, size: upload.size, checksum }, sent)) {
    return file.checksum === checksum ? file : { ...file, size: upload.size, checksum };
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
    current = await transport.jsonObject<UploadJson>("GET", upload._links.self!, {
      ...UPLOAD_ANSWER,
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
  // number of bytes) is the caller's to fix; resuming with the same data would not help. An
  // upload error says what happened already.
  if (cause instanceof InputError || cause instanceof UploadError) return cause;
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
