/**
 * Keeping a local folder and a record's files identical, in one direction per run: files are
 * equal when their relative name, size and checksum (the server's: plain MD5 or the chunk MD5
 * composite) agree. New files are transferred, changed ones replaced (uploads through the
 * replace-data endpoint, so a file keeps its id), equal ones left alone, and with `delete` what
 * the other side lacks is removed.
 *
 * @example Usage
 * ```ts
 * import { syncFolder } from "./sync.ts";
 * import { RepoRecord } from "./record.ts";
 * import { openResource } from "../resources/resource.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await openResource(transport, RepoRecord, { identifier: "demo", create: true });
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/raw`);
 * await Deno.writeTextFile(`${dir}/raw/a.csv`, "a");
 * const { plan } = await syncFolder(record, dir, { direction: "up" });
 * console.log(plan.actions.map((action) => action.name)); // ["raw/a.csv"]
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

import { join } from "node:path";
import { InputError } from "../http/errors.ts";
import type { Transport } from "../http/transport.ts";
import { IncompleteListingError, paginateItems } from "../http/paginate.ts";
import { filesPath } from "../http/paths.ts";
import { type FileJson, MAX_PER_PAGE, UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { PART_FILE_NAME } from "../utils/part_file.ts";
import { statLocalPath } from "../utils/local_path.ts";
import { saveFile } from "./_file_download.ts";
import type { PartListings } from "./_parts.ts";
import { runPool } from "./_pool.ts";
import { checkFile } from "./_answers.ts";
import { fileChecksums, HASH_CACHE_NAME, HashCache, kindOf } from "./_sync_hash.ts";
import {
  checkNameLengths,
  compareNames,
  localName,
  makeParents,
  type TreeFile,
  walkTree,
} from "./_tree.ts";
import { uploadFile } from "./upload.ts";

export { HASH_CACHE_NAME } from "./_sync_hash.ts";

/**
 * A record as {@linkcode syncFolder} needs it: uploads, downloads and file deletion (a
 * record from `manager.record()` is one).
 */
export interface SyncTarget {
  /** The transport requests go through. */
  readonly transport: Transport;
  /** Id of the record. */
  readonly id: number;
  /** Endpoint of the resource, relative to the API base. */
  readonly endpoint: string;
  /** The record's file of a name; throws when there is none. */
  getFileByName?(name: string): Promise<FileJson>;
  /** Deletes a file of the record (cannot be undone). */
  deleteFile(fileId: string): Promise<void>;
  /** Forgets cached state after the files changed (a record resource has it). */
  invalidate?(): void;
}

/** Which way a sync goes: `up` makes the record like the folder, `down` the folder like it. */
export type SyncDirection = "up" | "down";

/** What a sync does with one file. */
export type SyncActionKind =
  | "upload"
  | "download"
  | "replace"
  | "delete"
  | "skip"
  | "extra";

/** One step of a {@linkcode SyncPlan}. */
export interface SyncAction {
  /**
   * `upload` or `download` a new file, `replace` a changed one, `delete` a file the other side
   * lacks, `skip` an equal one, `extra`: a file only on the target side, kept (no `delete`).
   */
  action: SyncActionKind;
  /** The name in the record (`raw/run1.h5`); for a local file without one, its relative path. */
  name: string;
  /** The local path, relative to the folder with `/` separators. */
  local: string;
  /** Bytes to transfer (the source's size), or the size of the file kept or deleted. */
  size: number;
}

/** A file that cannot be synced (the run then reports it and does not end equal). */
export interface SyncProblem {
  /** The name in the record or the local relative path. */
  name: string;
  /** Why, in the user's terms. */
  reason: string;
}

/** Files and bytes of one kind of action. */
export interface SyncCount {
  /** Number of files. */
  files: number;
  /** Their bytes. */
  bytes: number;
}

/** What a sync does: every file's action, in name order, with counts. */
export interface SyncPlan {
  /** The direction. */
  direction: SyncDirection;
  /** Every file's action, in name order. */
  actions: SyncAction[];
  /** Files and bytes per action. */
  counts: Record<SyncActionKind, SyncCount>;
  /** Files that cannot be synced (e.g. two record names that map to one local path). */
  problems: SyncProblem[];
}

