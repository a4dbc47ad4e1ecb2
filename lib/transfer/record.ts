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

/**
 * A record on the server: metadata, links, roles, and streamed file uploads, downloads and exports.
 *
 * @example Usage (permissions: `--allow-net` for the host, read/write for local files)
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.uploadString("hello", "hello.txt");
 * assert.strictEqual((await record.getFileByName("hello.txt")).size, 5);
 * ```
 */
export class RepoRecord extends RecordResource {
  static {
    Object.assign(this.prototype, EXPORT_METHODS);
  }

  /**
   * Uploads a file or a byte stream (see {@linkcode uploadFile}): direct or chunked as the
   * server decides, concurrent and resumable chunks, replace with `force`.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const dir = await Deno.makeTempDir(); // --allow-read and --allow-write for it
   * await Deno.writeTextFile(`${dir}/big.bin`, "0123456789");
   * const file = await record.uploadFile(`${dir}/big.bin`, { force: true });
   * assert.strictEqual(file.size, 10);
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const dir = await Deno.makeTempDir();
   * await Deno.writeTextFile(`${dir}/a.txt`, "a");
   * await Deno.writeTextFile(`${dir}/b.txt`, "b");
   * const { uploaded } = await record.uploadFiles(dir, { skipExisting: true });
   * assert.strictEqual(uploaded.length, 2);
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const file = await record.uploadString("a,b\n1,2\n", "table.csv", { mimetype: "text/csv" });
   * assert.strictEqual(file.name, "table.csv");
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const { id } = await record.uploadString("hello", "hello.txt");
   * const dir = await Deno.makeTempDir();
   * const path = await record.downloadFile(id, `${dir}/`);
   * assert.strictEqual(await Deno.readTextFile(path), "hello");
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * const { id } = await record.uploadString("hello", "hello.txt");
   * const stream = await record.downloadFile(id);
   * assert.strictEqual(await new Response(stream).text(), "hello");
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.uploadString("a,b\n", "table.csv");
   * const dir = await Deno.makeTempDir();
   * const paths = await record.downloadFiles(dir, { pattern: "*.csv" });
   * assert.strictEqual(paths.length, 1);
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.uploadString("hello", "hello.txt");
   * const dir = await Deno.makeTempDir();
   * const zip = await record.downloadAllFiles(`${dir}/`);
   * assert.ok(zip.endsWith(".zip"));
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5 });
   * const dir = await Deno.makeTempDir();
   * const path = await record.exportMetadata(`${dir}/meta.json`, { format: "plain" });
   * assert.deepStrictEqual(JSON.parse(await Deno.readTextFile(path)), { temperature: 21.5 });
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
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5 });
   * const stream = await record.exportMetadataStream({ format: "plain" });
   * assert.deepStrictEqual(await new Response(stream).json(), { temperature: 21.5 });
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
