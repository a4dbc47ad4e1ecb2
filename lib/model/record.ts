/**
 * {@linkcode RepoRecord}: the record class. Each method is one line over its capability module
 * (`lib/resources/capabilities/`) or transfer function (`lib/transfer/`), whose docs carry the
 * parameters and errors; the class shows one example per capability.
 *
 * @module
 */

import type {
  CollectionJson,
  Extra,
  FileJson,
  PageJson,
  RecordJson,
  RecordLinkJson,
  ResourceChanges,
  RevisionJson,
} from "../http/protocol.ts";
import type { QueryParams } from "../http/url.ts";
import type { ListOptions } from "../http/list_options.ts";
import * as extras from "../resources/capabilities/extras.ts";
import type { MetadataOptions } from "../resources/capabilities/extras.ts";
import * as files from "../resources/capabilities/files.ts";
import type { FileChanges } from "../resources/capabilities/files.ts";
import { addLink, getLinked, removeLink } from "../resources/capabilities/links.ts";
import * as links from "../resources/capabilities/record_links.ts";
import type {
  RecordLinkChanges,
  RecordLinksQuery,
} from "../resources/capabilities/record_links.ts";
import { validateExtras } from "../resources/metadata.ts";
import { TaggedResource } from "../resources/shared.ts";

import {
  downloadFile,
  type DownloadFileOptions,
  downloadFileStream,
  type DownloadStreamOptions,
} from "../transfer/download.ts";
import {
  downloadAllFiles,
  type DownloadAllFilesOptions,
  downloadFiles,
  type DownloadFilesOptions,
} from "../transfer/download_files.ts";
import {
  exportResource,
  exportStream,
  type ExportStreamOptions,
  type ResourceExportOptions,
} from "../transfer/export.ts";
import {
  exportMetadata,
  type ExportMetadataOptions,
  exportMetadataStream,
} from "../transfer/export_metadata.ts";
import { uploadFile, type UploadFileOptions, type UploadSource } from "../transfer/upload.ts";
import type { UploadFilesDone } from "../transfer/errors.ts";
import { uploadFiles, type UploadFilesOptions } from "../transfer/upload_files.ts";

export type { FileChanges, MetadataOptions, RecordLinkChanges, RecordLinksQuery };

/** Record export types. */
export type RecordExportType = "json" | "rdf" | "pdf" | "qr" | "ro-crate";

/** Options of {@linkcode RepoRecord.export}. */
export type RecordExportOptions = ResourceExportOptions;

/** Options of {@linkcode RepoRecord.uploadString}. */
export interface UploadStringOptions {
  /** Description of the file; when replacing, a missing description keeps the existing one. */
  fileDescription?: string | undefined;
  /** Replace a file with the same name. */
  force?: boolean | undefined;
  /** MIME type. */
  mimetype?: string | undefined;
  /** Cancels the upload. */
  signal?: AbortSignal | undefined;
}

/**
 * A record on the server: metadata, links, roles, and streamed file uploads, downloads and exports.
 * Permissions: `--allow-net` for the host, read and write for local files.
 *
 * @example Files: upload, look up, download
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const file = await record.uploadString("hello", "hello.txt");
 * assert.strictEqual((await record.getFileByName("hello.txt")).id, file.id);
 * const stream = await record.downloadFile(file.id); // or downloadFile(file.id, path)
 * assert.strictEqual(await new Response(stream).text(), "hello");
 * ```
 *
 * @example Metadata (extras)
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5, unit: "°C" });
 * assert.strictEqual((await record.getMetadatum("temperature"))?.value, 21.5);
 * const stream = await record.exportMetadataStream({ format: "plain" });
 * assert.deepStrictEqual(await new Response(stream).json(), { temperature: 21.5 });
 * ```
 *
 * @example Links to records and collections
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const raw = await manager.record({ identifier: "raw-1", create: true });
 * const link = await record.linkRecord(raw.id, "derived from");
 * const incoming = await Array.fromAsync(raw.recordLinks({ direction: "in" }));
 * assert.deepStrictEqual(incoming.map((item) => item.id), [link.id]);
 * const collection = await manager.collection({ identifier: "batch-1", create: true });
 * await record.addCollectionLink(collection.id);
 * assert.strictEqual((await record.getCollectionLinks()).items[0]?.id, collection.id);
 * ```
 *
 * @example Export
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const stream = await record.exportStream("json"); // or export(path, "json")
 * assert.strictEqual((await new Response(stream).json()).identifier, "sample-1");
 * ```
 */
export class RepoRecord extends TaggedResource<RecordJson> {
  /** Resource type of the class. */
  static override readonly type = "record";

