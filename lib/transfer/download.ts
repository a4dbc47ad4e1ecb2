/**
 * Downloading one file of a record: to disk atomically (verified against the file's size and
 * checksum), or as a stream for manual processing.
 *
 * @example Usage
 * ```ts
 * import { downloadFile } from "./download.ts";
 * import { uploadFile } from "./upload.ts";
 * import { RecordResource } from "../resources/record.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await RecordResource.load(transport, { identifier: "demo", create: true });
 * const file = await uploadFile(record, new TextEncoder().encode("hi"), { fileName: "hi.txt" });
 * const dir = await Deno.makeTempDir();
 * const path = await downloadFile(record, file.id, { path: dir });
 * console.log(await Deno.readTextFile(path)); // "hi"
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

import type { FileJson } from "../http/protocol.ts";
import { pathSegment } from "../http/url.ts";
import { resolveTarget } from "./_paths.ts";
import { openBody, saveResponse } from "./_save.ts";
import type { ProgressCallback } from "./progress.ts";
import type { TransferTarget } from "./upload.ts";

/** Options of {@linkcode downloadFile}. */
export interface DownloadFileOptions {
  /** Target file, or a directory to write `<dir>/<file name>` into. */
  path: string;
  /** Overwrite an existing file; otherwise the new one is written as `<stem>_<n><ext>`. */
  force?: boolean;
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback;
  /** Cancels the download; nothing is left behind. */
  signal?: AbortSignal;
  /** The file's metadata when already at hand (saves one request). */
  file?: FileJson;
}

/** Options of {@linkcode downloadFileStream}. */
export interface DownloadStreamOptions {
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback;
  /** Cancels the download. */
  signal?: AbortSignal;
}

/**
 * Downloads a file of a record to disk. The data goes to a temporary file beside the target,
 * which is renamed only when complete, of the file's size and (for MD5 checksums, plain or
 * per-chunk composite) of the file's checksum; on any failure it is deleted.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` and `--allow-write` for the target.
 *
 * @example Usage
 * ```ts ignore
 * const path = await downloadFile(record, fileId, { path: "./downloads/" });
 * ```
 *
 * @param record The record (anything with `transport` and `endpoint`).
 * @param fileId The file's id (UUID).
 * @param options Target path, force, progress, signal.
 * @returns The path written.
 * @throws {IntegrityError} When the data does not match the file's size or checksum.
 */
export async function downloadFile(
  record: TransferTarget,
  fileId: string,
  options: DownloadFileOptions,
): Promise<string> {
  const signal = options.signal;
  const file = options.file ??
    await record.transport.json<FileJson>(
      "GET",
      `${record.endpoint}/files/${pathSegment(fileId, "file id")}`,
      {
        ...(signal ? { signal } : {}),
      },
    );
  const target = await resolveTarget(options.path, file.name, { force: options.force });
  return await saveResponse(record.transport, downloadLink(record, file), target, {
    size: file.size,
    checksum: file.checksum,
    onProgress: options.onProgress,
    signal,
  });
}

/**
 * Opens a file of a record as a byte stream (manual streaming). Read or cancel the stream.
 *
 * @example Usage
 * ```ts ignore
 * const stream = await downloadFileStream(record, fileId);
 * for await (const chunk of stream) process(chunk);
 * ```
 *
 * @param record The record (anything with `transport` and `endpoint`).
 * @param fileId The file's id (UUID).
 * @param options Progress and signal.
 * @returns The file's content.
 */
export async function downloadFileStream(
  record: TransferTarget,
  fileId: string,
  options: DownloadStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const endpoint = `${record.endpoint}/files/${pathSegment(fileId, "file id")}/download`;
  return await openBody(record.transport, endpoint, {
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

function downloadLink(record: TransferTarget, file: FileJson): string {
  return file._links?.download ??
    `${record.endpoint}/files/${pathSegment(file.id, "file id")}/download`;
}
