/**
 * Keeping a local folder and a record's files identical, in one direction per run:
 * {@linkcode syncFolder}.
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { InputError } from "../errors.ts";
import type { Transport } from "../http/transport.ts";
import { IncompleteListingError, paginateItems } from "../http/paginate.ts";
import { filesPath } from "../http/paths.ts";
import { type FileJson, MAX_PER_PAGE, UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { partFileTarget } from "../utils/part_file.ts";
import { serverFileName } from "../utils/server_name.ts";
import { statLocalPath } from "../utils/local_path.ts";
import { saveFile } from "./_file_download.ts";
import type { PartListings } from "./_parts.ts";
import { freePath } from "./_paths.ts";
import { runPool } from "./_pool.ts";
import { checkFile } from "./_answers.ts";
import { fileChecksums, HashCache, kindOf, syncCachePath, userCacheDir } from "./_sync_hash.ts";
import {
  checkNameLengths,
  checkParents,
  compareNames,
  localName,
  makeParents,
  parentsOf,
  type TreeFile,
  walkTree,
} from "./_tree.ts";
import { uploadFile } from "./upload.ts";

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
  /**
   * Files that cannot be synced: local entries that cannot be read, names that cannot exist on
   * the other side or that the server would change, a file where the other side has a folder.
   * Any problem holds back every deletion of the run.
   */
  problems: SyncProblem[];
  /**
   * Why the plan's deletions are not carried out, when they are not: a problem of the run, a
   * source without files, more deletions than `maxDelete`. They are then listed as failed.
   */
  deletionsHeld?: string;
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
  /** Actions that failed (deletions are not tried when anything else failed or was a problem). */
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
  /**
   * Remove what the source lacks from the target side (deleted record files cannot be restored).
   * Only when the run saw both sides whole and nothing went wrong: any problem or failure holds
   * back every deletion.
   */
  delete?: boolean | undefined;
  /**
   * With `delete`: delete even when the source has no files at all (an unmounted drive or share
   * looks like an empty folder, so by default an empty source deletes nothing).
   */
  allowEmptySource?: boolean | undefined;
  /** With `delete`: when more files than this would be deleted, delete none (the run fails). */
  maxDelete?: number | undefined;
  /**
   * Downward only: local files that are replaced or deleted are moved into this folder (same
   * relative path; a free numbered name when one is there already) instead of being removed. It
   * must not overlap the synced folder.
   */
  backupDir?: string | undefined;
  /** Only plan: nothing is transferred or deleted. */
  dryRun?: boolean | undefined;
  /** Only names (relative paths) matching this glob, on both sides. @default {"*"} */
  pattern?: string | undefined;
  /** Leave out names matching this glob, on both sides. */
  excludePattern?: string | undefined;
  /** Follow symbolic links in the folder (upward). */
  followSymlinks?: boolean | undefined;
  /** Files up to 10 MB transferred at once; larger ones go one at a time. @default {16} */
  concurrency?: number | undefined;
  /**
   * Keep local checksums between runs, keyed by relative path, size and modification time, in a
   * file of `cacheDir` (never in the synced folder). @default {true}
   */
  hashCache?: boolean | undefined;
  /**
   * Folder of the sync state (the hash cache): one file per host, record and synced folder, under
   * `sync/`. Default: the user's cache folder (`$XDG_CACHE_HOME/repo-apy`, `~/.cache/repo-apy`,
   * `~/Library/Caches/repo-apy`, `%LOCALAPPDATA%\repo-apy`); without one, nothing is cached.
   */
  cacheDir?: string | undefined;
  /** Cancels the run; transfers in flight stop and a rerun continues them. */
  signal?: AbortSignal | undefined;
  /** Receives the aggregate progress. */
  onProgress?: ((progress: SyncProgress) => void) | undefined;
  /** Called after each action carried out, or failed (with its error). */
  onAction?: ((action: SyncAction, error?: unknown) => void) | undefined;
  /** Receives warnings (symbolic links left out, a sync cache that cannot be used). */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Names (relative paths) the sync leaves alone on both sides, as it does its own cache: never
   * transferred, replaced or deleted (e.g. a metadata file beside the record's files).
   */
  ignore?: ((name: string) => boolean) | undefined;
  /**
   * Asked once, after planning and before anything changes, when the plan deletes files; false
   * stops the sync with an {@linkcode InputError} and nothing changed.
   */
  confirmDelete?: ((plan: SyncPlan) => boolean | Promise<boolean>) | undefined;
}

