/**
 * The per-part (composite) checksum of a download, hashed from the file it is written to: every
 * four parts on the disk go to the MD5 worker, which reads them back (from the page cache) into
 * four small SIMD lanes and hashes them together ({@linkcode HashPool.file}). The thread that
 * receives the data only counts what was written: it neither copies nor keeps any of it, and
 * the worker's lanes are 4 × 256 KiB whatever the file's size. The bytes verified are the bytes in
 * the file, not a copy of what arrived.
 *
 * It needs the MD5 worker and read access to the file; where either is missing,
 * {@linkcode FileLaneChecksum.create} returns `undefined` and the download hashes what arrives in
 * memory ({@linkcode LaneChecksum}).
 *
 * @module
 */

import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { compositeCandidates, type StreamChecksum } from "./_chunks.ts";
import { acquireHashPool, type HashPool, hashWorkersUsable } from "./_hash_pool.ts";
import { Md5Lanes } from "./_md5_lanes.ts";

/** Options of {@linkcode FileLaneChecksum.create}. */
export interface FileLaneChecksumOptions {
  /** The part size of the composite checksum (default: the upload chunk size). */
  partSize?: number;
  /**
   * The size the file will have, when known: the last whole parts are then hashed as soon as
   * they are written, instead of at the end with the last, partial one.
   */
  size?: number | undefined;
}

/** A download's composite checksum, hashed by the MD5 worker from the file as it is written. */
export class FileLaneChecksum implements Disposable {
  #path: string;
  #partSize: number;
  /** The whole parts the file will have (`Infinity` when its size is not known). */
  #lastWhole: number;
  #pool: HashPool;
  #written = 0;
  /** The parts handed to the worker so far. */
  #sent = 0;
  /** The digests of the parts so far, in order, a job per group of up to four. */
  #digests: Promise<string[]>[] = [];
  #disposed = false;

  private constructor(path: string, partSize: number, size: number | undefined, pool: HashPool) {
    this.#path = path;
    this.#partSize = partSize;
    this.#lastWhole = size === undefined ? Infinity : Math.floor(size / partSize);
    this.#pool = pool;
  }

  /**
   * A checksum of the file at `path` (written from its start on; see
   * {@linkcode FileLaneChecksum.written}), or `undefined` where no MD5 worker can run, the file
   * may not be read, or WebAssembly SIMD is missing.
   *
   * @example Usage
   * ```ts ignore
   * import { FileLaneChecksum } from "./_file_lane_checksum.ts";
   * await Deno.writeFile("data.bin", new Uint8Array(2500));
   * using checksum = FileLaneChecksum.create("data.bin", { partSize: 1000 });
   * checksum?.written(2500);
   * console.log((await checksum?.result())?.candidates.length); // 2
   * ```
   *
   * @param path The file the data is written to.
   * @param options Part size, and the file's size when known.
   * @returns The checksum, or `undefined`.
   */
  static create(path: string, options: FileLaneChecksumOptions = {}): FileLaneChecksum | undefined {
    if (!hashWorkersUsable() || !mayRead(path) || !Md5Lanes.available()) return undefined;
    const partSize = options.partSize ?? UPLOAD_CHUNK_SIZE;
    return new FileLaneChecksum(path, partSize, options.size, acquireHashPool());
  }

  /**
   * Counts bytes that are now in the file (call it once they are written, never before): every
   * four whole parts, and the last whole ones of a file of known size, go to the worker.
   *
   * @param bytes Bytes just written after the ones counted so far.
   */
  written(bytes: number): void {
    this.#written += bytes;
    this.#sendWhole(false);
  }

  /**
   * Hands the whole parts written and not sent yet to the worker, four at a time: a last group of
   * fewer only at the end (`all`) or once the file's last whole part is written.
   */
  #sendWhole(all: boolean): void {
    const whole = Math.floor(this.#written / this.#partSize);
    const rest = all || whole === this.#lastWhole;
    while (whole - this.#sent >= 4 || (rest && whole > this.#sent)) {
      this.#send(Math.min(4, whole - this.#sent), this.#partSize);
    }
  }

  /** Hands the next `count` parts of `length` bytes to the worker. */
  #send(count: number, length: number): void {
    const offsets = Array.from({ length: count }, (_, i) => (this.#sent + i) * this.#partSize);
    const job = this.#pool.file(this.#path, offsets, length);
    job.catch(() => {}); // awaited in result()
    this.#digests.push(job);
    this.#sent += count;
  }

  /**
   * Size and checksum candidates of all data written so far (call once, at the end).
   *
   * @returns The size and the composite checksum's candidates.
   */
  async result(): Promise<StreamChecksum> {
    this.#sendWhole(true);
    const rest = this.#written - this.#sent * this.#partSize;
    if (rest > 0 || this.#written === 0) this.#send(1, rest);
    // While the worker hashes the last parts: the module for the composite's own small MD5.
    Md5Lanes.prepare();
    const digests = await Promise.all(this.#digests);
    return { size: this.#written, candidates: compositeCandidates(digests.flat()) };
  }

  /** Releases the worker pool. */
  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#pool[Symbol.dispose]();
  }
}

/** Whether this thread (and so the worker, which inherits its permissions) may read `path`. */
function mayRead(path: string): boolean {
  try {
    return Deno.permissions.querySync({ name: "read", path }).state === "granted";
  } catch {
    return false;
  }
}
