/**
 * Keeping a collection identical with a folder of record folders, in one direction per run:
 * `DIR/.collection.json` holds the collection's metadata, each first-level folder is a record
 * (its `.record.json` holds its metadata, the rest of the folder its files), and a folder with a
 * `.collection.json` and no `.record.json` is a child collection with the same layout. Upward
 * (`--from`) the collection tree, its records, their metadata, membership, links and files are
 * made like the folder; downward (`--to`) the folder is made like the collection. A second run
 * with nothing changed sends no change and writes nothing. Going down from one instance and up
 * into another moves a project between instances.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { checkSyncOptions } from "../transfer/sync.ts";
import { syncDown } from "./down.ts";
import { type AllowedDeletions, syncUp } from "./up.ts";
import type {
  CollectionDeleteSummary,
  CollectionSelector,
  CollectionSyncOptions,
  CollectionSyncResult,
  SyncConnection,
} from "./types.ts";

function checkOptions(options: CollectionSyncOptions): void {
  checkSyncOptions(options);
  if (options.template !== undefined && options.direction !== "up") {
    throw new InputError("A template checks records going up: give it with --from (direction up)");
  }
}

/** The file deletions of a planned run, and each record's list of them. */
function deletions(
  plan: CollectionSyncResult,
): { summary: CollectionDeleteSummary; allowed: AllowedDeletions } {
  const allowed: AllowedDeletions = new Map();
  const summary: CollectionDeleteSummary = {
    files: 0,
    bytes: 0,
    records: 0,
    direction: plan.direction,
  };
  for (const record of plan.records) {
    const deleted = record.files?.plan.actions.filter(({ action }) => action === "delete") ?? [];
    if (deleted.length === 0) continue;
    summary.records++;
    summary.files += deleted.length;
    summary.bytes += deleted.reduce((sum, { size }) => sum + size, 0);
    allowed.set(
      record.folder,
      new Set(deleted.map((action) => plan.direction === "up" ? action.name : action.local)),
    );
  }
  return { summary, allowed };
}

function runOnce(
  { transport }: SyncConnection,
  collection: CollectionSelector,
  dir: string,
  options: CollectionSyncOptions,
  allowed?: AllowedDeletions,
): Promise<CollectionSyncResult> {
  return options.direction === "up"
    ? syncUp(transport, collection, dir, options, { allowed })
    : syncDown(transport, collection, dir, options, allowed);
}

/**
 * Makes a collection (with its child collections and records) like a folder of record folders
 * (`direction: "up"`), or the folder like the collection (`"down"`).
 *
 * Upward, the collection and missing records are looked up by identifier or created (two
 * processes at once never create one twice), metadata that differs is changed (title,
 * description, tags, type, license, extras with their types), each record is put into its
 * collection, the links its `.record.json` names are made, and its files are synced as
 * {@linkcode syncFolder} does (`.record.json` is never a file). With `template`, every record's
 * extras are checked first; when any fails, nothing is sent. With `delete`, files the folder
 * lacks are deleted from each record (under every rule of `syncFolder`), and records whose
 * folder is gone leave the collection (they are never deleted), only when nothing else failed.
 *
 * Downward, each record becomes a folder named by its identifier, with its files and a
 * `.record.json`; the collection's `.collection.json` is written; a child collection becomes a
 * folder with the same layout. Files are written only when their text changes.
 *
 * With `shard`, only the records of that shard are synced (by a stable hash of their folder's
 * path), so N processes together do one run. Failures of single records do not stop the others:
 * each outcome lists its problems, and `complete` is false. Rerunning finishes the job.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the folder, `--allow-write` for it
 * (the sync's cache, and downward the files).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { syncCollection, syncRecordFolder } from "@repo/apy/sync";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const dir = await Deno.makeTempDir(); // --allow-read and --allow-write for it
 * await Deno.mkdir(`${dir}/sample-1`);
 * await Deno.writeTextFile(`${dir}/sample-1/.record.json`, JSON.stringify({
 *   title: "Sample 1",
 *   extras: [{ key: "temperature", type: "float", value: 1.0, unit: "K" }],
 * }));
 * await Deno.writeTextFile(`${dir}/sample-1/run1.csv`, "1,2\n");
 * const first = await syncCollection(manager, { identifier: "campaign" }, dir, {
 *   direction: "up",
 * });
 * assert.strictEqual(first.complete, true);
 * const again = await syncCollection(manager, { identifier: "campaign" }, dir, {
 *   direction: "up",
 *   dryRun: true,
 * });
 * assert.deepStrictEqual(again.records[0]?.changed, []);
 * // One record folder changed (what a watcher sends): only it is synced.
 * await Deno.writeTextFile(`${dir}/sample-1/run2.csv`, "3,4\n");
 * const one = await syncRecordFolder(manager, { identifier: "campaign" }, dir, "sample-1", {});
 * assert.strictEqual(one.records[0]?.files?.done.length, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param collection The collection: `{ identifier }` (created upward when missing) or `{ id }`.
 * @param dir The collection folder (downward, created when missing).
 * @throws {InputError} For bad options, a folder that is not one, a wrong `.collection.json`,
 * an unconfirmed deletion, a collection that is missing downward.
 * @throws The listing's error when a collection cannot be listed whole (nothing was changed).
 */
export async function syncCollection(
  connection: SyncConnection,
  collection: CollectionSelector,
  dir: string,
  options: CollectionSyncOptions,
): Promise<CollectionSyncResult> {
  checkOptions(options);
  const { confirmDelete } = options;
  if (confirmDelete === undefined || options.delete !== true || options.dryRun === true) {
    return await runOnce(connection, collection, dir, options);
  }
  // Asked once over all records: a planning pass counts the deletions; the run then deletes
  // only what the answer covered.
  const { onRecord: _onRecord, onWarning: _onWarning, ...quiet } = options;
  const plan = await runOnce(connection, collection, dir, { ...quiet, dryRun: true });
  const { summary, allowed } = deletions(plan);
  if (summary.files === 0) return await runOnce(connection, collection, dir, options);
  if (!(await confirmDelete(summary))) {
    throw new InputError(
      `Deleting ${summary.files} file(s) in ${summary.records} record(s) was not confirmed: nothing was changed`,
    );
  }
  return await runOnce(connection, collection, dir, options, allowed);
}

/**
 * Syncs one record folder of a collection folder upward (what a watcher calls when a folder
 * changed): the record, its metadata, its membership, its links and its files, as
 * {@linkcode syncCollection} does (and shows) for each; no record leaves the collection.
 *
 * @param folder The record folder's path in it (`sample-2`, `campaign-1/sample-3`).
 * @param options As for {@linkcode syncCollection} (the direction is up).
 */
export async function syncRecordFolder(
  connection: SyncConnection,
  collection: CollectionSelector,
  dir: string,
  folder: string,
  options: Omit<CollectionSyncOptions, "direction" | "shard">,
): Promise<CollectionSyncResult> {
  const all = { ...options, direction: "up" as const };
  checkOptions(all);
  const result = await syncUp(connection.transport, collection, dir, all, { only: folder });
  if (
    result.records.length === 0 && result.problems.every((problem) => problem.folder !== folder)
  ) {
    throw new InputError(`'${folder}' is no record folder of '${dir}'`);
  }
  return result;
}
