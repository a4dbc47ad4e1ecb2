/**
 * {@linkcode RepoRecord}: the record class — metadata, tags, roles, links, revisions, file
 * information, and streamed uploads, downloads and exports, each method one line over its
 * capability module or transfer function.
 *
 * @example Usage
 * ```ts
 * import { RepoRecord } from "./record.ts";
 * import { openResource } from "../resources/resource.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await openResource(transport, RepoRecord, { identifier: "demo", create: true });
 * const file = await record.uploadString("hello", "hello.txt");
 * const stream = await record.downloadFile(file.id);
 * console.log(await new Response(stream).text()); // "hello"
 * ```
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
export class RepoRecord extends TaggedResource<RecordJson> {
  /** Resource type of the class. */
  static override readonly type = "record";

  /**
   * Changes fields of the record with one PATCH (`title`, `description`, `license`, `type`,
   * `visibility`, `tags`, `extras` — the last two replace the whole list).
   *
   * @param changes Fields to change; `extras` are validated first.
   * @returns The updated record.
   * @throws {InputError} When `extras` are invalid; nothing is sent.
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
   * const meta = await record.edit({ title: "Sample one", extras: [{ key: "n", type: "int", value: 3 }] });
   * assert.strictEqual(meta.title, "Sample one");
   * ```
   */
  override async edit(changes: ResourceChanges<RecordJson>): Promise<RecordJson> {
    const checked = changes.extras === undefined
      ? changes
      : { ...changes, extras: validateExtras(changes.extras) };
    return await this.patch(checked);
  }

  // Revisions

  /**
   * One page of the record's revisions, newest first.
   *
   * @param query `page`, `perPage`.
   * @returns The page.
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
   * await record.edit({ title: "Renamed" });
   * assert.ok((await record.getRecordRevisions({ per_page: 10 })).items.length >= 2);
   * ```
   */
  getRecordRevisions(query: ListOptions = {}): Promise<PageJson<RevisionJson>> {
    return this.getRevisions(query);
  }

  /**
   * One revision of the record.
   *
   * @param revisionId Id of the revision.
   * @param query `revision`: compare against this revision instead of the parent.
   * @returns The revision.
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
   * const [newest] = (await record.getRecordRevisions()).items;
   * assert.strictEqual((await record.getRecordRevision(newest!.id)).id, newest!.id);
   * ```
   */
  getRecordRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    return this.getRevision(revisionId, query);
  }

  // Record links

  /**
   * Links this record to another one.
   *
   * @param recordTo Id of the target record.
   * @param name Name of the link.
   * @param options `termIri`: IRI of a term describing the link.
   * @returns The new link.
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
   * const raw = await manager.record({ identifier: "raw-1", create: true });
   * const link = await record.linkRecord(raw.id, "derived from", {
   *   termIri: "https://example.org/derivedFrom",
   * });
   * assert.strictEqual(link.name, "derived from");
   * ```
   */
  linkRecord(
    recordTo: number,
    name: string,
    options: { termIri?: string | null } = {},
  ): Promise<RecordLinkJson> {
    return links.linkRecord(this, { recordTo, name, termIri: options.termIri });
  }

  /**
   * Changes a link from this record.
   *
   * @param linkId Id of the link.
   * @param changes `name`, `termIri`, `recordTo`.
   * @returns The updated link.
   * @throws {InputError} When nothing is to change.
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
   * const raw = await manager.record({ identifier: "raw-1", create: true });
   * const link = await record.linkRecord(raw.id, "derived from");
   * const updated = await record.updateRecordLink(link.id, { name: "computed from" });
   * assert.strictEqual(updated.name, "computed from");
   * ```
   */
  updateRecordLink(linkId: number, changes: RecordLinkChanges): Promise<RecordLinkJson> {
    return links.updateRecordLink(this, linkId, changes);
  }

  /**
   * Deletes a link from this record.
   *
   * @param linkId Id of the link.
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
   * const raw = await manager.record({ identifier: "raw-1", create: true });
   * const link = await record.linkRecord(raw.id, "derived from");
   * await record.deleteRecordLink(link.id);
   * assert.strictEqual((await record.getRecordLinks()).items.length, 0);
   * ```
   */
  deleteRecordLink(linkId: number): Promise<void> {
    return links.deleteRecordLink(this, linkId);
  }

  /**
   * One page of the links from (`direction: "out"`) or to (`"in"`) this record.
   *
   * @param query Direction, filter, sort, page, perPage.
   * @returns The page.
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
   * const raw = await manager.record({ identifier: "raw-1", create: true });
   * const link = await record.linkRecord(raw.id, "derived from");
   * const page = await record.getRecordLinks({ direction: "out", per_page: 10 });
   * assert.deepStrictEqual(page.items.map((item) => item.id), [link.id]);
   * ```
   */
  getRecordLinks(query: RecordLinksQuery = {}): Promise<PageJson<RecordLinkJson>> {
    return links.getRecordLinks(this, query);
  }

  /**
   * Iterates over all links from or to this record.
   *
   * @param query Direction, filter, sort.
   * @returns An async iterator over the links.
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
   * const raw = await manager.record({ identifier: "raw-1", create: true });
   * const link = await record.linkRecord(raw.id, "derived from");
   * const incoming = await Array.fromAsync(raw.recordLinks({ direction: "in" }));
   * assert.deepStrictEqual(incoming.map((item) => item.id), [link.id]);
   * ```
   */
  recordLinks(query: RecordLinksQuery = {}): AsyncGenerator<RecordLinkJson, void, undefined> {
    return links.recordLinks(this, query);
  }

  // Collection links

  /**
   * Adds the record to a collection.
   *
   * @param collectionId Id of the collection.
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * await record.addCollectionLink(collection.id);
   * assert.strictEqual((await record.getCollectionLinks()).items[0]?.id, collection.id);
   * ```
   */
  addCollectionLink(collectionId: number): Promise<void> {
    return addLink(this, "recordCollections", collectionId);
  }

  /**
   * Removes the record from a collection.
   *
   * @param collectionId Id of the collection.
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * await record.addCollectionLink(collection.id);
   * await record.removeCollectionLink(collection.id);
   * assert.strictEqual((await record.getCollectionLinks()).items.length, 0);
   * ```
   */
  removeCollectionLink(collectionId: number): Promise<void> {
    return removeLink(this, "recordCollections", collectionId);
  }

  /**
   * One page of the collections the record is in.
   *
   * @param query `page`, `perPage`, `filter`, `sort`.
   * @returns The page.
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * await collection.addRecordLink(record.id);
   * const page = await record.getCollectionLinks({ per_page: 10 });
   * assert.deepStrictEqual(page.items.map((item) => item.id), [collection.id]);
   * ```
   */
  getCollectionLinks(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getLinked(this, "recordCollections", query);
  }

  // Metadata (extras)

  /**
   * Adds one metadatum. Without `force` an existing top-level entry with that key is kept and
   * nothing is sent; with `force` it is replaced (the new one goes last).
   *
   * @param metadatum The entry, e.g. `{ key: "t", type: "float", value: 1.5, unit: "K" }`.
   * @param options `force`.
   * @returns The record afterwards.
   * @throws {InputError} When the entry is invalid; nothing is sent.
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
   * const meta = await record.addMetadatum({ key: "temperature", type: "float", value: 21.5, unit: "°C" });
   * assert.strictEqual(meta.extras?.[0]?.key, "temperature");
   * ```
   */
  addMetadatum(metadatum: Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    return extras.addMetadatum(this, metadatum, options);
  }

  /**
   * Adds several metadata with one PATCH, by the rules of `mergeExtras`.
   *
   * @param metadata The entries, or one entry.
   * @param options `force`.
   * @returns The record afterwards.
   * @throws {InputError} When an entry is invalid; nothing is sent.
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
   * const meta = await record.addMetadata([
   *   { key: "temperature", type: "float", value: 21.5 },
   *   { key: "operator", type: "str", value: "jdoe" },
   * ]);
   * assert.strictEqual(meta.extras?.length, 2);
   * ```
   */
  addMetadata(metadata: Extra[] | Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    return extras.addMetadata(this, metadata, options);
  }

  /**
   * A metadatum by key or nested path; inside lists, path parts are 1-based indices.
   *
   * @param path A key, a `.`-separated path, or the path's parts.
   * @returns The entry, or `undefined` when absent.
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
   * await record.addMetadatum({ key: "settings", type: "dict", value: [{ key: "steps", type: "int", value: 3 }] });
   * assert.strictEqual((await record.getMetadatum("settings.steps"))?.value, 3);
   * ```
   */
  getMetadatum(path: string | readonly string[]): Promise<Extra | undefined> {
    return extras.getMetadatum(this, path);
  }

  /**
   * Whether a top-level metadatum with that key exists.
   *
   * @param key The key.
   * @returns True when present.
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
   * assert.strictEqual(await record.checkMetadatum("temperature"), true);
   * assert.strictEqual(await record.checkMetadatum("pressure"), false);
   * ```
   */
  checkMetadatum(key: string): Promise<boolean> {
    return extras.checkMetadatum(this, key);
  }

  /**
   * Removes the top-level metadatum with that key; nothing is sent when there is none.
   *
   * @param key The key.
   * @returns The record afterwards.
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
   * const meta = await record.removeMetadatum("temperature");
   * assert.deepStrictEqual(meta.extras, []);
   * ```
   */
  removeMetadatum(key: string): Promise<RecordJson> {
    return extras.removeMetadatum(this, key);
  }

  /**
   * Removes all metadata.
   *
   * @returns The record afterwards.
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
   * assert.deepStrictEqual((await record.removeAllMetadata()).extras, []);
   * ```
   */
  removeAllMetadata(): Promise<RecordJson> {
    return extras.removeAllMetadata(this);
  }

  /**
   * The record's metadata flattened to one level (see `flattenExtras`).
   *
   * @param options `separator` joining nested keys. @default {"."}
   * @returns The flat entries.
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
   * await record.addMetadatum({ key: "settings", type: "dict", value: [{ key: "steps", type: "int", value: 3 }] });
   * const flat = await record.flattenExtras({ separator: "/" });
   * assert.deepStrictEqual(flat.map((extra) => extra.key), ["settings/steps"]);
   * ```
   */
  flattenExtras(options: { separator?: string } = {}): Promise<Extra[]> {
    return extras.flattenMetadata(this, options.separator ?? ".");
  }

  // Files

  /**
   * One page of the record's files.
   *
   * @param query `page`, `perPage`, `filter` (name), `sort`.
   * @returns The page.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * const page = await record.getFiles({ perPage: 10 });
   * assert.deepStrictEqual(page.items.map((item) => item.id), [file.id]);
   * ```
   */
  getFiles(query: ListOptions = {}): Promise<PageJson<FileJson>> {
    return files.getFiles(this, query);
  }

  /**
   * Iterates over all files of the record, fetching pages as needed.
   *
   * @param query `filter`, `sort`, `perPage`.
   * @returns An async iterator over the files.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * const names = (await Array.fromAsync(record.files())).map((item) => item.name);
   * assert.deepStrictEqual(names, ["hello.txt"]);
   * ```
   */
  files(query: ListOptions = {}): AsyncGenerator<FileJson, void, undefined> {
    return files.files(this, query);
  }

  /**
   * The number of files of the record.
   *
   * @returns The count.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual(await record.getNumberFiles(), 1);
   * ```
   */
  getNumberFiles(): Promise<number> {
    return files.countFiles(this);
  }

  /**
   * A file's information by id.
   *
   * @param fileId Id (UUID) of the file.
   * @returns The file.
   * @throws {InputError} When the record has no such file.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual((await record.getFileInfo(file.id)).name, "hello.txt");
   * ```
   */
  getFileInfo(fileId: string): Promise<FileJson> {
    return files.getFileInfo(this, fileId);
  }

  /**
   * A file's information by exact name (GET `files/name/<name>`; `/` in the name is kept).
   *
   * @param name Name of the file.
   * @returns The file.
   * @throws {InputError} When the record has no file of that name.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual((await record.getFileByName("hello.txt")).id, file.id);
   * ```
   */
  getFileByName(name: string): Promise<FileJson> {
    return files.getFileByName(this, name);
  }

  /**
   * The id of a file by name.
   *
   * @param name Name of the file.
   * @returns The file id.
   * @throws {InputError} When the record has no file of that name.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual(await record.getFileId("hello.txt"), file.id);
   * ```
   */
  async getFileId(name: string): Promise<string> {
    return (await files.getFileByName(this, name)).id;
  }

  /**
   * The name of a file by id.
   *
   * @param fileId Id of the file.
   * @returns The file name.
   * @throws {InputError} When the record has no such file.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual(await record.getFileName(file.id), "hello.txt");
   * ```
   */
  async getFileName(fileId: string): Promise<string> {
    return (await files.getFileInfo(this, fileId)).name;
  }

  /**
   * Whether the record has a file of that name.
   *
   * @param name Name of the file.
   * @returns True when present.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual(await record.hasFile("hello.txt"), true);
   * assert.strictEqual(await record.hasFile("other.txt"), false);
   * ```
   */
  async hasFile(name: string): Promise<boolean> {
    return (await files.findFileByName(this, name)) !== undefined;
  }

  /**
   * Changes a file's name, description or MIME type. A new name already used by another file of
   * the record is refused before the change is sent.
   *
   * @param fileId Id of the file.
   * @param changes `name`, `description`, `mimetype`.
   * @returns The updated file.
   * @throws {InputError} When nothing is to change or the name is taken.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * const renamed = await record.editFile(file.id, { name: "greeting.txt" });
   * assert.strictEqual(renamed.name, "greeting.txt");
   * ```
   */
  editFile(fileId: string, changes: FileChanges): Promise<FileJson> {
    return files.editFile(this, fileId, changes);
  }

  /**
   * Deletes a file.
   *
   * @param fileId Id of the file.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * await record.deleteFile(file.id);
   * assert.strictEqual(await record.hasFile("hello.txt"), false);
   * ```
   */
  deleteFile(fileId: string): Promise<void> {
    return files.deleteFile(this, fileId);
  }

  /**
   * Deletes every file of the record.
   *
   * @returns How many files were deleted.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * assert.strictEqual(await record.deleteAllFiles(), 1);
   * assert.strictEqual(await record.getNumberFiles(), 0);
   * ```
   */
  deleteAllFiles(): Promise<number> {
    return files.deleteAllFiles(this);
  }

  /**
   * One page of the revisions of the record's files.
   *
   * @param query `page`, `perPage`.
   * @returns The page.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * await record.editFile(file.id, { description: "greeting" });
   * assert.strictEqual((await record.getFileRevisions())._pagination.total_items, 2);
   * ```
   */
  getFileRevisions(query: ListOptions = {}): Promise<PageJson<RevisionJson>> {
    return files.getFileRevisions(this, query);
  }

  /**
   * One file revision.
   *
   * @param revisionId Id of the revision.
   * @param query `revision`: compare against this revision instead of the parent.
   * @returns The revision.
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
   * const file = await record.uploadString("hello", "hello.txt");
   * const [newest] = (await record.getFileRevisions()).items;
   * assert.strictEqual((await record.getFileRevision(newest!.id)).id, newest!.id);
   * ```
   */
  getFileRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    return files.getFileRevision(this, revisionId, query);
  }

  // Transfers

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
   * await Deno.remove(dir, { recursive: true });
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
   * await Deno.remove(dir, { recursive: true });
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
   * await Deno.remove(dir, { recursive: true });
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
   * await Deno.remove(dir, { recursive: true });
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
   * await Deno.remove(dir, { recursive: true });
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
   * await Deno.remove(dir, { recursive: true });
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

  // Exports

  /**
   * Exports the resource to disk: a directory gets `<identifier>.<ext>` (`useFolder` writes into
   * `<path>/<identifier>/`); streamed to a temporary file, renamed when complete.
   *
   * @param path Target file or directory.
   * @param exportType One of the type's export types (`json` by default).
   * @param options Filter, folder, force, progress, signal.
   * @returns The path written.
   * @throws {InputError} When the type cannot be exported as `exportType`.
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
   * try {
   *   const path = await record.export(`${dir}/`, "json");
   *   assert.strictEqual(path, `${dir}/sample-1.json`);
   * } finally {
   *   await Deno.remove(dir, { recursive: true });
   * }
   * ```
   */
  export(
    path: string,
    exportType: RecordExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /**
   * Exports the resource as a byte stream (for piping); read or cancel it.
   *
   * @param exportType One of the type's export types (`json` by default).
   * @param options Filter, progress, signal.
   * @returns The exported data.
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
   * const stream = await record.exportStream("json");
   * assert.strictEqual((await new Response(stream).json()).identifier, "sample-1");
   * ```
   */
  exportStream(
    exportType: RecordExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
