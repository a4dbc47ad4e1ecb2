/**
 * Atomic file writes: data is streamed to a hidden temporary file beside the target
 * (`.<name>.<8 hex>.part`), synced, checked, and renamed onto the target only when complete.
 * On a failure the temporary file is deleted (or kept for resuming, when the caller says so) and
 * the target is left as it was.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { safeFileName } from "../utils/file_name.ts";

/** Options of {@linkcode writeAtomic}. */
export interface WriteAtomicOptions {
  /**
   * Runs after all data is written, while it is synced to the disk, and must end before the
   * rename; throwing cancels the write.
   */
  verify?: () => void | Promise<void>;
  /**
   * Called with each piece while it is being written, and awaited after the write; the piece's
   * buffer is reused once the returned promise settled.
   */
  onChunk?: (chunk: Uint8Array) => void | Promise<void>;
  /** Called with the size of each piece once it is written (the file holds it). */
  onWritten?: (bytes: number) => void;
  /** The temporary file (default: a fresh one from {@linkcode tempPathFor}). */
  temp?: string;
  /** Append to the data already in `temp` (a resumed download) instead of creating it anew. */
  append?: boolean;
  /** Whether the temporary file is kept after `error` (to resume later); default: deleted. */
  keepOnError?: (error: unknown) => boolean;
}

/**
 * Writes a stream to `path` atomically.
 *
 * @param path The target file.
 * @param body The data; it is consumed fully or cancelled.
 * @param options Verification before the rename.
 */
export async function writeAtomic(
  path: string,
  body: ReadableStream<Uint8Array>,
  options: WriteAtomicOptions = {},
): Promise<void> {
  const temp = options.temp ?? tempPathFor(path);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(
      temp,
      options.append
        ? { write: true, append: true }
        : { write: true, createNew: true, mode: 0o644 },
    );
  } catch (error) {
    await body.cancel().catch(() => {});
    throw error;
  }
  let open = true;
  const flush = new BackgroundFlush(temp);
  try {
    for await (const chunk of readChunks(body)) {
      // The write runs on another thread while the piece is handled (hashed) here.
      const writing = writeAll(file, chunk);
      writing.catch(() => {});
      const handled = options.onChunk?.(chunk);
      await writing;
      options.onWritten?.(chunk.byteLength);
      await handled;
      flush.written(chunk.byteLength);
    }
    // The check (the last hashing) runs while the data goes to the disk.
    const verified = Promise.resolve().then(options.verify);
    verified.catch(() => {}); // awaited below
    await flush.settle();
    await file.sync();
    file.close();
    open = false;
    await verified;
    await Deno.rename(temp, path);
  } catch (error) {
    await flush.settle().catch(() => {});
    if (open) file.close();
    if (!options.keepOnError?.(error)) await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/** Bytes written after which the data written so far is flushed to disk in the background. */
const FLUSH_EVERY_BYTES = 32 << 20;

/**
 * Flushes a file being written to disk while the writing goes on, through a second handle (so
 * the writes never wait for it), at most one flush at a time: the `fsync` before the rename then
 * finds little left to write (500 MB: 150–210 ms of waiting at the end before, 12 ms after; see
 * docs/decisions.md). A failed flush fails the write at `settle()`.
 */
class BackgroundFlush {
  #path: string;
  #handle: Promise<Deno.FsFile | undefined> | undefined;
  #inFlight: Promise<void> | undefined;
  #since = 0;
  #failed: { error: unknown } | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** Counts written bytes; starts a flush every {@linkcode FLUSH_EVERY_BYTES} when none runs. */
  written(bytes: number): void {
    this.#since += bytes;
    if (this.#since < FLUSH_EVERY_BYTES || this.#inFlight !== undefined) return;
    this.#since = 0;
    // Opened for writing (never written through): `fdatasync` needs no read permission then.
    // Without this handle the final `fsync` does all the work, as it would anyway.
    this.#handle ??= Deno.open(this.#path, { write: true }).catch(() => undefined);
    const flushing = this.#handle.then((handle) => handle?.syncData());
    this.#inFlight = flushing.then(
      () => {},
      (error) => void (this.#failed ??= { error }),
    ).finally(() => this.#inFlight = undefined);
  }

  /** Waits for the flush in flight and closes the handle; throws when a flush failed. */
  async settle(): Promise<void> {
    await this.#inFlight;
    const handle = await this.#handle;
    this.#handle = undefined;
    handle?.close();
    if (this.#failed) throw this.#failed.error;
  }
}

const READ_BUFFER_BYTES = 1 << 20;

/**
 * Reads a stream piece by piece. A byte stream is read into two reused 1 MiB buffers, the next
 * read running while the caller handles the current piece, so a download of any size allocates
 * nothing per piece and the network does not wait for the disk. Each piece is valid until the
 * next one is requested. An early stop cancels the stream.
 */
async function* readChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    yield* body;
    return;
  }
  let spare = new ArrayBuffer(READ_BUFFER_BYTES);
  // A read may fail while the caller still handles the previous piece (an abort, a broken
  // connection); it is awaited later, so mark it handled now.
  const read = (buffer: ArrayBuffer) => {
    const result = reader.read(new Uint8Array(buffer));
    result.catch(() => {});
    return result;
  };
  let pending = read(new ArrayBuffer(READ_BUFFER_BYTES));
  let finished = false;
  try {
    while (true) {
      const { done, value } = await pending;
      if (done) {
        finished = true;
        return;
      }
      pending = read(spare);
      yield value;
      spare = value.buffer as ArrayBuffer;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Name of a temporary file beside `path`.
 *
 * @param path The target file.
 * @param key 8 hex digits naming the data (a resumable download); default random.
 * @returns `<dir>/.<name>.<key>.part`.
 */
export function tempPathFor(path: string, key: string = crypto.randomUUID().slice(0, 8)): string {
  return join(dirname(path), `.${tempStem(basename(path))}.${key}.part`);
}

/**
 * The part of a temporary name taken from the target's name (at most 200 bytes, so the whole
 * temporary name stays within 255).
 *
 * @param name The target's file name.
 * @returns The shortened name.
 */
export function tempStem(name: string): string {
  return safeFileName(name, { maxBytes: 200 });
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) offset += await file.write(data.subarray(offset));
}
