/**
 * Uploading many files to a record: the files of a folder (with `recursive`, its whole tree)
 * matching a glob, or a list of paths. Small files go several at a time; files already in the
 * record with the same content can be skipped, so an interrupted folder upload continues where it
 * stopped.
 *
 * @module
 */

import { basename, join } from "node:path";
import { InputError } from "../errors.ts";
import { statLocalPath } from "../utils/local_path.ts";
import { type FileJson, UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { nameList } from "../utils/_name_list.ts";
import { runPool } from "./_pool.ts";
import { resolveSource } from "./_source.ts";
import { checkNameLengths, STAT_CONCURRENCY, walkTree } from "./_tree.ts";
import { fileFinder, holdsSource } from "./_verify.ts";
import { FilesExistError, type UploadFilesDone, UploadFilesError } from "./errors.ts";
import type { Progress } from "./progress.ts";
import { uploadFile, type UploadTarget } from "./upload.ts";

/** A record as {@linkcode uploadFiles} needs it: uploads plus the list of its files. */
export interface UploadFilesTarget extends UploadTarget {
  /** Iterates over the record's files. */
  files(): AsyncIterable<FileJson>;
}

/** One local file of a multi-file upload. */
export interface LocalUploadFile {
  /** Path on disk. */
  path: string;
  /** Name in the record (the base name). */
  name: string;
  /** Size in bytes. */
  size: number;
}

/** Progress of one file of a multi-file upload. */
export interface UploadFilesProgress extends Progress {
  /** The local file. */
  file: LocalUploadFile;
}

/** Options of {@linkcode uploadFiles}. */
export interface UploadFilesOptions {
  /** For a folder: only files whose name matches this glob (`*`, `?`, `[...]`). @default {"*"} */
  pattern?: string | undefined;
  /** For a folder: leave out files whose name matches this glob. */
  excludePattern?: string | undefined;
  /**
   * For a folder: upload its subfolders too. Each file is named by its path relative to the
   * folder with `/` separators (`raw/run1.h5`), and the globs match that relative path.
   * Symbolic links are left out unless `followSymlinks`. Names longer than the server's 256
   * characters are refused before anything is sent.
   */
  recursive?: boolean | undefined;
  /** With `recursive`: follow symbolic links (a link back to a folder above it is left out). */
  followSymlinks?: boolean | undefined;
  /** Receives warnings, e.g. that symbolic links were left out. */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Replace files of the same name, also those with the same content (only those with other
   * content, when `skipExisting` is set too).
   */
  force?: boolean | undefined;
  /**
   * With `force`: still leave out files the record already has with the same content. Without
   * `force` they are always left out (see {@linkcode uploadFiles}).
   */
  skipExisting?: boolean | undefined;
  /**
   * Files up to 10 MB in flight at once; larger ones go one at a time. Small files spend their
   * time in round trips, not bytes, so more in flight pay, on both sides: the client and the
   * server handle several answers per wake-up (docs/perf/transfers.md).
   * @default {16}
   */
  concurrency?: number | undefined;
  /** Chunk requests in flight per chunked file. @default {4} */
  chunkConcurrency?: number | undefined;
  /** Description of every file uploaded. */
  fileDescription?: string | undefined;
  /** Called for each file uploaded or skipped. */
  onFile?:
    | ((event: { file: LocalUploadFile; uploaded: FileJson; skipped: boolean }) => void)
    | undefined;
  /** Receives the progress of each file being uploaded. */
  onProgress?: ((progress: UploadFilesProgress) => void) | undefined;
  /**
   * Called once with the plan (see {@linkcode planUploadFiles}) before the first byte is sent:
   * the number and size of the files to upload, for a progress total.
   */
  onPlan?: ((plan: UploadFilesPlan) => void) | undefined;
  /** Cancels the upload: no new file starts, the ones in flight stop (and can be resumed). */
  signal?: AbortSignal | undefined;
}

/**
 * Uploads the files of a folder (not its subfolders unless `recursive`; only names matching
 * `pattern` and not `excludePattern`), or the files of a list of paths, to a record. Each file is
 * uploaded and verified as by {@linkcode uploadFile}; files up to 10 MB go `concurrency` at a
 * time.
 *
 * Name clashes are checked before anything is sent. A file the record already has with the same
 * name, size and checksum (MD5 against the server's checksum) is skipped and listed in
 * `skipped`, for a folder as for a single file: running the same upload again after an
 * interruption (or a lost answer) sends only what is missing. A name the record has with other
 * content stops the whole upload with a {@linkcode FilesExistError} unless `force` replaces it
 * (`force` alone replaces the files with the same content too; with `skipExisting` it skips them).
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the files.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { planUploadFiles, uploadFiles } from "./upload_files.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const dir = await Deno.makeTempDir(); // --allow-read for it
 * await Deno.writeTextFile(`${dir}/a.txt`, "a");
 * await uploadFiles(record, dir);
 * const { uploaded, skipped } = await uploadFiles(record, dir, { skipExisting: true });
 * assert.deepStrictEqual([uploaded.length, skipped.length], [0, 1]);
 * await Deno.writeTextFile(`${dir}/b.txt`, "b");
 * const plan = await planUploadFiles(record, dir); // what it would do, nothing sent
 * assert.deepStrictEqual(plan.upload.map((file) => file.name), ["b.txt"]);
 * assert.deepStrictEqual(plan.skip.map(({ file }) => file.name), ["a.txt"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param source A folder, a file, or a list of files.
 * @throws {FilesExistError} When names exist already (nothing was sent).
 * @throws {UploadFilesError} When a file fails; `done` lists what was uploaded before.
 * @throws {InputError} For a missing path, a folder in a list, or bad options.
 */
export async function uploadFiles(
  record: UploadFilesTarget,
  source: string | string[],
  options: UploadFilesOptions = {},
): Promise<UploadFilesDone> {
  const { concurrency = 16, chunkConcurrency = 4, force = false } = options;
  for (
    const [key, value] of [["concurrency", concurrency], ["chunkConcurrency", chunkConcurrency]]
  ) {
    if (!Number.isInteger(value) || Number(value) < 1) {
      throw new InputError(`${key} must be a positive integer, got ${value}`);
    }
  }
  const plan = await planUploadFiles(record, source, options);
  options.onPlan?.(plan);
  const done: UploadFilesDone = { uploaded: [], skipped: [] };
  for (const { file, found } of plan.skip) {
    done.skipped.push(found);
    options.onFile?.({ file, uploaded: found, skipped: true });
  }
  const pending = plan.upload;

  let failed: LocalUploadFile | undefined;
  const send = async (file: LocalUploadFile) => {
    try {
      const uploaded = await uploadFile(record, file.path, {
        fileName: file.name,
        force,
        concurrency: chunkConcurrency,
        ...(options.fileDescription !== undefined
          ? { fileDescription: options.fileDescription }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        onProgress: (progress) => options.onProgress?.({ ...progress, file }),
      });
      done.uploaded.push(uploaded);
      options.onFile?.({ file, uploaded, skipped: false });
    } catch (error) {
      failed ??= file;
      throw error;
    }
  };
  const signal = options.signal ? { signal: options.signal } : {};
  try {
    // Small files several at a time; each large one alone (its chunks are sent concurrently),
    // so memory stays at what one chunked upload needs.
    await runPool(concurrency, pending.filter((f) => f.size <= UPLOAD_CHUNK_SIZE), send, signal);
    await runPool(1, pending.filter((f) => f.size > UPLOAD_CHUNK_SIZE), send, signal);
  } catch (error) {
    if (failed === undefined && options.signal?.aborted) {
      throw new UploadFilesError(
        `The upload was cancelled after ${done.uploaded.length} of ${pending.length} files: run it again to continue`,
        undefined,
        done,
        error,
      );
    }
    if (failed === undefined) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new UploadFilesError(
      `Uploading '${failed.path}' failed (${reason}); ${done.uploaded.length} of ${pending.length} files were uploaded: run the upload again to continue`,
      failed.path,
      done,
      error,
    );
  }
  return done;
}

/** What {@linkcode uploadFiles} would do with the same arguments, decided without sending. */
export interface UploadFilesPlan {
  /** The files it would upload (replacing a file of the same name when `force` is set). */
  upload: LocalUploadFile[];
  /** The files it would leave out: the record has them with the same content. */
  skip: { file: LocalUploadFile; found: FileJson }[];
  /**
   * The subfolders of a folder left out because `recursive` was not set, in name order (empty
   * with `recursive`, or for a list of files).
   */
  folders: string[];
}

/**
 * Decides what {@linkcode uploadFiles} would send, without sending anything (a dry run): the
 * local files (folder listing and globs), and against the record's files the ones to skip and
 * the name clashes, which throw as they would there ({@linkcode uploadFiles} shows it). The
 * lists are in name order; of the options only the globs, `force` and `skipExisting` count.
 * @throws {FilesExistError} When names exist already.
 * @throws {InputError} For a missing path or a folder in a list.
 */
export async function planUploadFiles(
  record: UploadFilesTarget,
  source: string | string[],
  options: Pick<
    UploadFilesOptions,
    | "pattern"
    | "excludePattern"
    | "force"
    | "skipExisting"
    | "recursive"
    | "followSymlinks"
    | "onWarning"
    | "signal"
  > = {},
): Promise<UploadFilesPlan> {
  const { files: local, folders } = await localFiles(source, options);
  const skip: UploadFilesPlan["skip"] = [];
  const upload = await withoutExisting(
    record,
    local,
    {
      force: options.force ?? false,
      skipExisting: options.skipExisting ?? false,
      signal: options.signal,
    },
    (file, found) => skip.push({ file, found }),
  );
  return { upload, skip, folders };
}

async function localFiles(
  source: string | string[],
  options: Pick<
    UploadFilesOptions,
    "pattern" | "excludePattern" | "recursive" | "followSymlinks" | "onWarning"
  >,
) {
  const files: LocalUploadFile[] = [];
  const folders: string[] = [];
  const folder = typeof source === "string" && (await statUploadPath(source)).isDirectory;
  if (typeof source === "string" && folder && options.recursive) {
    const tree = await walkTree(source, {
      wanted: globFilter(options.pattern ?? "*", options.excludePattern),
      followSymlinks: options.followSymlinks ?? false,
      onWarning: options.onWarning,
    });
    checkNameLengths(tree.map((file) => file.name));
    // The whole tree is uploaded: no subfolder is left out.
    return { files: tree.map(({ path, name, size }) => ({ path, name, size })), folders };
  }
  if (typeof source === "string" && folder) {
    const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
    const names: string[] = [];
    for await (const entry of Deno.readDir(source)) {
      // Every subfolder is reported as left out, whatever the globs (they pick files).
      if (entry.isDirectory) folders.push(entry.name);
      // A symbolic link is followed (stat), so it is not ruled out by its entry type.
      else if (wanted(entry.name)) names.push(entry.name);
    }
    // Several stats at a time: one after the other, 200 files took 20-30 ms.
    await runPool(STAT_CONCURRENCY, names, async (name) => {
      const path = join(source, name);
      const info = await Deno.stat(path).catch(() => undefined);
      if (info?.isFile) files.push({ path, name, size: info.size });
    });
  } else {
    for (const path of typeof source === "string" ? [source] : source) {
      const info = await statUploadPath(path);
      if (!info.isFile) throw new InputError(`'${path}' is not a regular file: pass files`);
      files.push({ path, name: basename(path), size: info.size });
    }
  }
  const byName = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;
  return { files: files.sort((a, b) => byName(a.name, b.name)), folders: folders.sort(byName) };
}

/**
 * Stats a local file or folder to upload ({@linkcode statLocalPath}), with an error in the user's
 * terms when nothing is there.
 *
 * @throws {InputError} When nothing exists at `path`.
 */
export async function statUploadPath(path: string): Promise<Deno.FileInfo> {
  return await statLocalPath(path, { what: "file or folder" });
}

/** The files still to upload; skipped ones are reported, clashes thrown before any upload. */
async function withoutExisting(
  record: UploadFilesTarget,
  files: LocalUploadFile[],
  options: { force: boolean; skipExisting: boolean; signal?: AbortSignal | undefined },
  onSkip: (file: LocalUploadFile, found: FileJson) => void,
): Promise<LocalUploadFile[]> {
  // Checked first so that a clash sends nothing at all. A file with the same content is a
  // success (a rerun after an interruption or a lost answer), unless force replaces everything.
  if (options.force && !options.skipExisting) return files;
  const existing = new Map<string, FileJson>();
  if (files.length === 1 && record.getFileByName !== undefined) {
    // One file: one lookup by name instead of listing every file of the record.
    const found = await fileFinder(record)(files[0]!.name);
    if (found !== undefined) existing.set(found.name, found);
  } else {
    const names = new Set(files.map((file) => file.name));
    for await (const file of record.files()) {
      options.signal?.throwIfAborted();
      if (names.has(file.name)) existing.set(file.name, file);
    }
  }
  const pending: LocalUploadFile[] = [];
  const clashes: string[] = [];
  for (const file of files) {
    const found = existing.get(file.name);
    if (found === undefined) pending.push(file);
    else if (await hasContent(file, found, options.signal)) onSkip(file, found);
    else if (options.force) pending.push(file);
    else clashes.push(file.name);
  }
  if (clashes.length > 0) {
    const list = nameList(clashes);
    throw new FilesExistError(
      clashes,
      `The record already has ${
        clashes.length === 1 ? "a file" : `${clashes.length.toLocaleString("en-US")} files`
      } named ${list} with other content: nothing was uploaded; pass force to replace ${
        clashes.length === 1 ? "it" : "them"
      }`,
    );
  }
  return pending;
}

async function hasContent(
  file: LocalUploadFile,
  found: FileJson,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (found.size !== file.size) return false;
  const source = await resolveSource(file.path);
  try {
    return await holdsSource(found, source, signal);
  } finally {
    await source.close();
  }
}
