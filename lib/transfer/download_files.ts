/**
 * Downloading many files of a record: every file matching a glob (one request per file, each
 * verified and written atomically), or the server's ZIP archive of all files.
 *
 * @module
 */

import { join } from "node:path";
import { InputError } from "../errors.ts";
import { paginateItems } from "../http/paginate.ts";
import { filesDownloadPath, filesPath } from "../http/paths.ts";
import { type FileJson, MAX_PER_PAGE } from "../http/protocol.ts";
import { safeFileName } from "../utils/file_name.ts";
import { globFilter } from "../utils/glob.ts";
import { checkFile } from "./_answers.ts";
import { saveFile } from "./_file_download.ts";
import type { PartListings } from "./_parts.ts";
import { asDirectory, resolveTarget } from "./_paths.ts";
import { runPool } from "./_pool.ts";
import { localName, makeParents, parentsOf, PathBlockedError } from "./_tree.ts";
import { writingFile } from "./_local_file.ts";
import { saveResponse } from "./_save.ts";
import { IncompleteDownloadError, type PartialFile } from "./errors.ts";
import type { ProgressCallback } from "./progress.ts";
import type { TransferTarget } from "./upload.ts";

/** A record as the multi-file downloads need it. */
export interface RecordTarget extends TransferTarget {
  /** The record's metadata (for its identifier). */
  meta(): Promise<{ identifier: string }>;
}

/** Options of {@linkcode downloadFiles}. */
export interface DownloadFilesOptions {
  /** Only files whose name matches this glob (`*`, `?`, `[...]`). @default {"*"} */
  pattern?: string | undefined;
  /** Leave out files whose name matches this glob. */
  excludePattern?: string | undefined;
  /** Write into `<dir>/<record identifier>/` (the identifier sanitised like every server name). */
  useFolder?: boolean | undefined;
  /**
   * Write every file directly into the folder, `/` in names replaced by `_`, as before trees.
   * Otherwise a name with `/` becomes subfolders (each component sanitised; never outside the
   * folder, never through a symbolic link), and two names that map to one path are reported
   * through `onWarning` and kept apart.
   * @default {false}
   */
  flat?: boolean | undefined;
  /**
   * Overwrite existing files; otherwise new ones are written as `<stem>_<n><ext>`. A local file
   * that already holds a file (same size and checksum) is kept either way (see `onPresent`).
   */
  force?: boolean | undefined;
  /** Files downloaded at the same time. @default {4} */
  concurrency?: number | undefined;
  /**
   * Keep the data of files stopped early (see {@linkcode DownloadFileOptions.keepPartial}); the
   * error is then an {@linkcode IncompleteDownloadError} listing every partial file.
   * @default {false}
   */
  keepPartial?: boolean | undefined;
  /** Called after each file is written. */
  onFile?: ((path: string, file: FileJson) => void) | undefined;
  /**
   * Called instead of `onFile` for a file already here: a local file of the same size and
   * checksum at its target (or, without `force`, at a numbered name an earlier run gave it);
   * nothing is downloaded and its path is among those returned. Running the same download again
   * thus fetches nothing twice and duplicates nothing.
   */
  onPresent?: ((path: string, file: FileJson) => void) | undefined;
  /**
   * Receives the bytes of a file received so far (several files may be in flight); `resumed`:
   * the bytes a resumed download found on disk (included in `bytes`).
   */
  onProgress?: (
    progress: { file: FileJson; bytes: number; total: number | undefined; resumed?: number },
  ) => void;
  /**
   * The record's files as the caller listed them (to show a total before the first byte); the
   * globs still apply. Default: listed here, page by page as the downloads go.
   */
  files?: Iterable<FileJson> | AsyncIterable<FileJson> | undefined;
  /** Receives warnings, e.g. that a name too long for the file system was shortened. */
  onWarning?: ((message: string) => void) | undefined;
  /** Cancels the downloads; the files in progress leave nothing behind unless `keepPartial`. */
  signal?: AbortSignal | undefined;
  /**
   * Paths written by earlier downloads of the same operation (e.g. other records of one command):
   * never written again, not even with `force`; the paths written here are added.
   */
  claimed?: Set<string> | undefined;
}

/** Options of {@linkcode downloadAllFiles}. */
export interface DownloadAllFilesOptions {
  /** Overwrite an existing file; otherwise the archive is written as `<stem>_<n>.zip`. */
  force?: boolean;
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback;
  /** Cancels the download; nothing is left behind. */
  signal?: AbortSignal;
}

