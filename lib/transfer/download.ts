/**
 * Downloading one file of a record: to disk atomically (verified against the file's size and
 * checksum), or as a stream for manual processing.
 *
 * @module
 */

import type { FileJson } from "../http/protocol.ts";
import { fileDownloadPath, filesPath } from "../http/paths.ts";
import { InputError } from "../errors.ts";
import { FILE_ANSWER } from "./_answers.ts";
import { saveFile } from "./_file_download.ts";
import { openBody } from "./_save.ts";
import type { ProgressCallback } from "./progress.ts";
import type { TransferTarget } from "./upload.ts";

/** Options of {@linkcode downloadFile}. */
export interface DownloadFileOptions {
  /** Target file, or a directory to write `<dir>/<file name>` into. */
  path: string;
  /**
   * Overwrite an existing file; otherwise the new one is written as `<stem>_<n><ext>`. A local
   * file that already holds the file (same size and checksum) is kept either way and nothing is
   * downloaded (see `onPresent`).
   */
  force?: boolean | undefined;
  /**
   * Called, instead of downloading, with the local file that already holds the file: the
   * target (or, without `force`, a numbered name an earlier run gave it) of the same size and
   * checksum. Its path is returned.
   */
  onPresent?: ((path: string) => void) | undefined;
  /**
   * Write into `<path>/<record identifier>/` (the identifier sanitised like every server name);
   * needs a record with `meta()`.
   */
  useFolder?: boolean | undefined;
  /**
   * Keep the data received so far when the download stops early (aborted, connection broken), in
   * the hidden `.part` file beside the target, and throw {@linkcode IncompleteDownloadError}; the
   * same download run again resumes it. A partial file of the same file and target is always
   * resumed when found.
   * @default {false: nothing is left behind}
   */
  keepPartial?: boolean | undefined;
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback | undefined;
  /** Receives warnings, e.g. that a name too long for the file system was shortened. */
  onWarning?: ((message: string) => void) | undefined;
  /** Cancels the download; nothing is left behind unless `keepPartial`. */
  signal?: AbortSignal | undefined;
  /** The file's metadata when already at hand (saves one request). */
  file?: FileJson | undefined;
  /**
   * Paths written by earlier downloads of the same operation (e.g. other records of one command):
   * never written again, not even with `force`; the path written is added.
   */
  claimed?: Set<string> | undefined;
}

/** Options of {@linkcode downloadFileStream}. */
export interface DownloadStreamOptions {
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the download. */
  signal?: AbortSignal | undefined;
}

/**
 * Downloads a file of a record to disk. The data goes to a temporary file beside the target,
 * which is renamed only when complete, of the file's size and (for MD5 checksums, plain or
 * per-chunk composite) of the file's checksum; on any failure it is deleted (or kept for resuming
 * with `keepPartial`). A directory target gets the file's name, sanitised: it never leads outside
 * the directory, and a name too long for the file system is shortened (with a warning).
 *
 * Permissions: `--allow-net` to the host, `--allow-read` and `--allow-write` for the target.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { downloadFile } from "./download.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const { id } = await record.uploadString("hello", "hello.txt");
 * const dir = await Deno.makeTempDir(); // --allow-write (and --allow-read) for it
 * const path = await downloadFile(record, id, { path: `${dir}/` });
 * assert.strictEqual(await Deno.readTextFile(path), "hello");
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param record The record (anything with `transport`, `id` and `endpoint`).
 * @param fileId The file's id (UUID).
 * @param options Target path, folder, force, partial data, progress, warnings, signal.
 * @returns The path written.
 * @throws {IntegrityError} When the data does not match the file's size or checksum.
 * @throws {IncompleteDownloadError} When stopped early with `keepPartial` (data kept).
 */
export async function downloadFile(
  record: TransferTarget & { meta?(): Promise<{ identifier: string }> },
  fileId: string,
  options: DownloadFileOptions,
): Promise<string> {
  const signal = options.signal;
  const file = options.file ??
    await record.transport.jsonObject<FileJson>("GET", filesPath(record.id, fileId), {
      ...FILE_ANSWER,
      ...(signal ? { signal } : {}),
    });
  let folder: string | undefined;
  if (options.useFolder) {
    if (record.meta === undefined) throw new InputError("useFolder needs a record with meta()");
    folder = (await record.meta()).identifier;
  }
  return await saveFile(record, file, { ...options, folder });
}

/**
 * Opens a file of a record as a byte stream (manual streaming). Read or cancel the stream.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { downloadFileStream } from "./download.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const { id } = await record.uploadString("hello", "hello.txt");
 * const stream = await downloadFileStream(record, id);
 * assert.strictEqual(await new Response(stream).text(), "hello");
 * ```
 *
 * @param record The record (anything with `transport`, `id` and `endpoint`).
 * @param fileId The file's id (UUID).
 * @param options Progress and signal.
 * @returns The file's content.
 */
export async function downloadFileStream(
  record: TransferTarget,
  fileId: string,
  options: DownloadStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  return await openBody(record.transport, fileDownloadPath(record.id, fileId), {
    onProgress: options.onProgress,
    signal: options.signal,
  });
}