  /**
   * Changes fields of the record with one PATCH (`title`, `description`, `license`, `type`,
   * `visibility`, `tags`, `extras`; the last two replace the whole list), like
   * {@linkcode Resource.edit}, with `extras` validated first.
   *
   * @throws {InputError} When `extras` are invalid; nothing is sent.
   */
  override async edit(changes: ResourceChanges<RecordJson>): Promise<RecordJson> {
    const checked = changes.extras === undefined
      ? changes
      : { ...changes, extras: validateExtras(changes.extras) };
    return await this.patch(checked);
  }

  // Revisions

  /** Alias of {@linkcode Resource.getRevisions}. */
  getRecordRevisions(query: ListOptions = {}): Promise<PageJson<RevisionJson>> {
    return this.getRevisions(query);
  }

  /** Alias of {@linkcode Resource.getRevision}. */
  getRecordRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    return this.getRevision(revisionId, query);
  }

  // Record links

  /** Links this record to record `recordTo` ({@linkcode links.linkRecord}). */
  linkRecord(
    recordTo: number,
    name: string,
    options: { termIri?: string | null } = {},
  ): Promise<RecordLinkJson> {
    return links.linkRecord(this, { recordTo, name, termIri: options.termIri });
  }

  /** Changes a link from this record ({@linkcode links.updateRecordLink}). */
  updateRecordLink(linkId: number, changes: RecordLinkChanges): Promise<RecordLinkJson> {
    return links.updateRecordLink(this, linkId, changes);
  }

  /** Deletes a link from this record ({@linkcode links.deleteRecordLink}). */
  deleteRecordLink(linkId: number): Promise<void> {
    return links.deleteRecordLink(this, linkId);
  }

  /** One page of the links from or to this record ({@linkcode links.getRecordLinks}). */
  getRecordLinks(query: RecordLinksQuery = {}): Promise<PageJson<RecordLinkJson>> {
    return links.getRecordLinks(this, query);
  }

  /** Iterates over the links from or to this record ({@linkcode links.recordLinks}). */
  recordLinks(query: RecordLinksQuery = {}): AsyncGenerator<RecordLinkJson, void, undefined> {
    return links.recordLinks(this, query);
  }

  // Collection links

  /** Adds the record to a collection ({@linkcode addLink}). */
  addCollectionLink(collectionId: number): Promise<void> {
    return addLink(this, "recordCollections", collectionId);
  }

  /** Removes the record from a collection ({@linkcode removeLink}). */
  removeCollectionLink(collectionId: number): Promise<void> {
    return removeLink(this, "recordCollections", collectionId);
  }

  /** One page of the collections the record is in ({@linkcode getLinked}). */
  getCollectionLinks(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getLinked(this, "recordCollections", query);
  }

  // Metadata (extras)

  /** Adds one metadatum, kept or replaced by `force` ({@linkcode extras.addMetadatum}). */
  addMetadatum(metadatum: Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    return extras.addMetadatum(this, metadatum, options);
  }

  /** Adds several metadata with one PATCH ({@linkcode extras.addMetadata}). */
  addMetadata(metadata: Extra[] | Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    return extras.addMetadata(this, metadata, options);
  }

  /** A metadatum by key or nested path ({@linkcode extras.getMetadatum}). */
  getMetadatum(path: string | readonly string[]): Promise<Extra | undefined> {
    return extras.getMetadatum(this, path);
  }

  /** Whether a top-level metadatum with that key exists ({@linkcode extras.checkMetadatum}). */
  checkMetadatum(key: string): Promise<boolean> {
    return extras.checkMetadatum(this, key);
  }

  /** Removes the top-level metadatum with that key ({@linkcode extras.removeMetadatum}). */
  removeMetadatum(key: string): Promise<RecordJson> {
    return extras.removeMetadatum(this, key);
  }

  /** Removes all metadata ({@linkcode extras.removeAllMetadata}). */
  removeAllMetadata(): Promise<RecordJson> {
    return extras.removeAllMetadata(this);
  }

  /** The metadata flattened to one level ({@linkcode extras.flattenMetadata}; `.` by default). */
  flattenExtras(options: { separator?: string } = {}): Promise<Extra[]> {
    return extras.flattenMetadata(this, options.separator ?? ".");
  }

  // Files

  /** One page of the record's files ({@linkcode files.getFiles}). */
  getFiles(query: ListOptions = {}): Promise<PageJson<FileJson>> {
    return files.getFiles(this, query);
  }

  /** Iterates over all files of the record ({@linkcode files.files}). */
  files(query: ListOptions = {}): AsyncGenerator<FileJson, void, undefined> {
    return files.files(this, query);
  }

  /** The number of files of the record ({@linkcode files.countFiles}). */
  getNumberFiles(): Promise<number> {
    return files.countFiles(this);
  }

  /** A file's information by id ({@linkcode files.getFileInfo}). */
  getFileInfo(fileId: string): Promise<FileJson> {
    return files.getFileInfo(this, fileId);
  }

  /** A file's information by exact name ({@linkcode files.getFileByName}). */
  getFileByName(name: string): Promise<FileJson> {
    return files.getFileByName(this, name);
  }

  /** The id of a file by name ({@linkcode files.getFileByName}). */
  async getFileId(name: string): Promise<string> {
    return (await files.getFileByName(this, name)).id;
  }

  /** The name of a file by id ({@linkcode files.getFileInfo}). */
  async getFileName(fileId: string): Promise<string> {
    return (await files.getFileInfo(this, fileId)).name;
  }

  /** Whether the record has a file of that name ({@linkcode files.findFileByName}). */
  async hasFile(name: string): Promise<boolean> {
    return (await files.findFileByName(this, name)) !== undefined;
  }

  /** Changes a file's name, description or MIME type ({@linkcode files.editFile}). */
  editFile(fileId: string, changes: FileChanges): Promise<FileJson> {
    return files.editFile(this, fileId, changes);
  }

  /** Deletes a file ({@linkcode files.deleteFile}). */
  deleteFile(fileId: string): Promise<void> {
    return files.deleteFile(this, fileId);
  }

  /** Deletes every file of the record; returns how many ({@linkcode files.deleteAllFiles}). */
  deleteAllFiles(): Promise<number> {
    return files.deleteAllFiles(this);
  }

  /** One page of the revisions of the record's files ({@linkcode files.getFileRevisions}). */
  getFileRevisions(query: ListOptions = {}): Promise<PageJson<RevisionJson>> {
    return files.getFileRevisions(this, query);
  }

  /** One file revision ({@linkcode files.getFileRevision}). */
  getFileRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    return files.getFileRevision(this, revisionId, query);
  }

  // Transfers

  /** Uploads a file or a byte stream ({@linkcode uploadFile}); drops the cached metadata. */
  async uploadFile(
    source: string | ReadableStream<Uint8Array>,
    options: UploadFileOptions = {},
  ): Promise<FileJson> {
    const file = await uploadFile(this, source as UploadSource, options);
    this.invalidate();
    return file;
  }

  /** Uploads a folder's or a list's files ({@linkcode uploadFiles}); drops the cached metadata. */
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

  /** Uploads a string (UTF-8) as the file `fileName` ({@linkcode uploadFile}). */
  async uploadString(
    text: string,
    fileName: string,
    options: UploadStringOptions = {},
  ): Promise<FileJson> {
    const file = await uploadFile(this, new TextEncoder().encode(text), { ...options, fileName });
    this.invalidate();
    return file;
  }

  /** Downloads a file to `path` and returns the path written ({@linkcode downloadFile}). */
  downloadFile(
    fileId: string,
    path: string,
    options?: Omit<DownloadFileOptions, "path">,
  ): Promise<string>;
  /** Without `path`: the file's content as a stream ({@linkcode downloadFileStream}). */
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

  /** Downloads the files matching `pattern` into `dir` ({@linkcode downloadFiles}). */
  async downloadFiles(dir: string, options: DownloadFilesOptions = {}): Promise<string[]> {
    return await downloadFiles(this, dir, options);
  }

  /** Downloads all files as the server's ZIP archive ({@linkcode downloadAllFiles}). */
  async downloadAllFiles(path: string, options: DownloadAllFilesOptions = {}): Promise<string> {
    return await downloadAllFiles(this, path, options);
  }

  /** Writes the extra metadata as JSON to `path` ({@linkcode exportMetadata}). */
  async exportMetadata(path: string, options: ExportMetadataOptions = {}): Promise<string> {
    return await exportMetadata(this, path, options);
  }

  /** The extra metadata as a JSON byte stream ({@linkcode exportMetadataStream}). */
  async exportMetadataStream(
    options: Omit<ExportMetadataOptions, "useFolder" | "force" | "name"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return await exportMetadataStream(this, options);
  }

  // Exports

  /** Exports the record to `path` as `exportType` ({@linkcode exportResource}). */
  export(
    path: string,
    exportType: RecordExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /** The record exported as a byte stream ({@linkcode exportStream}). */
  exportStream(
    exportType: RecordExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
