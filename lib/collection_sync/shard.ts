/**
 * Splitting a collection's records between N processes: a record belongs to shard K of N by a
 * stable hash (FNV-1a, 32 bits) of its folder's path in the collection folder, so every process
 * of a Slurm job array, GNU parallel or `xargs -P` takes its own share of the same run without
 * talking to the others.
 *
 * @module
 */

import { InputError } from "../errors.ts";

/** One share of a run: shard `index` (1 to `count`) of `count`. */
export interface Shard {
  /** Which share, from 1. */
  index: number;
  /** How many shares the run is split into. */
  count: number;
}

/**
 * Reads `K/N` (shard K of N, 1 ≤ K ≤ N).
 *
 * @example Usage
 * ```ts
 * import { parseShard } from "@repo/apy/sync";
 * import { inShard } from "./shard.ts";
 * import assert from "node:assert";
 *
 * assert.deepStrictEqual(parseShard("3/8"), { index: 3, count: 8 });
 * assert.throws(() => parseShard("9/8"));
 * // Every folder belongs to exactly one of the shards:
 * const shards = [1, 2, 3].map((index) => parseShard(`${index}/3`));
 * assert.strictEqual(shards.filter((shard) => inShard("sample-17", shard)).length, 1);
 * ```
 *
 * @throws {InputError} When it is not of that form (`3/8` is).
 */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d{1,6})\s*\/\s*(\d{1,6})\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) {
    throw new InputError(
      `Invalid shard '${text}': give K/N with 1 ≤ K ≤ N, e.g. 3/8 (the third of eight processes)`,
    );
  }
  return { index, count };
}

/**
 * FNV-1a hash (32 bits) of a text's UTF-8 bytes: the same on every machine and run.
 *
 * @returns The hash, an unsigned 32-bit integer.
 */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Whether the record of a folder belongs to a shard (every folder belongs to one shard of N;
 * {@linkcode parseShard} shows it).
 *
 * @param folder The folder's path in the collection folder (`sample-17`, `campaign-1/sample-3`).
 * @param shard The shard; none: every folder.
 */
export function inShard(folder: string, shard: Shard | undefined): boolean {
  return shard === undefined || stableHash(folder) % shard.count === shard.index - 1;
}