/** One failed action of a run. */
export interface SyncFailure {
  /** The action. */
  action: SyncAction;
  /** The error's message. */
  message: string;
  /** The error. */
  error: unknown;
}

/** What {@linkcode syncFolder} returns. */
export interface SyncResult {
  /** The plan (also for a dry run). */
  plan: SyncPlan;
  /** The actions carried out (empty for a dry run); skipped and extra files are not listed. */
  done: SyncAction[];
  /** Actions that failed (deletions are not tried when a transfer failed). */
  failed: SyncFailure[];
  /**
   * Whether every file of the source is now on the target side with the same content, and with
   * `delete` nothing else is there: no failure and no problem.
   */
  complete: boolean;
}

/** Aggregate progress of a sync run. */
export interface SyncProgress {
  /** Files transferred or deleted so far. */
  files: number;
  /** Files to transfer or delete in this run. */
  totalFiles: number;
  /** Bytes transferred so far (resumed bytes included). */
  bytes: number;
  /** Bytes to transfer in this run. */
  totalBytes: number;
  /** Bytes that were already there when this run started (resumed transfers). */
  resumed: number;
}

/** Options of {@linkcode syncFolder}. */
export interface SyncOptions {
  /** `up`: folder → record; `down`: record → folder. One direction per run. */
  direction: SyncDirection;
  /** Remove what the source lacks from the target side (deleted record files cannot be restored). */
  delete?: boolean;
  /** Only plan: nothing is transferred or deleted. */
  dryRun?: boolean;
  /** Only names (relative paths) matching this glob, on both sides. @default {"*"} */
  pattern?: string;
  /** Leave out names matching this glob, on both sides. */
  excludePattern?: string;
  /** Follow symbolic links in the folder (upward). */
  followSymlinks?: boolean;
  /** Files up to 10 MB transferred at once; larger ones go one at a time. @default {16} */
  concurrency?: number;
  /**
   * Keep local checksums in {@linkcode HASH_CACHE_NAME} at the top of the folder, keyed by
   * relative path, size and modification time. @default {true}
   */
  hashCache?: boolean;
  /** Cancels the run; transfers in flight stop and a rerun continues them. */
  signal?: AbortSignal;
  /** Receives the aggregate progress. */
  onProgress?: (progress: SyncProgress) => void;
  /** Called after each action carried out, or failed (with its error). */
  onAction?: (action: SyncAction, error?: unknown) => void;
  /** Receives warnings (symbolic links left out). */
  onWarning?: (message: string) => void;
  /**
   * Names (relative paths) the sync leaves alone on both sides, as it does its own cache: never
   * transferred, replaced or deleted (e.g. a metadata file beside the record's files).
   */
  ignore?: (name: string) => boolean;
  /**
   * Asked once, after planning and before anything changes, when the plan deletes files; false
   * stops the sync with an {@linkcode InputError} and nothing changed.
   */
  confirmDelete?: (plan: SyncPlan) => boolean | Promise<boolean>;
}

const KINDS: SyncActionKind[] = ["upload", "download", "replace", "delete", "skip", "extra"];

/** Local entries a sync never transfers or deletes: its cache and partial downloads. */
function ownFile(name: string): boolean {
  return name === HASH_CACHE_NAME || PART_FILE_NAME.test(name.slice(name.lastIndexOf("/") + 1));
}

