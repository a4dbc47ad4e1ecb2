/**
 * The per-part (composite) checksum of a download, hashed four parts at a time in WebAssembly
 * SIMD lanes ({@linkcode Md5Lanes}) on the thread that receives the data, spread over the arrival
 * of the following parts, so no read waits long for the hashing.
 *
 * The four lanes need four whole parts, and a download's parts arrive one after the other: two
 * banks of four lanes take turns. While one bank fills with parts 4k to 4k+3, the other, full one
 * is hashed a few blocks for every piece that arrives, and is done by the time the filling bank
 * is four fifths full. Each piece is copied once (into its lane); the memory is the two banks
 * (8 × 10 MB), whatever the file's size. Parts left over at the end (fewer than four) are hashed
 * by `node:crypto`.
 *
 * @module
 */

import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { compositeCandidates, md5Hex, type StreamChecksum } from "./_chunks.ts";
import { Md5Lanes } from "./_md5_lanes.ts";

/** The filling bank's share at which the other bank's hashing is done. */
const DONE_AT = 0.8;

/** The bank being hashed: its lanes hold four whole parts, `done` of whose blocks are hashed. */
interface Hashing {
  bank: Md5Lanes;
  done: number;
}

/** A download's composite checksum, four parts at a time in SIMD lanes. */
export class LaneChecksum implements Disposable {
  static #alive = 0;
  /** The bank being filled, and the other one (hashed, then idle until its turn). */
  #filling: Md5Lanes;
  #other: Md5Lanes;
  #partSize: number;
  /** Whole 64-byte blocks of a part: the blocks hashed while the next bank fills. */
  #partBlocks: number;
  /** The lane being filled and the bytes in it. */
  #lane = 0;
  #filled = 0;
  #hashing: Hashing | undefined;
  #size = 0;
  #digests: string[] = [];
  #disposed = false;

  private constructor(filling: Md5Lanes, other: Md5Lanes, partSize: number) {
    this.#filling = filling;
    this.#other = other;
    this.#partSize = partSize;
    this.#partBlocks = Math.floor(partSize / 64);
    LaneChecksum.#alive++;
  }

  /**
   * A lane checksum for parts of `partSize` bytes, or `undefined` where WebAssembly SIMD is
   * missing or another lane checksum of the process is in use (one at a time keeps the memory at
   * two banks; other downloads hash one stream at a time meanwhile).
   *
   * @example Usage
   * ```ts
   * import { LaneChecksum } from "./_lane_checksum.ts";
   * using checksum = LaneChecksum.create(1000);
   * checksum?.update(new Uint8Array(2500));
   * console.log(checksum?.result().candidates.length); // 2
   * ```
   *
   * @param partSize The part size of the composite checksum (the upload chunk size).
   * @returns The checksum, or `undefined`.
   */
  static create(partSize: number = UPLOAD_CHUNK_SIZE): LaneChecksum | undefined {
    if (LaneChecksum.#alive > 0) return undefined;
    const first = Md5Lanes.create(partSize);
    const second = first && Md5Lanes.create(partSize);
    return first && second && new LaneChecksum(first, second, partSize);
  }

  /**
   * Adds the next bytes of the data.
   *
   * @param chunk The bytes (copied; the caller may reuse its buffer).
   */
  update(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#partSize - this.#filled, chunk.byteLength - offset);
      this.#filling.lane(this.#lane).set(
        chunk.subarray(offset, offset + take),
        this.#filled,
      );
      this.#filled += take;
      offset += take;
      this.#pace();
      if (this.#filled < this.#partSize) continue;
      this.#filled = 0;
      if (++this.#lane < 4) continue;
      // A full bank: the other one is (nearly) done; finish it, then hash this one from now on.
      this.#finishHashing();
      const full = this.#filling;
      full.reset();
      this.#hashing = { bank: full, done: 0 };
      this.#filling = this.#other;
      this.#other = full;
      this.#lane = 0;
    }
  }

  /** Hashes the full bank as far as the filling bank's progress asks. */
  #pace(): void {
    const hashing = this.#hashing;
    if (hashing === undefined) return;
    const share = (this.#lane * this.#partSize + this.#filled) / (4 * this.#partSize);
    const target = Math.min(this.#partBlocks, Math.ceil((share / DONE_AT) * this.#partBlocks));
    if (target > hashing.done) {
      hashing.bank.hash(hashing.done, target - hashing.done);
      hashing.done = target;
    }
    if (hashing.done === this.#partBlocks) this.#finishHashing();
  }

  /** Hashes what is left of the full bank and keeps its four digests. */
  #finishHashing(): void {
    const hashing = this.#hashing;
    if (hashing === undefined) return;
    this.#digests.push(...hashing.bank.finish(this.#partSize, hashing.done));
    this.#hashing = undefined;
  }

  /**
   * Size and checksum candidates of all data added so far (call once, at the end).
   *
   * @returns The size and the composite checksum's candidates.
   */
  result(): StreamChecksum {
    this.#finishHashing();
    const bank = this.#filling;
    for (let lane = 0; lane < this.#lane; lane++) this.#digests.push(md5Hex(bank.lane(lane)));
    if (this.#filled > 0 || this.#digests.length === 0) {
      this.#digests.push(md5Hex(bank.lane(this.#lane).subarray(0, this.#filled)));
    }
    return { size: this.#size, candidates: compositeCandidates(this.#digests) };
  }

  /** Lets the next download use the lanes (the banks' memory goes with this object). */
  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    LaneChecksum.#alive--;
  }
}
