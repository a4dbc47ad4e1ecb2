/**
 * Downloading many files of a record: every file matching a glob (one request per file, each
 * verified and written atomically), or the server's ZIP archive of all files.
 *
 * @example Usage
 * ```ts
 * import { downloadFiles } from "./download_files.ts";
 * import { uploadFile } from "./upload.ts";
 * import { RecordResource } from "../resources/record.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await RecordResource.load(transport, { identifier: "demo", create: true });
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
import { type FileJson, MAX_PER_PAGE } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { join } from "node:path";
import { resolveTarget, safeName } from "./_paths.ts";
import { saveResponse } from "./_save.ts";
import { downloadFile } from "./download.ts";
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
  /** Write into `<dir>/<record identifier>/`. */
  useFolder?: boolean;
  /** Overwrite existing files; otherwise new ones are written as `<stem>_<n><ext>`. */
  force?: boolean;
  /** Called after each file is written. */
  onFile?: (path: string, file: FileJson) => void;
  /** Receives the bytes of the current file received so far. */
  onProgress?: (progress: { file: FileJson; bytes: number; total: number | undefined }) => void;
  /** Cancels the downloads; the file in progress leaves nothing behind. */
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
 * Downloads every file of a record whose name matches `pattern` and not `excludePattern`, one
 * after another, each atomically and verified.
 *
 * @example Usage
 * ```ts ignore
 * const paths = await downloadFiles(record, "./out", { pattern: "*.csv", useFolder: true });
 * ```
 *
 * @param record The record.
 * @param dir Directory to write into (created when missing).
 * @param options Globs, folder, force, callbacks, signal.
 * @returns The paths written, in the server's order.
 */
export async function downloadFiles(
  record: RecordTarget,
  dir: string,
  options: DownloadFilesOptions = {},
): Promise<string[]> {
  const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
  const target = options.useFolder ? await folderOf(record, dir) : dir;
  await Deno.mkdir(target, { recursive: true });
  const signal = options.signal;
  const files = paginateItems<FileJson>(
    record.transport,
    `${record.endpoint}/files`,
    { per_page: MAX_PER_PAGE },
    signal ? { signal } : {},
  );
  const written: string[] = [];
  for await (const file of files) {
    if (!wanted(file.name)) continue;
    const onProgress = options.onProgress;
    // Two server names can map to one local name (`a/b` and `a_b`): `force` overwrites files
    // from before this call, never one this call has just written.
    const force = options.force === true && !written.includes(join(target, safeName(file.name)));
    const path = await downloadFile(record, file.id, {
      path: `${target}/`,
      file,
      ...(force ? { force: true } : {}),
      ...(onProgress ? { onProgress: (p) => onProgress({ file, ...p }) } : {}),
      ...(signal ? { signal } : {}),
    });
    written.push(path);
    options.onFile?.(path, file);
  }
  return written;
}

/**
 * Downloads all files of a record as the server's ZIP archive, written atomically. A directory
 * path gets `<dir>/<record identifier>.zip`.
 *
 * @example Usage
 * ```ts ignore
 * const zip = await downloadAllFiles(record, "./out/");
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
  return await saveResponse(record.transport, `${record.endpoint}/files/download`, target, {
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

async function folderOf(record: RecordTarget, dir: string): Promise<string> {
  const { identifier } = await record.meta();
  return `${dir.replace(/[\\/]+$/, "")}/${identifier}`;
}