/**
 * Makes a record's files like a folder's (`direction: "up"`) or a folder like a record's files
 * (`"down"`). Files are compared by relative name, size and checksum in the server's form (local
 * checksums come from a cache keyed by path, size and modification time when unchanged); equal
 * files are not transferred, new ones are, changed ones are replaced (uploads keep the file's id,
 * description and revisions). With `delete`, what the source lacks is removed from the target,
 * after every transfer succeeded; a listing that fails stops the sync before anything changes,
 * so an error is never read as "nothing there".
 *
 * Transfers go `concurrency` at a time (files over 10 MB one at a time), through the engine's
 * resumable uploads and downloads: an interrupted sync run again finishes the job without
 * re-sending what arrived. Record names with `/` map to subfolders; every component is sanitised
 * and never leads outside the folder. Failures of single files do not stop the others: they are
 * listed in `failed`, and `complete` is then false.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the folder, `--allow-write` for it
 * when downloading (and for the hash cache).
 *
 * @example Usage
 * ```ts
 * import { RepoManager, syncFolder } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const dir = await Deno.makeTempDir(); // --allow-read and --allow-write for it
 * await Deno.mkdir(`${dir}/raw`);
 * await Deno.writeTextFile(`${dir}/raw/run1.csv`, "1,2\n");
 * const first = await syncFolder(record, dir, { direction: "up" });
 * assert.strictEqual(first.plan.counts.upload.files, 1);
 * const again = await syncFolder(record, dir, { direction: "up", dryRun: true });
 * assert.strictEqual(again.plan.counts.skip.files, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param record The record.
 * @param dir The folder (for `down`, created when missing).
 * @param options Direction, delete, dry run, globs, concurrency, cache, signal, callbacks.
 * @returns The plan and what was done.
 * @throws {InputError} For a missing folder (upward), names too long for the server, bad options.
 * @throws The listing's error when a side cannot be listed (nothing was changed).
 */
