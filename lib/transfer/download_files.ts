/**
 * Downloading many files of a record: every file matching a glob (one request per file, each
 * verified and written atomically), or the server's ZIP archive of all files.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { downloadFiles } from "./download_files.ts";
 * import { uploadFile } from "./upload.ts";
 * import { RepoRecord } from "./record.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await openResource(transport, RepoRecord, { identifier: "demo", create: true });
 * await uploadFile(record, new TextEncoder().encode("a"), { fileName: "a.txt" });
 * await uploadFile(record, new TextEncoder().encode("b"), { fileName: "b.csv" });
 * const dir = await Deno.makeTempDir();
 * const paths = await downloadFiles(record, dir, { pattern: "*.txt" });
 * console.log(paths.length); // 1
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

import { paginateItems } from "../http/paginate.ts";
import { filesDownloadPath, filesPath } from "../http/paths.ts";
import { type FileJson, MAX_PER_PAGE } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { saveFile } from "./_file_download.ts";
import type { PartListings } from "./_parts.ts";
import { asDirectory, resolveTarget } from "./_paths.ts";
import { runPool } from "./_pool.ts";
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
  pattern?: string;
  /** Leave out files whose name matches this glob. */
  excludePattern?: string;
  /** Write into `<dir>/<record identifier>/` (the identifier sanitised like every server name). */
  useFolder?: boolean;
  /** Overwrite existing files; otherwise new ones are written as `<stem>_<n><ext>`. */
  force?: boolean;
  /** Files downloaded at the same time. @default {4} */
  concurrency?: number;
  /**
   * Keep the data of files stopped early (see {@linkcode DownloadFileOptions.keepPartial}); the
   * error is then an {@linkcode IncompleteDownloadError} listing every partial file.
   * @default {false}
   */
  keepPartial?: boolean;
  /** Called after each file is written. */
  onFile?: (path: string, file: FileJson) => void;
  /** Receives the bytes of a file received so far (several files may be in flight). */
  onProgress?: (progress: { file: FileJson; bytes: number; total: number | undefined }) => void;
  /** Receives warnings, e.g. that a name too long for the file system was shortened. */
  onWarning?: (message: string) => void;
  /** Cancels the downloads; the files in progress leave nothing behind unless `keepPartial`. */
  signal?: AbortSignal;
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
 * `concurrency` at a time, each atomically and verified. Server names are sanitised; two names
 * that map to one local name get `_<n>` suffixes, never overwriting each other. After the first
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
 */
export async function downloadFiles(
  record: RecordTarget,
  dir: string,
  options: DownloadFilesOptions = {},
): Promise<string[]> {
  const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
  const folder = options.useFolder ? (await record.meta()).identifier : undefined;
  await Deno.mkdir(dir, { recursive: true });
  const signal = options.signal;
  const files = paginateItems<FileJson>(
    record.transport,
    filesPath(record.id),
    { per_page: MAX_PER_PAGE },
    signal ? { signal } : {},
  );
  const written: (string | undefined)[] = [];
  const partials: PartialFile[] = [];
  const taken = new Set<string>();
  const partListings: PartListings = new Map();
  const { onProgress, onFile } = options;
  let index = 0;
  const numbered = async function* () {
    for await (const file of files) if (wanted(file.name)) yield { file, at: index++ };
  };
  try {
    await runPool(options.concurrency ?? 4, numbered(), async ({ file, at }) => {
      try {
        written[at] = await saveFile(record, file, {
          path: asDirectory(dir),
          folder,
          force: options.force,
          keepPartial: options.keepPartial,
          taken,
          partListings,
          onWarning: options.onWarning,
          signal,
          ...(onProgress ? { onProgress: (p) => onProgress({ file, ...p }) } : {}),
        });
      } catch (error) {
        if (!(error instanceof IncompleteDownloadError)) throw error;
        partials.push(...error.partials);
        throw error.cause;
      }
      onFile?.(written[at]!, file);
    }, signal ? { signal } : {});
  } catch (error) {
    if (partials.length > 0) throw new IncompleteDownloadError(partials, error);
    throw error;
  }
  return written.filter((path) => path !== undefined);
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
        onProgress: options.onProgress,
        signal: options.signal,
      }),
  );
}
