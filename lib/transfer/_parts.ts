/**
 * Temporary `.part` files of downloads and exports: which ones are stale and are removed. A
 * temporary file is `.<name>.<8 hex>.part` beside its target. Before a target is written, the
 * other temporary files of the same target are removed (an earlier run's data of a different
 * version, or of an export, which never resumes), and any temporary file of the directory not
 * touched for a day is removed. A temporary file another process holds (see `claimPart`) is never
 * removed, nor one changed within the last minute (it may be about to be claimed).
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { partInUse, tempStem } from "./_atomic_file.ts";
import { PART_FILE_NAME } from "../utils/part_file.ts";

/** A temporary file not changed for this long is removed wherever it is found. */
export const STALE_PART_MS = 24 * 60 * 60 * 1000;

/** A temporary file changed within this time may be in use by another process. */
const IN_USE_MS = 60 * 1000;

/** Temporary files of directories, listed once per operation. */
export type PartListings = Map<string, Promise<string[]>>;

/** Options of {@linkcode cleanStaleParts}. */
export interface CleanPartsOptions {
  /** The temporary file to keep (the one being resumed). */
  keep?: string | undefined;
  /** Listings shared by the files of one operation, so a directory is read once. */
  listings?: PartListings | undefined;
  /** The current time in ms (tests). */
  now?: number | undefined;
}

/**
 * Removes the stale temporary files of `target`'s directory (see the module description).
 * Failures to remove are ignored: cleaning never stops a download.
 *
 * @param target The file about to be written.
 * @param options The file to keep, shared listings, clock.
 */
export async function cleanStaleParts(
  target: string,
  options: CleanPartsOptions = {},
): Promise<void> {
  const dir = dirname(target);
  const now = options.now ?? Date.now();
  const listings = options.listings ?? new Map<string, Promise<string[]>>();
  let listing = listings.get(dir);
  if (listing === undefined) {
    listing = listParts(dir, now);
    listings.set(dir, listing);
  }
  const prefix = `.${tempStem(basename(target))}.`;
  const keep = options.keep === undefined ? undefined : basename(options.keep);
  for (const name of await listing) {
    if (name === keep || !name.startsWith(prefix) || !PART_FILE_NAME.test(name)) continue;
    if (name.length !== prefix.length + "01234567.part".length) continue;
    await removeIfOlder(join(dir, name), now - IN_USE_MS);
  }
}

/** Lists the temporary files of `dir`, removing those older than a day. */
async function listParts(dir: string, now: number): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !PART_FILE_NAME.test(entry.name)) continue;
      if (!await removeIfOlder(join(dir, entry.name), now - STALE_PART_MS)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

async function removeIfOlder(path: string, limit: number): Promise<boolean> {
  try {
    const info = await Deno.lstat(path);
    if ((info.mtime?.getTime() ?? 0) >= limit || await partInUse(path)) return false;
    await Deno.remove(path);
    return true;
  } catch {
    return false;
  }
}
