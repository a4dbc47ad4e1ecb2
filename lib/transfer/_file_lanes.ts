/**
 * {@linkcode md5FileRanges}: the MD5 of up to four equal-length ranges of a file, read back from
 * the disk (the page cache, right after they were written) a round at a time into four small
 * SIMD lanes ({@linkcode Md5Lanes}). A download's per-part checksum hashes its 10 MB parts this
 * way in the MD5 worker: the lanes are 4 × 256 KiB reused for every round, so nothing grows with
 * the part size, and the thread that receives the data neither copies nor keeps it.
 *
 * @module
 */

import { Md5Lanes } from "./_md5_lanes.ts";

/** Bytes read into each lane per round (a multiple of 64). */
const ROUND_BYTES = 256 * 1024;

/** The lanes of this thread, made on first use. */
let lanes: Md5Lanes | undefined;

/**
 * The MD5 of the `length` bytes at each of `offsets` (one to four of them) in the file at `path`,
 * which must hold them all; synchronous (for a worker, or the main thread where none can run).
 *
 * @example Usage
 * ```ts ignore
 * import { md5FileRanges } from "./_file_lanes.ts";
 * const parts = md5FileRanges("data.bin", [0, 10_485_760], 10_485_760); // two digests
 * ```
 *
 * @param path The file.
 * @param offsets Where the ranges start (one to four).
 * @param length Bytes per range.
 * @returns The ranges' digests (hex), in the order of `offsets`.
 * @throws {RangeError} When the file ends before a range does, or WebAssembly SIMD is missing.
 */
export function md5FileRanges(path: string, offsets: readonly number[], length: number): string[] {
  if (offsets.length < 1 || offsets.length > 4) {
    throw new RangeError(`md5FileRanges hashes one to four ranges, not ${offsets.length}`);
  }
  const bank = lanes ??= Md5Lanes.create(ROUND_BYTES);
  if (bank === undefined) throw new RangeError("WebAssembly SIMD is not available");
  using file = Deno.openSync(path, { read: true });
  bank.reset();
  for (let done = 0;; done += ROUND_BYTES) {
    const take = Math.min(ROUND_BYTES, length - done);
    offsets.forEach((offset, lane) => readAt(file, offset + done, bank.lane(lane), take));
    if (done + take === length) return bank.finish(take, 0, length).slice(0, offsets.length);
    bank.hash(0, take / 64);
  }
}

/** Reads `length` bytes at `position` of `file` into the start of `into`. */
function readAt(file: Deno.FsFile, position: number, into: Uint8Array, length: number): void {
  file.seekSync(position, Deno.SeekMode.Start);
  for (let at = 0; at < length;) {
    const read = file.readSync(into.subarray(at, length));
    if (!read) throw new RangeError(`The file ends at ${position + at} bytes, within a part`);
    at += read;
  }
}
