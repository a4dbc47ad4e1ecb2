/**
 * The per-part (composite) MD5 of a download, computed in parallel: the data is gathered into
 * 10 MB parts, each hashed by the worker pool while the next part arrives and is written, and
 * the part digests are combined at the end in the server's form (see {@linkcode Checksum}).
 *
 * @module
 */

import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { compositeCandidates, type StreamChecksum } from "./_chunks.ts";
import { acquireHashPool, type HashPool } from "./_hash_pool.ts";

/** Parts being hashed at most; the next piece waits for the oldest beyond this. */
const PARTS_IN_FLIGHT = 3;

/**
 * Computes the composite MD5 (MD5 of the part MD5s plus `-<count>`) of data fed piece by piece.
 * Pieces are copied, so callers may reuse their buffers once `update` settled. Memory: at most `PARTS_IN_FLIGHT + 1`
 * part buffers, reused. Dispose it to release the worker pool.
 */
export class PartChecksum implements Disposable {
  #pool: HashPool = acquireHashPool();
  #partSize: number;
  #part: Uint8Array<ArrayBuffer>;
  #filled = 0;
  #size = 0;
  #free: ArrayBuffer[] = [];
  #digests: Promise<string>[] = [];
  #settled = 0;

  /**
   * Creates the accumulator.
   *
   * @param partSize Bytes per part.
   */
  constructor(partSize: number = UPLOAD_CHUNK_SIZE) {
    this.#partSize = partSize;
    this.#part = new Uint8Array(partSize);
  }

  /**
   * Adds the next piece; resolves once there is room for more (backpressure).
   *
   * @param chunk The data; it is copied, and must stay unchanged until the promise settles.
   */
  async update(chunk: Uint8Array): Promise<void> {
    this.#size += chunk.byteLength;
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#partSize - this.#filled, chunk.byteLength - offset);
      this.#part.set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      if (this.#filled === this.#partSize) await this.#closePart();
    }
  }

  async #closePart(): Promise<void> {
    const part = this.#part.subarray(0, this.#filled);
    const digest = this.#pool.md5(part).then((hashed) => {
      this.#free.push(hashed.bytes.buffer);
      this.#settled++;
      return hashed.digest;
    });
    digest.catch(() => {});
    this.#digests.push(digest);
    this.#filled = 0;
    // Wait for the oldest part when too many are in flight, so memory stays bounded.
    const oldest = this.#digests[this.#digests.length - PARTS_IN_FLIGHT];
    if (this.#digests.length - this.#settled >= PARTS_IN_FLIGHT && oldest) await oldest;
    this.#part = new Uint8Array(this.#free.pop() ?? new ArrayBuffer(this.#partSize));
  }

  /**
   * The checksum; call once, after the last piece.
   *
   * @returns Size and checksum candidates (raw-digest and hex-digest composite forms).
   */
  async result(): Promise<StreamChecksum> {
    if (this.#filled > 0 || this.#digests.length === 0) await this.#closePart();
    const parts = await Promise.all(this.#digests);
    return { size: this.#size, candidates: compositeCandidates(parts) };
  }

  /** Releases the worker pool. */
  [Symbol.dispose](): void {
    this.#pool[Symbol.dispose]();
  }
}