const KINDS: SyncActionKind[] = ["upload", "download", "replace", "delete", "skip", "extra"];

/**
 * Checks the options a folder sync and a collection sync share: direction, concurrency and the
 * guard rails (`maxDelete`, `backupDir` only downward).
 *
 * @throws {InputError} For the first option that is wrong.
 */
export function checkSyncOptions(
  options: Pick<SyncOptions, "direction" | "concurrency" | "maxDelete" | "backupDir">,
): void {
  const { direction, concurrency = 16 } = options;
  if (direction !== "up" && direction !== "down") {
    throw new InputError(`direction must be "up" or "down", got ${direction}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const { maxDelete } = options;
  if (maxDelete !== undefined && (!Number.isInteger(maxDelete) || maxDelete < 0)) {
    throw new InputError(`maxDelete must be a whole number of 0 or more, got ${maxDelete}`);
  }
  if (options.backupDir !== undefined && direction !== "down") {
    throw new InputError(
      "A backup folder (--backup-dir) is for downloads (--to): deleted record files cannot be moved anywhere",
    );
  }
}

/**
 * Makes a record's files like a folder's (`direction: "up"`) or a folder like a record's files
 * (`"down"`). Files are compared by relative name, size and checksum in the server's form (local
 * checksums come from a cache keyed by path, size and modification time when unchanged); equal
 * files are not transferred, new ones are, changed ones are replaced (uploads keep the file's id,
 * description and revisions).
 *
 * With `delete`, what the source lacks is removed from the target, and only when the run saw
 * both sides whole: the record's listing checked complete (a failed or torn listing stops the
 * sync before anything changes), every local entry read. Any problem (an entry that cannot be
 * read, a name that cannot exist on the other side or that the server would change, a file where
 * the other side has a folder) or failed transfer holds back every deletion of the run; so does
 * a source without files (unless `allowEmptySource`) and more deletions than `maxDelete`. Held
 * deletions are listed as failed, and `complete` is then false.
 *
 * Transfers go `concurrency` at a time (files over 10 MB one at a time), through the engine's
 * resumable uploads and downloads: an interrupted sync run again finishes the job without
 * re-sending what arrived. Record names with `/` map to subfolders; a name that would not map
 * back to itself (`..`, an absolute path, characters the system cannot hold) is a problem, never
 * written under another name. Downward, the folders on a file's way are checked right before it
 * is opened and before it is renamed into place (no symbolic link, see `checkParents`). Failures
 * of single files do not stop the others: they are listed in `failed`.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the folder, `--allow-write` for it
 * when downloading; for the hash cache, `--allow-env` for `HOME` (and `XDG_CACHE_HOME` or
 * `LOCALAPPDATA`) and read and write access to the cache folder, or `cacheDir` (without them,
 * nothing is cached).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { syncFolder } from "@repo/apy/sync";
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
 * @param dir The folder (for `down`, created when missing).
 * @throws {InputError} For a missing folder (upward), names too long for the server, bad options.
 * @throws The listing's error when a side cannot be listed (nothing was changed).
 */
export async function syncFolder(
  record: SyncTarget,
  dir: string,
  options: SyncOptions,
): Promise<SyncResult> {
  const { direction } = options;
  const { local, remote, wanted } = await readSides(record, dir, options);
  const cache = await loadCache(record, dir, options);
  const sources = new Map<string, FileJson>();
  try {
    const plan = direction === "up"
      ? await planUp(local, remote, cache, options)
      : await planDown(local, remote, cache, sources, options);
    if (options.dryRun) {
      const complete = plan.problems.length === 0 && plan.deletionsHeld === undefined;
      return { plan, done: [], failed: [], complete };
    }
    const deletes = plan.counts.delete.files;
    if (
      deletes > 0 && plan.deletionsHeld === undefined && options.confirmDelete &&
      !(await options.confirmDelete(plan))
    ) {
      throw new InputError(`Deleting ${deletes} file(s) was not confirmed: nothing was changed`);
    }
    const run = startRun({
      record,
      dir,
      plan,
      remote,
      sources,
      cache,
      options,
      local: local.files,
    });
    const present = await execute(run);
    // Entries of files no longer there are dropped; files outside the globs stay cached.
    cache.prune(present, wanted);
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

/**
 * Checks the options and the folder, then reads both sides: the record is listed while the
 * folder is walked, and a failure of either stops the sync before anything changed.
 */
async function readSides(record: SyncTarget, dir: string, options: SyncOptions) {
  const { direction } = options;
  checkSyncOptions(options);
  if (direction === "up") {
    if (!(await statLocalPath(dir, { what: "folder" })).isDirectory) {
      throw new InputError(`'${dir}' is not a folder: give the folder to sync`);
    }
  } else if (!options.dryRun) {
    await Deno.mkdir(dir, { recursive: true });
  }
  if (options.backupDir !== undefined) await checkBackupDir(dir, options.backupDir);
  const globs = globFilter(options.pattern ?? "*", options.excludePattern);
  const { ignore } = options;
  const wanted = ignore === undefined ? globs : (name: string) => globs(name) && !ignore(name);
  const listing = listRemote(record, wanted, options.signal);
  const [local, remote] = await Promise.all([
    listLocal(dir, direction, wanted, options).catch(async (error) => {
      await listing.catch(() => {});
      throw error;
    }),
    listing,
  ]);
  return { local, remote, wanted };
}

/**
 * The hash cache of this host, record and folder; none when switched off, when there is no cache
 * folder, or when this process may not read and write it.
 */
async function loadCache(record: SyncTarget, dir: string, options: SyncOptions) {
  if (options.hashCache === false) return HashCache.none();
  const cacheDir = options.cacheDir ?? userCacheDir();
  // A cache folder this process may not read and write is not used (and never prompted for).
  const granted = (name: "read" | "write") =>
    cacheDir !== undefined &&
    Deno.permissions.querySync({ name, path: cacheDir }).state === "granted";
  if (cacheDir === undefined || !granted("read") || !granted("write")) return HashCache.none();
  const folder = await Deno.realPath(dir).catch(() => resolve(dir));
  const owner = { host: (await record.transport.baseUrl()).href, record: record.id, folder };
  return await HashCache.load(await syncCachePath(cacheDir, owner), owner, options.onWarning);
}

/** Whether `inner` is `outer` or inside it (absolute, resolved paths). */
function within(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === "" || !(path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path));
}

/** A backup folder must not overlap the synced folder (it would be walked, or hold it). */
export async function checkBackupDir(dir: string, backupDir: string): Promise<void> {
  const real = (path: string) => Deno.realPath(path).catch(() => resolve(path));
  const [target, backup] = [await real(dir), await real(backupDir)];
  if (within(backup, target) || within(target, backup)) {
    throw new InputError(
      `The backup folder '${backupDir}' and the synced folder '${dir}' overlap: give a backup folder outside the synced folder; nothing was changed`,
    );
  }
}

/** What the walk of the local folder saw. */
interface LocalSide {
  /** Files, by relative name. */
  files: Map<string, TreeFile>;
  /** Folders, by relative name. */
  folders: Set<string>;
  /** Symbolic links left out (not followed), by relative name. */
  links: Set<string>;
  /** Entries that could not be read. */
  problems: SyncProblem[];
}

async function listLocal(
  dir: string,
  direction: SyncDirection,
  wanted: (name: string) => boolean,
  options: SyncOptions,
): Promise<LocalSide> {
  const side: LocalSide = { files: new Map(), folders: new Set(), links: new Set(), problems: [] };
  let tree: TreeFile[];
  try {
    tree = await walkTree(dir, {
      wanted,
      followSymlinks: direction === "up" && options.followSymlinks === true,
      onWarning: options.onWarning,
      onUnreadable: (name, reason) => side.problems.push({ name, reason }),
      onFolder: (name) => side.folders.add(name),
      onLink: (name) => side.links.add(name),
    });
  } catch (error) {
    // Downward, a folder not created yet (dry run) is empty; anything else is an error.
    if (direction === "down" && error instanceof Deno.errors.NotFound) tree = [];
    else throw error;
  }
  for (const file of tree) side.files.set(file.name, file);
  return side;
}

/** Listing pages requested ahead: a big record's list costs pages × round trip when read in a row. */
const PAGES_AHEAD = 4;

/**
 * Every file of the record, read with pages requested ahead. The listing must be whole: a page
 * that fails, a file on two pages, a listing without a count, or a count other than the
 * server's total throws, so a failed or torn listing is never read as "these files are all there
 * is".
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
      if (!wanted(file.name)) continue;
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
        error.total ?? "an uncounted number of"
      } files arrived: it changed while it was read, or the server cut it short or did not count it): run the sync again; nothing was changed`,
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

/** Whether `name` is `prefix` or below it. */
function under(name: string, prefix: string): boolean {
  return name === prefix || name.startsWith(`${prefix}/`);
}

/**
 * Whether a local file is the temporary file of a record file's download (`.x.<8 hex>.part`
 * beside `x`), and not itself a record file: downward, the sync's own.
 */
function ownPart(name: string, remote: ReadonlyMap<string, FileJson>): boolean {
  const target = partFileTarget(name);
  return target !== undefined && remote.has(target) && !remote.has(name);
}

/** Why a record name cannot be a local path that maps back to it, or `undefined` when it can. */
function unplaceable(name: string): string | undefined {
  const path = localName(name);
  if (path === name) return undefined;
  return `cannot be a path in a folder here (it would become '${path}'), so it is never written, replaced or deleted by a sync: rename it in the record`;
}

async function planUp(
  local: LocalSide,
  remote: Map<string, FileJson>,
  cache: HashCache,
  options: SyncOptions,
): Promise<SyncPlan> {
  checkNameLengths(local.files.keys());
  const actions: SyncAction[] = [];
  const problems = [...local.problems];
  const both: [TreeFile, FileJson][] = [];
  for (const file of local.files.values()) {
    const stored = serverFileName(file.name);
    const download = partFileTarget(file.name);
    if (stored !== file.name) {
      problems.push({
        name: file.name,
        reason: stored === ""
          ? "the server refuses a name of only spaces: rename the file"
          : `the server would store it as '${stored}' (it drops leading and trailing spaces and joins runs of spaces): rename the file`,
      });
    } else if (
      download !== undefined && (local.files.has(download) || remote.has(download)) &&
      !remote.has(file.name)
    ) {
      problems.push({
        name: file.name,
        reason:
          `it looks like the unfinished download of '${download}': finish it (sync --to), or remove or rename it`,
      });
    } else {
      const found = remote.get(file.name);
      if (found !== undefined) both.push([file, found]);
      else actions.push({ action: "upload", name: file.name, local: file.name, size: file.size });
    }
  }
  actions.push(...await pairActions(both, cache, "up"));
  // A record file is deleted only when the folder could hold it and does not: a name that
  // cannot be a path here, one under a link left out, or an entry that could not be read, was
  // never looked for.
  const unseen = [...local.links, ...local.problems.map(({ name }) => name)];
  const seen = (name: string) => local.files.has(name) || unseen.some((path) => under(name, path));
  for (const [name, file] of remote) {
    if (seen(name)) continue;
    // Under a name that is a file (here or in the record) it cannot be in the folder either.
    const blocked = parentsOf(name).find((path) => local.files.has(path) || remote.has(path));
    const why = blocked === undefined
      ? unplaceable(name)
      : `cannot be in the folder, where '${blocked}' is a file, so it is never deleted by a sync: rename one of them in the record`;
    if (why === undefined) {
      actions.push({
        action: options.delete ? "delete" : "extra",
        name,
        local: name,
        size: file.size,
      });
      continue;
    }
    actions.push({ action: "extra", name, local: name, size: file.size });
    if (options.delete) problems.push({ name, reason: why });
  }
  return makePlan("up", actions, problems, local.files.size, options);
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

async function planDown(
  local: LocalSide,
  remote: Map<string, FileJson>,
  cache: HashCache,
  sources: Map<string, FileJson>,
  options: SyncOptions,
): Promise<SyncPlan> {
  const actions: SyncAction[] = [];
  const problems = [...local.problems];
  const names = writableNames(local, remote, problems);
  // A local `.part` file of a record file's download is the sync's own (resumed, never deleted).
  const files = new Map(local.files);
  for (const name of local.files.keys()) if (ownPart(name, remote)) files.delete(name);
  const both: [TreeFile, FileJson][] = [];
  for (const name of names) {
    const file = remote.get(name)!;
    sources.set(name, file);
    const here = files.get(name);
    if (here !== undefined) both.push([here, file]);
    else actions.push({ action: "download", name, local: name, size: file.size });
  }
  actions.push(...await pairActions(both, cache, "down"));
  for (const [name, file] of files) {
    if (remote.has(name)) continue;
    actions.push({
      action: options.delete ? "delete" : "extra",
      name,
      local: name,
      size: file.size,
    });
  }
  return makePlan("down", actions, problems, remote.size, options);
}

/**
 * The record names a download may write, in name order. The others are added to `problems`: a
 * name that cannot be a path here, one named like another's `.part` file, one whose way or place
 * is taken by a file, folder or link; a name under or at a local entry that cannot be read is
 * left alone (that entry is the problem).
 */
function writableNames(
  local: LocalSide,
  remote: ReadonlyMap<string, FileJson>,
  problems: SyncProblem[],
): string[] {
  const unreadable = new Set(local.problems.map(({ name }) => name));
  const names = [...remote.keys()].sort(compareNames);
  const claimed = new Set<string>();
  for (const name of names) {
    const why = unplaceable(name);
    const download = partFileTarget(name);
    if (why !== undefined) problems.push({ name, reason: why });
    else if (download !== undefined && remote.has(download)) {
      // Beside `x`, a `.x.<8 hex>.part` would be taken for x's unfinished download (and removed).
      problems.push({
        name,
        reason:
          `it is named like the unfinished download of the record's file '${download}', so it is not written beside it: rename it in the record`,
      });
    } else claimed.add(name);
  }
  for (const name of names) {
    if (!claimed.has(name)) continue;
    const why = blockedWay(name, local, remote, unreadable) ?? takenPlace(name, local);
    if (why !== undefined) problems.push({ name, reason: why });
    if (why !== undefined || unreadable.has(name)) claimed.delete(name);
  }
  return names.filter((name) => claimed.has(name));
}

/**
 * Why a folder on the way to a record name cannot be (or become) a folder: a file, a link or an
 * unreadable entry is there; `undefined` when every one can.
 */
function blockedWay(
  name: string,
  local: LocalSide,
  remote: ReadonlyMap<string, FileJson>,
  unreadable: ReadonlySet<string>,
): string | undefined {
  for (const parent of parentsOf(name)) {
    if (remote.has(parent)) {
      return `needs a folder '${parent}' where the record's file '${parent}' goes: rename one of them in the record`;
    }
    if (local.files.has(parent)) {
      return `needs a folder '${parent}' where a local file is: rename one of them`;
    }
    if (local.links.has(parent)) {
      return `needs a folder '${parent}' where a symbolic link is: nothing is written through it`;
    }
    if (unreadable.has(parent)) return `'${parent}' cannot be read (see its own problem)`;
  }
  return undefined;
}

/** Why a record file cannot be written at its local path: a folder or a link is there. */
function takenPlace(name: string, local: LocalSide): string | undefined {
  if (local.folders.has(name)) {
    return "a local folder has this name: the file is not written into it and the folder is kept; rename one of them";
  }
  if (local.links.has(name)) {
    return "a symbolic link has this name here: it is not replaced; remove it or rename the file";
  }
  return undefined;
}

/** Files and bytes of each kind of action. */
export function countActions(actions: readonly SyncAction[]): SyncPlan["counts"] {
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, { files: 0, bytes: 0 }])) as Record<
    SyncActionKind,
    SyncCount
  >;
  for (const { action, size } of actions) {
    counts[action].files++;
    counts[action].bytes += size;
  }
  return counts;
}

function makePlan(
  direction: SyncDirection,
  actions: SyncAction[],
  problems: SyncProblem[],
  sourceFiles: number,
  options: SyncOptions,
): SyncPlan {
  actions.sort((a, b) => compareNames(a.local, b.local) || compareNames(a.name, b.name));
  problems.sort((a, b) => compareNames(a.name, b.name));
  const counts = countActions(actions);
  const plan: SyncPlan = { direction, actions, counts, problems };
  const deletes = counts.delete.files;
  if (deletes === 0) return plan;
  const source = direction === "up" ? "the folder" : "the record";
  if (problems.length > 0) {
    plan.deletionsHeld =
      `not deleted: ${problems.length} problem(s) of this sync (listed) hold back every deletion; fix them and run the same command again`;
  } else if (sourceFiles === 0 && options.allowEmptySource !== true) {
    plan.deletionsHeld = `not deleted: ${source} has no files${
      options.pattern === undefined && options.excludePattern === undefined
        ? ""
        : " matching the patterns"
    }, which is what an unmounted drive or share looks like; if it is meant to be empty, add --allow-empty-source (allowEmptySource)`;
  } else if (options.maxDelete !== undefined && deletes > options.maxDelete) {
    plan.deletionsHeld =
      `not deleted: ${deletes} file(s) would be deleted, more than --max-delete ${options.maxDelete} (maxDelete) allows; check the source, or raise the limit`;
  }
  return plan;
}

/**
 * One run carrying out a plan: both sides as planned, the hash cache, the progress, and what was
 * done or failed so far.
 */
interface SyncRun {
  readonly record: SyncTarget;
  readonly dir: string;
  readonly plan: SyncPlan;
  /** The local files as walked, by relative name. */
  readonly local: ReadonlyMap<string, TreeFile>;
  /** The record's files as listed, by name. */
  readonly remote: ReadonlyMap<string, FileJson>;
  /** Downward: the record file each download reads, by local name. */
  readonly sources: ReadonlyMap<string, FileJson>;
  readonly cache: HashCache;
  readonly options: SyncOptions;
  readonly progress: SyncProgress;
  readonly done: SyncAction[];
  readonly failed: SyncFailure[];
  /** Downward: the `.part` files downloads may clean up, by folder (only the sync's own). */
  readonly partListings: PartListings;
  /** Backup names taken by this run. */
  readonly backups: Set<string>;
}

/** What a run starts from: the plan and the state planning built. */
type RunInput = Pick<
  SyncRun,
  "record" | "dir" | "plan" | "local" | "remote" | "sources" | "cache" | "options"
>;

/** The files to transfer of a plan (uploads, downloads, replacements). */
function transfersOf(plan: SyncPlan): SyncAction[] {
  return plan.actions.filter(({ action }) =>
    action === "upload" || action === "download" || action === "replace"
  );
}

/** The files to delete of a plan. */
function deletionsOf(plan: SyncPlan): SyncAction[] {
  return plan.actions.filter(({ action }) => action === "delete");
}

function startRun(input: RunInput): SyncRun {
  const { plan, dir, local, remote } = input;
  const transfers = transfersOf(plan);
  const deletions = plan.deletionsHeld === undefined ? deletionsOf(plan).length : 0;
  return {
    ...input,
    progress: {
      files: 0,
      totalFiles: transfers.length + deletions,
      bytes: 0,
      totalBytes: transfers.reduce((sum, { size }) => sum + size, 0),
      resumed: 0,
    },
    done: [],
    failed: [],
    partListings: plan.direction === "down" ? ownParts(dir, transfers, local, remote) : new Map(),
    backups: new Set(),
  };
}

/**
 * Carries out the plan: transfers (`concurrency` at a time, files over 10 MB one at a time),
 * then deletions unless anything of the run went wrong. `done` and `failed` end in the plan's
 * order.
 *
 * @returns The local files there now: those listed, plus those downloaded, less those deleted.
 */
async function execute(run: SyncRun): Promise<Set<string>> {
  const { plan, options } = run;
  const transfers = transfersOf(plan);
  const pool = options.signal ? { signal: options.signal } : {};
  const transfer = (action: SyncAction) => settle(run, action, () => transferOne(run, action));
  const small = transfers.filter(({ size }) => size <= UPLOAD_CHUNK_SIZE);
  await runPool(options.concurrency ?? 16, small, transfer, pool);
  await runPool(1, transfers.filter(({ size }) => size > UPLOAD_CHUNK_SIZE), transfer, pool);
  await deleteAll(run, deletionsOf(plan));
  // In the plan's order, whatever order they finished in.
  const order = new Map(plan.actions.map((action, index) => [action, index]));
  run.done.sort((a, b) => order.get(a)! - order.get(b)!);
  run.failed.sort((a, b) => order.get(a.action)! - order.get(b.action)!);
  const present = new Set(run.local.keys());
  for (const { action, local: name } of run.done) {
    if (action === "delete") present.delete(name);
    else if (plan.direction === "down") present.add(name);
  }
  return present;
}

/**
 * Runs one action and records it as done, or as failed with its error; a cancelled run's error
 * is thrown instead.
 */
async function settle(run: SyncRun, action: SyncAction, step: () => Promise<void>) {
  try {
    await step();
  } catch (error) {
    if (run.options.signal?.aborted) throw error;
    finish(run, action, error);
    return;
  }
  finish(run, action);
}

/** Records an action carried out, or failed (with its error), and reports it. */
function finish(run: SyncRun, action: SyncAction, error?: unknown): void {
  if (error === undefined) run.done.push(action);
  else {
    run.failed.push({
      action,
      message: error instanceof Error ? error.message : String(error),
      error,
    });
  }
  run.progress.files++;
  run.options.onAction?.(action, error);
  run.options.onProgress?.({ ...run.progress });
}

/** A transfer's progress callback: its bytes added to the run's. */
function fileProgress(run: SyncRun) {
  const { progress } = run;
  const sent = { bytes: 0, resumed: 0 };
  return (update: { bytes: number; resumed?: number | undefined }) => {
    progress.bytes += update.bytes - sent.bytes;
    sent.bytes = update.bytes;
    const resumed = update.resumed ?? 0;
    progress.resumed += resumed - sent.resumed;
    sent.resumed = resumed;
    run.options.onProgress?.({ ...progress });
  };
}

async function transferOne(run: SyncRun, action: SyncAction): Promise<void> {
  if (run.plan.direction === "up") await uploadOne(run, action);
  else await downloadOne(run, action);
}

/** Uploads a local file under its record name; its checksum, verified, goes into the cache. */
async function uploadOne(run: SyncRun, action: SyncAction): Promise<void> {
  const { signal } = run.options;
  const file = run.local.get(action.local)!;
  const stored = await uploadFile(run.record, file.path, {
    fileName: action.name,
    force: action.action === "replace",
    onProgress: fileProgress(run),
    ...(signal ? { signal } : {}),
  });
  if (stored.name !== action.name) {
    throw new InputError(
      `the server stored it as '${stored.name}', not as '${action.name}': rename the local file, or the record's file`,
    );
  }
  const kind = kindOf(stored.checksum, stored.size);
  // Verified equal to what was read: the local file of this size and time has it.
  if (kind !== undefined) {
    run.cache.set(file.name, file.size, file.mtime, kind, [stored.checksum!.toLowerCase()]);
  }
}

/**
 * Downloads a record file to its local path (a replaced file backed up first when asked); the
 * checksum of the file written goes into the cache.
 */
async function downloadOne(run: SyncRun, action: SyncAction): Promise<void> {
  const { dir, options: { signal, backupDir } } = run;
  const file = run.sources.get(action.local)!;
  // Made (or checked) anew for each file, and checked again right before the rename: a folder
  // swapped for a symbolic link during the run is never written through.
  const target = await makeParents(dir, action.local);
  const replaced = backupDir !== undefined && action.action === "replace";
  await saveFile(run.record, file, {
    path: target,
    force: true,
    keepPartial: true,
    partListings: run.partListings,
    onProgress: fileProgress(run),
    signal,
    guard: async (stage) => {
      await checkParents(dir, action.local);
      // The file replaced is kept once the new one is complete, right before the rename.
      if (replaced && stage === "place") await backUp(dir, action.local, backupDir, run.backups);
    },
  });
  const kind = kindOf(file.checksum, file.size);
  if (kind !== undefined) {
    const info = await Deno.stat(target);
    run.cache.set(action.local, info.size, info.mtime?.getTime(), kind, [
      file.checksum!.trim().toLowerCase(),
    ]);
  }
}

/**
 * Deletes what the plan deletes, unless the plan holds deletions back or anything of the run
 * failed: deleting while anything of the run went wrong is never done (they are listed as
 * failed instead).
 */
async function deleteAll(run: SyncRun, deletions: readonly SyncAction[]): Promise<void> {
  const { plan, failed, options } = run;
  const held = plan.deletionsHeld ??
    (failed.length > 0
      ? `not deleted: ${failed.length} other file(s) of this sync failed (listed), which holds back every deletion; run the same command again`
      : undefined);
  if (held !== undefined) {
    for (const action of deletions) failed.push({ action, message: held, error: undefined });
    return;
  }
  const pool = options.signal ? { signal: options.signal } : {};
  await runPool(options.concurrency ?? 16, deletions, async (action) => {
    await settle(run, action, () => deleteOne(run, action));
  }, pool);
}

/** Deletes one file: the record's upward; downward the local one, or moves it to the backup. */
async function deleteOne(run: SyncRun, action: SyncAction): Promise<void> {
  const { dir, options: { backupDir } } = run;
  if (run.plan.direction === "up") await run.record.deleteFile(run.remote.get(action.name)!.id);
  else {
    await checkParents(dir, action.local);
    if (backupDir === undefined) await Deno.remove(join(dir, action.local));
    else await backUp(dir, action.local, backupDir, run.backups);
  }
}

/**
 * The temporary files the downloads of a sync may clean up, as the listings of their folders:
 * only `.part` files of record files (the sync's own). A download otherwise lists its folder and
 * removes every day-old file named like a `.part`, which in a synced folder may be the user's.
 */
function ownParts(
  dir: string,
  transfers: readonly SyncAction[],
  local: ReadonlyMap<string, TreeFile>,
  remote: ReadonlyMap<string, FileJson>,
): PartListings {
  const names = new Map<string, string[]>();
  for (const { local: name } of transfers) names.set(dirname(join(dir, name)), []);
  for (const name of local.keys()) {
    if (ownPart(name, remote)) names.get(dirname(join(dir, name)))?.push(basename(name));
  }
  return new Map([...names].map(([folder, list]) => [folder, Promise.resolve(list)]));
}

/**
 * Moves the local file `relative` of `dir` into `backupDir` under the same relative path (a free
 * numbered name when one is taken), across file systems by copying.
 */
async function backUp(
  dir: string,
  relativePath: string,
  backupDir: string,
  taken: Set<string>,
): Promise<void> {
  const source = join(dir, relativePath);
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(source);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return; // nothing to keep
    throw error;
  }
  if (!info.isFile) return;
  const wanted = join(backupDir, relativePath);
  await Deno.mkdir(dirname(wanted), { recursive: true });
  // The file kept there before (an earlier run's) stays: this one takes the next free name.
  const target = await freePath(wanted, taken);
  try {
    await Deno.rename(source, target);
  } catch (error) {
    if ((error as { code?: unknown }).code !== "EXDEV") throw error;
    await Deno.copyFile(source, target);
    await Deno.remove(source);
  }
}
