/**
 * {@linkcode RepoRecord}: a record with everything, file transfers included.
 *
 * @example Usage
 * ```ts
 * import { RepoRecord } from "./record.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await RepoRecord.load(transport, { identifier: "demo", create: true });
 * const file = await record.uploadString("hello", "hello.txt");
 * const stream = await record.downloadFile(file.id);
 * console.log(await new Response(stream).text()); // "hello"
 * ```
 *
 * @module
 */

import type { FileJson } from "../http/protocol.ts";
import { RecordResource } from "../resources/record.ts";
import {
  downloadFile,
  type DownloadFileOptions,
  downloadFileStream,
  type DownloadStreamOptions,
} from "./download.ts";
import {
  downloadAllFiles,
  type DownloadAllFilesOptions,
  downloadFiles,
  type DownloadFilesOptions,
} from "./download_files.ts";
import { EXPORT_METHODS } from "./_export_methods.ts";
import type { ExportMethods, ResourceExportOptions } from "./export.ts";
import {
  exportMetadata,
  type ExportMetadataOptions,
  exportMetadataStream,
} from "./export_metadata.ts";
import { uploadFile, type UploadFileOptions, type UploadSource } from "./upload.ts";
import type { UploadFilesDone } from "./errors.ts";
import { uploadFiles, type UploadFilesOptions } from "./upload_files.ts";

/** Record export types. */
export type RecordExportType = "json" | "rdf" | "pdf" | "qr" | "ro-crate";

/** Options of {@linkcode RepoRecord.export}. */
export type RecordExportOptions = ResourceExportOptions;

/** Options of {@linkcode RepoRecord.uploadString}. */
export interface UploadStringOptions {
  /** Description of the file; when replacing, a missing description keeps the existing one. */
  fileDescription?: string;
  /** Replace a file with the same name. */
  force?: boolean;
  /** MIME type. */
  mimetype?: string;
  /** Cancels the upload. */
  signal?: AbortSignal;
}

/** A record on the server: metadata, links, roles, and streamed file uploads, downloads and exports. */
export class RepoRecord extends RecordResource {
  static {
    Object.assign(this.prototype, EXPORT_METHODS);
  }

  /**
   * Uploads a file or a byte stream (see {@linkcode uploadFile}): direct or chunked as the
   * server decides, concurrent and resumable chunks, replace with `force`.
   *
   * @example Usage
   * ```ts ignore
   * const file = await record.uploadFile("./big.bin", { force: true, onProgress: console.log });
   * ```
   *
   * @param source File path, or a byte stream with `size`.
   * @param options Name, description, force, concurrency, resume, progress, signal.
   * @returns The created or replaced file.
   */
  async uploadFile(
    source: string | ReadableStream<Uint8Array>,
    options: UploadFileOptions = {},
  ): Promise<FileJson> {
    const file = await uploadFile(this, source as UploadSource, options);
    this.invalidate();
    return file;
  }

  /**
   * Uploads the files of a folder (not its subfolders) or a list of files (see
   * {@linkcode uploadFiles}): small files several at a time, each verified; with `skipExisting`
   * files the record has with the same content are left out, so a rerun continues.
   *
   * @example Usage
   * ```ts ignore
   * const { uploaded, skipped } = await record.uploadFiles("./data", { skipExisting: true });
   * ```
   *
   * @param source A folder, a file, or a list of files.
   * @param options Globs, force, skipExisting, concurrency, description, callbacks, signal.
   * @returns The files uploaded and the ones skipped.
   */
  async uploadFiles(
    source: string | string[],
    options: UploadFilesOptions = {},
  ): Promise<UploadFilesDone> {
    try {
      return await uploadFiles(this, source, options);
    } finally {
      this.invalidate();
    }
  }

  /**
   * Uploads a string (UTF-8) as a file.
   *
   * @example Usage
   * ```ts ignore
   * await record.uploadString("a,b\n1,2\n", "table.csv", { mimetype: "text/csv" });
   * ```
   *
   * @param text The content.
   * @param fileName Name of the file in the record.
   * @param options Description, force, MIME type, signal.
   * @returns The created or replaced file.
   */
  async uploadString(
    text: string,
    fileName: string,
    options: UploadStringOptions = {},
  ): Promise<FileJson> {
    const file = await uploadFile(this, new TextEncoder().encode(text), { ...options, fileName });
    this.invalidate();
    return file;
  }