/**
 * Downloads every file of a record whose name matches `pattern` and not `excludePattern`, up to
 * `concurrency` at a time, each atomically and verified. A name with `/` becomes subfolders
 * (unless `flat`); every component is sanitised, and two names that map to one local name get
 * `_<n>` suffixes (with a warning), never overwriting each other. After the first
 * failure no new file starts; the files in flight finish, then the first error is thrown.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { downloadFiles } from "./download_files.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.uploadString("a,b\n", "table.csv");
 * await record.uploadString("hello", "hello.txt");
 * const dir = await Deno.makeTempDir();
 * const paths = await downloadFiles(record, dir, { pattern: "*.csv" });
 * assert.deepStrictEqual(paths, [`${dir}/table.csv`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param record The record.
 * @param dir Directory to write into (created when missing).
 * @param options Globs, folder, force, concurrency, partial data, callbacks, signal.
 * @returns The paths written, in the server's order.
 * @throws {IncompleteDownloadError} When stopped early with `keepPartial` (data kept).
 * @throws {InputError} When files were left out because a file or symbolic link stands where their
 * folder must go (the others were written).
 */
export async function downloadFiles(
  record: RecordTarget,
  dir: string,
  options: DownloadFilesOptions = {},
): Promise<string[]> {
  const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
  const folder = options.useFolder ? (await record.meta()).identifier : undefined;
  await Deno.mkdir(dir, { recursive: true });
  const run: FilesDownload = {
    record,
    dir,
    root: folder === undefined ? dir : join(dir, safeFileName(folder)),
    folder,
    options,
    mapped: new Map(),
    roles: new Map(),
    folders: new Set(),
    blocked: [],
    written: [],
    partials: [],
    claimed: options.claimed ?? new Set<string>(),
    partListings: new Map(),
  };
  const { signal } = options;
  try {
    await runPool(
      options.concurrency ?? 4,
      wantedFiles(run, wanted),
      ({ file, at }) => downloadOne(run, file, at),
      signal ? { signal } : {},
    );
  } catch (error) {
    if (run.partials.length > 0) throw new IncompleteDownloadError(run.partials, error);
    throw error;
  }
  const paths = run.written.filter((path) => path !== undefined);
  if (run.blocked.length > 0) {
    throw new InputError(
      `${run.blocked.length} file(s) were not downloaded (${
        run.blocked.join("; ")
      }); the other ${paths.length} were: rename the files in the record, move what is in the way, or download with flat names`,
    );
  }
  return paths;
}

/** One run of {@linkcode downloadFiles}: where files go, and what it wrote or left out so far. */
interface FilesDownload {
  readonly record: RecordTarget;
  readonly dir: string;
  /** The folder nested names are made below: `dir`, or the record's folder in it. */
  readonly root: string;
  /** The record's identifier, with `useFolder`. */
  readonly folder: string | undefined;
  readonly options: DownloadFilesOptions;
  /** The record name each local relative path was given to (two names may map to one). */
  readonly mapped: Map<string, string>;
  /** What each relative path of this download is: a file or a folder of other files. */
  readonly roles: Map<string, "file" | "folder">;
  /** Folders of the tree found or made by this download: each is looked at once. */
  readonly folders: Set<string>;
  /** Why files were left out. */
  readonly blocked: string[];
  /** The paths written, by the file's place in the listing. */
  readonly written: (string | undefined)[];
  /** Files stopped early whose data is kept (`keepPartial`). */
  readonly partials: PartialFile[];
  readonly claimed: Set<string>;
  readonly partListings: PartListings;
}

/** The files to download, numbered in the listing's order: checked, and matching the globs. */
async function* wantedFiles(run: FilesDownload, wanted: (name: string) => boolean) {
  const { record, options } = run;
  const files = options.files ?? paginateItems<FileJson>(
    record.transport,
    filesPath(record.id),
    { per_page: MAX_PER_PAGE },
    options.signal ? { signal: options.signal } : {},
  );
  let at = 0;
  for await (const listed of files) {
    // Checked before a local path is built from the name.
    const file = checkFile(listed, `the files of record ${record.id}`);
    if (wanted(file.name)) yield { file, at: at++ };
  }
}