export async function syncFolder(
  record: SyncTarget,
  dir: string,
  options: SyncOptions,
): Promise<SyncResult> {
  const { direction, concurrency = 16, signal } = options;
  if (direction !== "up" && direction !== "down") {
    throw new InputError(`direction must be "up" or "down", got ${direction}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  if (direction === "up") {
    if (!(await statLocalPath(dir, { what: "folder" })).isDirectory) {
      throw new InputError(`'${dir}' is not a folder: give the folder to sync`);
    }
  } else if (!options.dryRun) {
    await Deno.mkdir(dir, { recursive: true });
  }
  const globs = globFilter(options.pattern ?? "*", options.excludePattern);
  const { ignore } = options;
  const wanted = ignore === undefined ? globs : (name: string) => globs(name) && !ignore(name);
  // The record is listed while the folder is walked; a failure of either stops the sync.
  const listing = listRemote(record, wanted, signal);
  const [local, remote] = await Promise.all([
    listLocal(dir, direction, wanted, options).catch(async (error) => {
      await listing.catch(() => {});
      throw error;
    }),
    listing,
  ]);
  const cache = options.hashCache === false ? HashCache.none() : await HashCache.load(dir);
  const sources = new Map<string, FileJson>();
  try {
    const plan = direction === "up"
      ? await planUp(local, remote, cache, options)
      : await planDown(local, remote, cache, sources, options);
    if (options.dryRun) return { plan, done: [], failed: [], complete: plan.problems.length === 0 };
    const deletes = plan.counts.delete.files;
    if (deletes > 0 && options.confirmDelete && !(await options.confirmDelete(plan))) {
      throw new InputError(`Deleting ${deletes} file(s) was not confirmed: nothing was changed`);
    }
    const run = await execute(record, dir, plan, local, remote, sources, cache, options);
    // Entries of files no longer there are dropped; with globs, files outside them stay cached.
    if (options.pattern === undefined && options.excludePattern === undefined) {
      cache.retain(run.present);
    }
    return {
      plan,
      done: run.done,
      failed: run.failed,
      complete: run.failed.length === 0 && plan.problems.length === 0,
    };
  } finally {
    record.invalidate?.();
    await cache.save();
  }
}

async function listLocal(
  dir: string,
  direction: SyncDirection,
  wanted: (name: string) => boolean,
  options: SyncOptions,
): Promise<Map<string, TreeFile>> {
  let tree: TreeFile[];
  try {
    tree = await walkTree(dir, {
      wanted,
      followSymlinks: direction === "up" && options.followSymlinks === true,
      skip: ownFile,
      onWarning: options.onWarning,
    });
  } catch (error) {
    // Downward, a folder not created yet (dry run) is empty; anything else is an error.
    if (direction === "down" && error instanceof Deno.errors.NotFound) tree = [];
    else throw error;
  }
  return new Map(tree.map((file) => [file.name, file]));
}

/** Listing pages requested ahead: a big record's list costs pages × round trip when read in a row. */
const PAGES_AHEAD = 4;

/**
 * Every file of the record, read with pages requested ahead. The listing must be whole: a page
 * that fails, a file on two pages, or a count other than the server's total throws, so a failed
 * or torn listing is never read as "these files are all there is".
 */
async function listRemote(
  record: SyncTarget,
  wanted: (name: string) => boolean,
  signal: AbortSignal | undefined,
): Promise<Map<string, FileJson>> {
  const files = new Map<string, FileJson>();
  const items = paginateItems<FileJson>(
    record.transport,
    filesPath(record.id),
    { per_page: MAX_PER_PAGE },
    { ahead: PAGES_AHEAD, whole: true, ...(signal ? { signal } : {}) },
  );
  try {
    for await (const listed of items) {
      // Checked before a name is used (as downloads check it): nothing has changed yet.
      const file = checkFile(listed, "the record's file list");
      if (!wanted(file.name) || ownFile(file.name)) continue;
      // Only what the sync uses: a listing entry carries its creator and links (kilobytes each),
      // which for a big record would be most of the memory held.
      const download = file._links?.download;
      files.set(file.name, {
        id: file.id,
        name: file.name,
        size: file.size,
        checksum: file.checksum ?? null,
        _links: download === undefined ? {} : { download },
        _actions: {},
      });
    }
  } catch (error) {
    if (!(error instanceof IncompleteListingError)) throw error;
    throw new IncompleteListingError(
      `The record's file list was not read whole (${error.received} of ${
        error.total ?? "an unknown number of"
      } files arrived: it changed while it was read, or the server cut it short): run the sync again; nothing was changed`,
      error,
      { cause: error },
    );
  }
  return files;
}

/**
 * Whether each local file holds the content of its record file, in the pairs' order: from the
 * hash cache where it knows (no await per file: a no-op re-sync of a big folder is all hits),
 * else hashed, `HASH_CONCURRENCY` files at a time.
 */
async function sameContent(
  pairs: readonly (readonly [TreeFile, FileJson])[],
  cache: HashCache,
): Promise<boolean[]> {
  const same: boolean[] = [];
  const unknown: number[] = [];
  pairs.forEach(([local, file], index) => {
    const kind = kindOf(file.checksum, file.size);
    if (local.size !== file.size || kind === undefined) same[index] = false;
    else {
      const candidates = cache.get(local.name, local.size, local.mtime, kind);
      if (candidates === undefined) unknown.push(index);
      else same[index] = candidates.includes(file.checksum!.trim().toLowerCase());
    }
  });
  await runPool(HASH_CONCURRENCY, unknown, async (index) => {
    const [local, file] = pairs[index]!;
    const kind = kindOf(file.checksum, file.size)!;
    // A file that cannot be read now is planned as changed; its transfer then says why it fails.
    const computed = await fileChecksums(local.path, kind).catch(() => undefined);
    if (computed === undefined || computed.size !== local.size) {
      same[index] = false;
      return;
    }
    cache.set(local.name, local.size, local.mtime, kind, computed.candidates);
    same[index] = computed.candidates.includes(file.checksum!.trim().toLowerCase());
  });
  return same;
}

/** File system calls (hashing) in flight while planning. */
const HASH_CONCURRENCY = 8;

async function planUp(
  local: Map<string, TreeFile>,
  remote: Map<string, FileJson>,
  cache: HashCache,
  options: SyncOptions,
): Promise<SyncPlan> {
  checkNameLengths(local.keys());
  const actions: SyncAction[] = [];
  const both: [TreeFile, FileJson][] = [];
  for (const file of local.values()) {
    const found = remote.get(file.name);
    if (found !== undefined) both.push([file, found]);
    else actions.push({ action: "upload", name: file.name, local: file.name, size: file.size });
  }
  actions.push(...await pairActions(both, cache, "up"));
  actions.push(...onlyOnTarget(remote, (name) => local.has(name), options));
  return makePlan("up", actions, []);
}

/**
 * The actions of files on both sides: `skip` when equal, `replace` otherwise, sized by the source
 * (the local file going up, the record's going down).
 */
async function pairActions(
  pairs: readonly [TreeFile, FileJson][],
  cache: HashCache,
  direction: "up" | "down",
): Promise<SyncAction[]> {
  const same = await sameContent(pairs, cache);
  return pairs.map(([here, file], index) => ({
    action: same[index] ? "skip" : "replace",
    name: file.name,
    local: here.name,
    size: direction === "up" ? here.size : file.size,
  }));
}

/** The actions of the target's files that the source lacks: `delete` with `delete`, else `extra`. */
function onlyOnTarget(
  target: ReadonlyMap<string, { size: number }>,
  onSource: (name: string) => boolean,
  options: SyncOptions,
): SyncAction[] {
  const action = options.delete ? "delete" : "extra";
  return [...target]
    .filter(([name]) => !onSource(name))
    .map(([name, file]) => ({ action, name, local: name, size: file.size }));
}

async function planDown(
  local: Map<string, TreeFile>,
  remote: Map<string, FileJson>,
  cache: HashCache,
  sources: Map<string, FileJson>,
  options: SyncOptions,
): Promise<SyncPlan> {
  const actions: SyncAction[] = [];
  const problems: SyncProblem[] = [];
  const names = [...remote.keys()].sort(compareNames);
  const claimed = new Map<string, string>();
  const pending: { file: FileJson; path: string }[] = [];
  for (const name of names) {
    const file = remote.get(name)!;
    const path = localName(name);
    const other = claimed.get(path);
    if (other !== undefined) {
      problems.push({
        name,
        reason:
          `maps to '${path}' on this system like '${other}': rename one of them in the record`,
      });
      continue;
    }
    claimed.set(path, name);
    pending.push({ file, path });
  }
  // A path that is a folder of another file's path (`a` and `a/b`) cannot be both.
  for (const { file, path } of pending) {
    for (let end = path.indexOf("/"); end !== -1; end = path.indexOf("/", end + 1)) {
      const parent = path.slice(0, end);
      const owner = claimed.get(parent);
      if (owner !== undefined) {
        problems.push({
          name: file.name,
          reason:
            `needs a folder '${parent}' where the file '${owner}' goes: rename one of them in the record`,
        });
        claimed.delete(path);
        break;
      }
    }
  }
  const both: [TreeFile, FileJson][] = [];
  for (const { file, path } of pending) {
    if (claimed.get(path) !== file.name) continue;
    sources.set(path, file);
    const here = local.get(path);
    if (here !== undefined) both.push([here, file]);
    else actions.push({ action: "download", name: file.name, local: path, size: file.size });
  }
  actions.push(...await pairActions(both, cache, "down"));
  actions.push(...onlyOnTarget(local, (path) => claimed.has(path), options));
  return makePlan("down", actions, problems);
}

function makePlan(
  direction: SyncDirection,
  actions: SyncAction[],
  problems: SyncProblem[],
): SyncPlan {
  actions.sort((a, b) => compareNames(a.local, b.local) || compareNames(a.name, b.name));
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, { files: 0, bytes: 0 }])) as Record<
    SyncActionKind,
    SyncCount
  >;
  for (const { action, size } of actions) {
    counts[action].files++;
    counts[action].bytes += size;
  }
  return { direction, actions, counts, problems };
}

async function execute(
  record: SyncTarget,
  dir: string,
  plan: SyncPlan,
  local: Map<string, TreeFile>,
  remote: Map<string, FileJson>,
  sources: Map<string, FileJson>,
  cache: HashCache,
  options: SyncOptions,
): Promise<{ done: SyncAction[]; failed: SyncFailure[]; present: Set<string> }> {
  const { signal } = options;
  const transfers = plan.actions.filter(({ action }) =>
    action === "upload" || action === "download" || action === "replace"
  );
  const deletions = plan.actions.filter(({ action }) => action === "delete");
  const progress: SyncProgress = {
    files: 0,
    totalFiles: transfers.length + deletions.length,
    bytes: 0,
    totalBytes: transfers.reduce((sum, { size }) => sum + size, 0),
    resumed: 0,
  };
  const done: SyncAction[] = [];
  const failed: SyncFailure[] = [];
  const finish = (action: SyncAction, error?: unknown) => {
    if (error === undefined) done.push(action);
    else {
      failed.push({
        action,
        message: error instanceof Error ? error.message : String(error),
        error,
      });
    }
    progress.files++;
    options.onAction?.(action, error);
    options.onProgress?.({ ...progress });
  };
  const partListings: PartListings = new Map();
  const folders = new Set<string>();

  const transfer = async (action: SyncAction) => {
    const sent = { bytes: 0, resumed: 0 };
    const onProgress = (update: { bytes: number; resumed?: number | undefined }) => {
      progress.bytes += update.bytes - sent.bytes;
      sent.bytes = update.bytes;
      const resumed = update.resumed ?? 0;
      progress.resumed += resumed - sent.resumed;
      sent.resumed = resumed;
      options.onProgress?.({ ...progress });
    };
    try {
      if (plan.direction === "up") {
        const file = local.get(action.local)!;
        const stored = await uploadFile(record, file.path, {
          fileName: action.name,
          force: action.action === "replace",
          onProgress,
          ...(signal ? { signal } : {}),
        });
        const kind = kindOf(stored.checksum, stored.size);
        // Verified equal to what was read: the local file of this size and time has it.
        if (kind !== undefined) {
          cache.set(file.name, file.size, file.mtime, kind, [stored.checksum!.toLowerCase()]);
        }
      } else {
        const file = sources.get(action.local)!;
        const target = await makeParents(dir, action.local, folders);
        await saveFile(record, file, {
          path: target,
          force: true,
          keepPartial: true,
          partListings,
          onProgress,
          signal,
        });
        const kind = kindOf(file.checksum, file.size);
        if (kind !== undefined) {
          const info = await Deno.stat(target);
          cache.set(action.local, info.size, info.mtime?.getTime(), kind, [
            file.checksum!.trim().toLowerCase(),
          ]);
        }
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      finish(action, error);
      return;
    }
    finish(action);
  };

  const pool = signal ? { signal } : {};
  await runPool(
    options.concurrency ?? 16,
    transfers.filter(({ size }) => size <= UPLOAD_CHUNK_SIZE),
    transfer,
    pool,
  );
  await runPool(1, transfers.filter(({ size }) => size > UPLOAD_CHUNK_SIZE), transfer, pool);

  if (failed.length > 0) {
    // Deleting while the target side lacks files that failed to arrive is never done.
    for (const action of deletions) {
      failed.push({
        action,
        message: "not deleted: other files of this sync failed",
        error: undefined,
      });
    }
  } else {
    await runPool(options.concurrency ?? 16, deletions, async (action) => {
      try {
        if (plan.direction === "up") await record.deleteFile(remote.get(action.name)!.id);
        else await Deno.remove(join(dir, action.local));
      } catch (error) {
        if (signal?.aborted) throw error;
        finish(action, error);
        return;
      }
      finish(action);
    }, pool);
  }
  // In the plan's order, whatever order they finished in.
  const order = new Map(plan.actions.map((action, index) => [action, index]));
  done.sort((a, b) => order.get(a)! - order.get(b)!);
  failed.sort((a, b) => order.get(a.action)! - order.get(b.action)!);
  // The local files there now: those listed, plus those downloaded, less those deleted.
  const present = new Set(local.keys());
  for (const { action, local: name } of done) {
    if (action === "delete") present.delete(name);
    else if (plan.direction === "down") present.add(name);
  }
  return { done, failed, present };
}