  /**
   * Downloads a file to `path` (atomically, verified; a directory gets `<dir>/<file name>`) and
   * returns the path written, or without `path` returns the file's content as a stream.
   *
   * @example Usage
   * ```ts ignore
   * const path = await record.downloadFile(fileId, "./out/");
   * const stream = await record.downloadFile(fileId);
   * ```
   *
   * @param fileId The file's id.
   * @param path Target file or directory; omit it to get a stream.
   * @param options Force, progress, signal.
   * @returns The path written, or the content stream.
   */
  downloadFile(
    fileId: string,
    path: string,
    options?: Omit<DownloadFileOptions, "path">,
  ): Promise<string>;
  /**
   * Opens a file's content as a stream (manual streaming); read or cancel it.
   *
   * @example Usage
   * ```ts ignore
   * const stream = await record.downloadFile(fileId);
   * ```
   *
   * @param fileId The file's id.
   * @param path Omitted.
   * @param options Progress and signal.
   * @returns The content stream.
   */
  downloadFile(
    fileId: string,
    path?: undefined,
    options?: DownloadStreamOptions,
  ): Promise<ReadableStream<Uint8Array>>;
  async downloadFile(
    fileId: string,
    path?: string,
    options: Omit<DownloadFileOptions, "path"> = {},
  ): Promise<string | ReadableStream<Uint8Array>> {
    if (path === undefined) return await downloadFileStream(this, fileId, options);
    return await downloadFile(this, fileId, { ...options, path });
  }

  /**
   * Downloads every file matching `pattern` (and not `excludePattern`) into `dir`.
   *
   * @example Usage
   * ```ts ignore
   * const paths = await record.downloadFiles("./out", { pattern: "*.csv", useFolder: true });
   * ```
   *
   * @param dir Target directory.
   * @param options Globs, folder, force, callbacks, signal.
   * @returns The paths written.
   */
  async downloadFiles(dir: string, options: DownloadFilesOptions = {}): Promise<string[]> {
    return await downloadFiles(this, dir, options);
  }

  /**
   * Downloads all files as the server's ZIP archive (a directory gets `<identifier>.zip`).
   *
   * @example Usage
   * ```ts ignore
   * const zip = await record.downloadAllFiles("./out/");
   * ```
   *
   * @param path Target file or directory.
   * @param options Force, progress, signal.
   * @returns The path written.
   */
  async downloadAllFiles(path: string, options: DownloadAllFilesOptions = {}): Promise<string> {
    return await downloadAllFiles(this, path, options);
  }

  /**
   * Exports the record's extra metadata as JSON (a directory gets `<identifier>-extras.json`).
   *
   * @example Usage
   * ```ts ignore
   * await record.exportMetadata("./meta.json", { format: "plain" });
   * ```
   *
   * @param path Target file or directory.
   * @param options Filter, format, folder, force, progress, signal.
   * @returns The path written.
   */
  async exportMetadata(path: string, options: ExportMetadataOptions = {}): Promise<string> {
    return await exportMetadata(this, path, options);
  }

  /**
   * Exports the record's extra metadata as a JSON byte stream (for piping).
   *
   * @example Usage
   * ```ts ignore
   * await (await record.exportMetadataStream({ format: "plain" })).pipeTo(Deno.stdout.writable);
   * ```
   *
   * @param options Filter, format, progress, signal.
   * @returns The JSON data.
   */
  async exportMetadataStream(
    options: Omit<ExportMetadataOptions, "useFolder" | "force" | "name"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return await exportMetadataStream(this, options);
  }
}

/** A record's exports ({@linkcode ExportMethods}: `json`, `rdf`, `pdf`, `qr`, `ro-crate`). */
export interface RepoRecord extends ExportMethods<RecordExportType> {}
