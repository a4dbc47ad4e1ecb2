/**
 * The per-part (composite) checksum of a download, hashed four parts at a time in WebAssembly
 * SIMD lanes ({@linkcode Md5Lanes}).
 *
 * The four lanes need four whole parts, and a download's parts arrive one after the other: two
 * banks of four lanes, in one shared memory, take turns. Each piece is copied once, into its
 * lane; the memory is the two banks (8 × 10 MB), whatever the file's size.
 *
 * - Where a worker can run, a full bank is hashed in place by the worker pool
 *   ({@linkcode HashPool.lanes}) while the other bank fills; the thread that receives the data
 *   only copies it (a piece waits only when the worker is still busy with the bank it would fill).
 * - Otherwise the full bank is hashed here, a few blocks for every piece that arrives, and is done
 *   by the time the filling bank is four fifths full, so no read waits long for the hashing.
 *
 * Parts left over at the end (fewer than four) are hashed by the worker (the whole ones) and by
 * `node:crypto` here (the last, partial one).
 *
 * @module
 */

import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { compositeCandidates, md5Hex, type StreamChecksum } from "./_chunks.ts";
import { acquireHashPool, type HashPool, hashWorkersUsable } from "./_hash_pool.ts";
import { Md5Lanes } from "./_md5_lanes.ts";

/** The filling bank's share at which the other bank's hashing is done (hashing here). */
const DONE_AT = 0.8;

/** The bank being hashed here: its lanes hold four whole parts, `done` of whose blocks are hashed. */
interface Hashing {
  bank: Md5Lanes;
  done: number;
}

/** A download's composite checksum, four parts at a time in SIMD lanes. */
export class LaneChecksum implements Disposable {
  static #alive = 0;
  /** The bank being filled, and the other one (being hashed, or idle until its turn). */
  #filling: Md5Lanes;
  #other: Md5Lanes;
  #partSize: number;
  /** Whole 64-byte blocks of a part: the blocks hashed while the next bank fills. */
  #partBlocks: number;
  /** The lane being filled and the bytes in it. */
  #lane = 0;
  #filled = 0;
  /** The worker pool, or `undefined` when hashing here. */
  #pool: HashPool | undefined;
  /** The worker's job on each bank, until it ended: a bank is written again only after it. */
  #jobs = new Map<Md5Lanes, Promise<string[]>>();
  /** The full bank being hashed here, a few blocks at a time. */
  #hashing: Hashing | undefined;
  #size = 0;
  /** The digests of the parts so far, four per bank, in order (a worker's job: a promise). */
  #digests: (string[] | Promise<string[]>)[] = [];
  #disposed = false;

  private constructor(banks: Md5Lanes[], partSize: number, pool: HashPool | undefined) {
    [this.#filling, this.#other] = banks as [Md5Lanes, Md5Lanes];
    this.#partSize = partSize;
    this.#partBlocks = Math.floor(partSize / 64);
    this.#pool = pool;
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
   * using checksum = LaneChecksum.create(1000, { workers: false });
   * await checksum?.update(new Uint8Array(2500));
   * console.log((await checksum?.result())?.candidates.length); // 2
   * ```
   *
   * @param partSize The part size of the composite checksum (the upload chunk size).
   * @param options Whether full banks may go to the worker pool (where it can run; default).
   * @returns The checksum, or `undefined`.
   */
  static create(
    partSize: number = UPLOAD_CHUNK_SIZE,
    options: { workers?: boolean } = {},
  ): LaneChecksum | undefined {
    if (LaneChecksum.#alive > 0) return undefined;
    const banks = Md5Lanes.banks(partSize, 2);
    if (banks === undefined) return undefined;
    const pool = (options.workers ?? true) && hashWorkersUsable() ? acquireHashPool() : undefined;
    return new LaneChecksum(banks, partSize, pool);
  }

  /**
   * Adds the next bytes of the data; the returned promise (only when it has to wait for the
   * worker) resolves once they are in.
   *
   * @param chunk The bytes (copied; the caller may reuse its buffer once this settled).
   * @returns Nothing, or a promise while the bank to fill is still being hashed.
   */
  update(chunk: Uint8Array): void | Promise<void> {
    this.#size += chunk.byteLength;
    return this.#add(chunk, 0);
  }

  #add(chunk: Uint8Array, from: number): void | Promise<void> {
    let offset = from;
    while (offset < chunk.byteLength) {
      const bank = this.#filling;
      const job = this.#jobs.get(bank);
      if (job !== undefined) {
        return job.then(() => {
          if (this.#jobs.get(bank) === job) this.#jobs.delete(bank);
          return this.#add(chunk, offset);
        });
      }
      const take = Math.min(this.#partSize - this.#filled, chunk.byteLength - offset);
      bank.lane(this.#lane).set(chunk.subarray(offset, offset + take), this.#filled);
      this.#filled += take;
      offset += take;
      this.#pace();
      if (this.#filled < this.#partSize) continue;
      this.#filled = 0;
      if (++this.#lane < 4) continue;
      this.#bankFull();
    }
  }

  /** Hands the full bank over to be hashed, and fills the other one from now on. */
  #bankFull(): void {
    const full = this.#filling;
    if (this.#pool) {
      const job = this.#pool.lanes(full, this.#partSize);
      job.catch(() => {});
      this.#digests.push(job);
      this.#jobs.set(full, job);
    } else {
      // The other bank is (nearly) done: finish it, then hash this one from now on.
      this.#finishHashing();
      full.reset();
      this.#hashing = { bank: full, done: 0 };
    }
    this.#filling = this.#other;
    this.#other = full;
    this.#lane = 0;
  }

  /** Hashes the full bank here as far as the filling bank's progress asks. */
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

  /** Hashes what is left of the full bank here and keeps its four digests. */
  #finishHashing(): void {
    const hashing = this.#hashing;
    if (hashing === undefined) return;
    this.#digests.push(hashing.bank.finish(this.#partSize, hashing.done));
    this.#hashing = undefined;
  }

  /**
   * Size and checksum candidates of all data added so far (call once, at the end).
   *
   * @returns The size and the composite checksum's candidates.
   */
  async result(): Promise<StreamChecksum> {
    this.#finishHashing();
    const bank = this.#filling;
    const whole = this.#lane;
    if (whole > 0) {
      // The whole parts of the last bank: all four lanes hashed at their full length (lanes
      // past them hold old data, whose digests are dropped), by the worker while the last part
      // is hashed here.
      const job = this.#pool
        ? this.#pool.lanes(bank, this.#partSize)
        : Promise.resolve(bank.digests(this.#partSize));
      this.#digests.push(job.then((digests) => digests.slice(0, whole)));
    }
    if (this.#filled > 0 || this.#size === 0) {
      this.#digests.push([md5Hex(bank.lane(whole).subarray(0, this.#filled))]);
    }
    const digests = await Promise.all(this.#digests);
    return { size: this.#size, candidates: compositeCandidates(digests.flat()) };
  }

  /** Lets the next download use the lanes (the banks' memory goes with this object). */
  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#pool?.[Symbol.dispose]();
    LaneChecksum.#alive--;
  }
}