/** Downloads one file to its local path, unless something stands in its way (then noted). */
async function downloadOne(run: FilesDownload, file: FileJson, at: number): Promise<void> {
  const { record, options } = run;
  const place = await placeOf(run, file);
  if (place === undefined) return;
  const { onProgress } = options;
  let present = false;
  try {
    run.written[at] = await saveFile(record, file, {
      onPresent: () => present = true,
      path: place.path,
      folder: place.nested ? undefined : run.folder,
      force: options.force,
      keepPartial: options.keepPartial,
      claimed: run.claimed,
      partListings: run.partListings,
      onWarning: options.onWarning,
      signal: options.signal,
      ...(onProgress ? { onProgress: (p) => onProgress({ file, ...p }) } : {}),
    });
  } catch (error) {
    if (!(error instanceof IncompleteDownloadError)) throw error;
    run.partials.push(...error.partials);
    throw error.cause;
  }
  if (present) options.onPresent?.(run.written[at]!, file);
  else options.onFile?.(run.written[at]!, file);
}

/**
 * Where a file goes: its folder (made when nested) and whether it is nested; `undefined`, with
 * the reason noted in `blocked`, when a file of the record or a local file or link is in the way.
 * Names shortened, or mapping to the same path as another, are warned of.
 */
async function placeOf(
  run: FilesDownload,
  file: FileJson,
): Promise<{ path: string; nested: boolean } | undefined> {
  const { options, roles } = run;
  const relative = localName(file.name, options.flat);
  if (relative.includes("/") && relative !== localName(file.name, false, Infinity)) {
    options.onWarning?.(
      `The name '${file.name}' is too long for the local file system: saved as '${relative}'`,
    );
  }
  const other = run.mapped.get(relative);
  if (other === undefined) run.mapped.set(relative, file.name);
  else {
    options.onWarning?.(
      `The names '${other}' and '${file.name}' both map to '${relative}' on this system: '${file.name}' is saved under a numbered name`,
    );
  }
  // A path that is a file of one name and a folder of another (`a` and `a/b`) is left out for
  // the one that comes second, with the others, before anything of it is written.
  const clash = claimRoles(roles, relative);
  if (clash !== undefined) {
    run.blocked.push(
      `'${file.name}' needs '${clash}' as ${
        roles.get(clash) === "file"
          ? "a folder, where another file of the record goes"
          : "a file, where other files of the record need a folder"
      }`,
    );
    return undefined;
  }
  if (!relative.includes("/")) return { path: asDirectory(run.dir), nested: false };
  await Deno.mkdir(run.root, { recursive: true });
  try {
    return { path: await makeParents(run.root, relative, run.folders), nested: true };
  } catch (error) {
    // A file (or symbolic link) where a folder must go: this file is left out, the others go
    // on, and the run ends with an error listing what was left out.
    if (!(error instanceof PathBlockedError)) throw error;
    run.blocked.push(error.message);
    return undefined;
  }
}

/**
 * Claims `relative` as a file and its parents as folders; returns the path already claimed the
 * other way (nothing is claimed then), or `undefined`.
 */
function claimRoles(roles: Map<string, "file" | "folder">, relative: string): string | undefined {
  if (roles.get(relative) === "folder") return relative;
  const parents = parentsOf(relative);
  const taken = parents.find((parent) => roles.get(parent) === "file");
  if (taken !== undefined) return taken;
  // A second file of the same path gets a numbered name: it is a file either way.
  roles.set(relative, "file");
  for (const parent of parents) roles.set(parent, "folder");
  return undefined;
}

/**
 * Downloads all files of a record as the server's ZIP archive, written atomically. A directory
 * path gets `<dir>/<record identifier>.zip`.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { downloadAllFiles } from "./download_files.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.uploadString("hello", "hello.txt");
 * const dir = await Deno.makeTempDir();
 * const zip = await downloadAllFiles(record, `${dir}/`);
 * assert.ok((await Deno.stat(zip)).size > 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param record The record.
 * @param path Target file or directory.
 * @param options Force, progress, signal.
 * @returns The path written.
 */
export async function downloadAllFiles(
  record: RecordTarget,
  path: string,
  options: DownloadAllFilesOptions = {},
): Promise<string> {
  const { identifier } = await record.meta();
  const target = await resolveTarget(path, `${identifier}.zip`, { force: options.force });
  return await writingFile(
    target,
    () =>
      saveResponse(record.transport, filesDownloadPath(record.id), target, {
        force: options.force,
        onProgress: options.onProgress,
        signal: options.signal,
      }),
  );
}
