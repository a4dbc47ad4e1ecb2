/**
 * Atomic file writes: data is streamed to a hidden temporary file beside the target
 * (`.<name>.<8 hex>.part`), synced, checked, and renamed onto the target only when complete.
 * On a failure the temporary file is deleted (or kept for resuming, when the caller says so) and
 * the target is left as it was.
 *
 * A temporary file belongs to one process at a time: the one holding an exclusive advisory lock
 * on it ({@linkcode claimPart}). The operating system drops the lock when its holder ends, also on
 * `kill -9`, so a partial file left by a killed run is claimed (and resumed) by the next run,
 * while one still being written is never touched: another run takes a private temporary file.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { safeFileName } from "../utils/file_name.ts";
import { freePath, lstatOrUndefined } from "./_paths.ts";

/**
 * A temporary file this process owns: open for reading and writing, and exclusively locked until
 * {@linkcode PartFile.release}.
 */
export class PartFile {
  /** The temporary file's path. */
  readonly path: string;
  /** The open, locked file. */
  readonly file: Deno.FsFile;
  /** Bytes it held when claimed (data of an earlier run), 0 for a new one. */
  readonly size: number;
  /** Whether it has the data's shared name (kept for resuming), not a private one. */
  readonly resumable: boolean;
  #placed = false;
  #released = false;

  /**
   * Wraps a claimed file.
   *
   * @param file The open file, locked.
   * @param resumable Whether it has the shared name.
   */
  constructor(path: string, file: Deno.FsFile, size: number, resumable: boolean) {
    this.path = path;
    this.file = file;
    this.size = size;
    this.resumable = resumable;
  }

  /** Marks the data as moved to its target (nothing is left to remove). */
  placed(): void {
    this.#placed = true;
  }

  /**
   * Closes the file (which drops the lock); removes it first unless it was placed, or `keep` asks
   * to keep a resumable one.
   *
   * @param keep Keep the data for resuming (only a resumable file that holds data).
   */
  async release(keep = false): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    if (!this.#placed && !(keep && this.resumable)) await Deno.remove(this.path).catch(() => {});
    this.file.close();
  }
}

/**
 * Claims the temporary file of a download: the shared one named after the data (`key`) when no
 * other process holds it, resuming the data it holds; else, or without a key, a new private one.
 *
 * @param key 8 hex digits naming the data (a resumable download).
 * @returns The claimed file; release it.
 */
export async function claimPart(target: string, key?: string): Promise<PartFile> {
  if (key !== undefined) {
    const shared = tempPathFor(target, key);
    // A retry only when the file was renamed or removed between opening and locking it.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimed = await tryClaim(shared);
      if (claimed === "busy") break;
      if (claimed !== undefined) return claimed;
    }
  }
  const path = tempPathFor(target);
  const file = await Deno.open(path, { read: true, write: true, createNew: true, mode: 0o644 });
  try {
    await file.lock(true); // a new name: nobody else holds it; the lock marks it as in use
  } catch (error) {
    file.close();
    await Deno.remove(path).catch(() => {});
    throw error;
  }
  return new PartFile(path, file, 0, false);
}

/**
 * Opens and locks `path`: the claimed file, `"busy"` when another process holds it (or it is not
 * a regular file), or `undefined` when it changed before the lock was taken (try again).
 */
async function tryClaim(path: string): Promise<PartFile | "busy" | undefined> {
  const before = await lstatOrUndefined(path);
  if (before !== undefined && !before.isFile) return "busy";
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o644 });
  try {
    if (!await file.tryLock(true)) {
      file.close();
      return "busy";
    }
    // The owner may have renamed its file into place (or removed it) before the lock was taken:
    // the lock then holds a file that no longer has this name.
    const info = await file.stat();
    const now = await lstatOrUndefined(path);
    if (now === undefined || !now.isFile || now.ino !== info.ino || now.dev !== info.dev) {
      file.close();
      return undefined;
    }
    return new PartFile(path, file, info.size, true);
  } catch (error) {
    file.close();
    throw error;
  }
}

/**
 * Whether another process holds `path` (a temporary file being written).
 *
 * @returns True while its owner runs.
 */
export async function partInUse(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true });
  } catch {
    return false;
  }
  try {
    return !await file.tryLock(true);
  } finally {
    file.close();
  }
}

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
  /**
   * The temporary file, claimed and positioned where the data goes (default: a new private one,
   * released here).
   */
  part?: PartFile;
  /** More bytes than this are refused before they are written: `tooLong(bytes)` is thrown. */
  maxBytes?: number;
  /** The error for data longer than `maxBytes`, given the bytes received. */
  tooLong?: (bytes: number) => Error;
  /**
   * Replace an existing target. Otherwise a target that appeared meanwhile (another process) is
   * kept and the data takes the next free `<stem>_<n><ext>` name.
   */
  replace?: boolean;
  /** Paths claimed by this operation, never chosen as a new name (see `freePath`). */
  claimed?: Set<string>;
  /**
   * Runs right before the finished file is renamed onto the target (checks that the target's
   * folders are still what they were); throwing cancels the write.
   */
  beforePlace?: () => void | Promise<void>;
}

/**
 * Writes a stream to `path` atomically.
 *
 * @param body The data; it is consumed fully or cancelled.
 * @param options Temporary file, verification before the rename, overwrite policy.
 * @returns The path written (another free name when the target appeared meanwhile, without
 * `replace`).
 */
export async function writeAtomic(
  path: string,
  body: ReadableStream<Uint8Array>,
  options: WriteAtomicOptions = {},
): Promise<string> {
  let part = options.part;
  if (part === undefined) {
    try {
      part = await claimPart(path);
    } catch (error) {
      await body.cancel().catch(() => {});
      throw error;
    }
    try {
      return await writeAtomic(path, body, { ...options, part });
    } finally {
      await part.release();
    }
  }
  const file = part.file;
  const flush = new BackgroundFlush(part.path);
  let received = 0;
  try {
    for await (const chunk of readChunks(body, options.maxBytes)) {
      received += chunk.byteLength;
      if (options.maxBytes !== undefined && received > options.maxBytes) {
        throw options.tooLong?.(received) ?? new RangeError(`More than ${options.maxBytes} bytes`);
      }
      // The write runs on another thread while the piece is handled (hashed) here.
      const writing = writeAll(file, chunk);
      writing.catch(() => {});
      const handled = options.onChunk?.(chunk);
      await writing;
      await handled;
      flush.written(chunk.byteLength);
    }
    // The check (the last hashing) runs while the data goes to the disk.
    const verified = Promise.resolve().then(options.verify);
    verified.catch(() => {}); // awaited below
    await flush.settle();
    await file.sync();
    await verified;
    await options.beforePlace?.();
    const placed = await place(part.path, path, options);
    part.placed();
    return placed;
  } catch (error) {
    await flush.settle().catch(() => {});
    throw error;
  }
}

/**
 * Moves the finished temporary file to `target`: a rename that replaces, or (without `replace`)
 * a hard link that fails on an existing name, so a file another process placed a moment ago is
 * never overwritten. Where the file system has no hard links, an existence check and a rename.
 */
async function place(temp: string, target: string, options: WriteAtomicOptions): Promise<string> {
  if (options.replace) {
    await Deno.rename(temp, target);
    return target;
  }
  const taken = options.claimed ?? new Set([target]);
  let candidate = target;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await Deno.link(temp, candidate);
      await Deno.remove(temp);
      return candidate;
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        if (await lstatOrUndefined(candidate) === undefined) {
          await Deno.rename(temp, candidate);
          return candidate;
        }
      }
      taken.add(candidate);
      candidate = await freePath(target, taken);
    }
  }
  throw new Deno.errors.AlreadyExists(`No free name for '${target}'`);
}

/** Bytes written after which the data written so far is flushed to disk in the background. */
const FLUSH_EVERY_BYTES = 32 << 20;

/**
 * Flushes a file being written to disk while the writing goes on, through a second handle (so
 * the writes never wait for it), at most one flush at a time: the `fsync` before the rename then
 * finds little left to write. A failed flush fails the write at `settle()`.
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
const MIN_READ_BUFFER_BYTES = 16 << 10;

/**
 * Reads a stream piece by piece. A byte stream is read into two reused buffers of 1 MiB, or of
 * about `maxBytes` when that is less (a small file costs no megabytes of zeroed memory), the next
 * read running while the caller handles the current piece, so a download of any size allocates
 * nothing per piece and the network does not wait for the disk. Each piece is valid until the
 * next one is requested. An early stop cancels the stream.
 */
async function* readChunks(
  body: ReadableStream<Uint8Array>,
  maxBytes = Infinity,
): AsyncGenerator<Uint8Array> {
  const size = Math.min(READ_BUFFER_BYTES, Math.max(MIN_READ_BUFFER_BYTES, maxBytes + 1));
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    yield* body;
    return;
  }
  let spare = new ArrayBuffer(size);
  // A read may fail while the caller still handles the previous piece (an abort, a broken
  // connection); it is awaited later, so mark it handled now.
  const read = (buffer: ArrayBuffer) => {
    const result = reader.read(new Uint8Array(buffer));
    result.catch(() => {});
    return result;
  };
  let pending = read(new ArrayBuffer(size));
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
 * @param key 8 hex digits naming the data (a resumable download); default random.
 * @returns `<dir>/.<name>.<key>.part`.
 */
export function tempPathFor(path: string, key: string = crypto.randomUUID().slice(0, 8)): string {
  return join(dirname(path), `.${tempStem(basename(path))}.${key}.part`);
}

/**
 * The part of a temporary name taken from the target's name (at most 200 bytes, so the whole
 * temporary name stays within 255).
 */
export function tempStem(name: string): string {
  return safeFileName(name, { maxBytes: 200 });
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) offset += await file.write(data.subarray(offset));
}
