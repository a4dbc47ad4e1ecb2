/**
 * Records: metadata, tags, links, roles, revisions and file information, each delegated to its
 * capability module. File transfers (upload, download, export) are added on top by
 * `lib/transfer` in `RepoRecord`.
 *
 * @example Usage
 * ```ts
 * import { RecordResource } from "./record.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await RecordResource.load(transport, { identifier: "demo", create: true });
 * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5, unit: "°C" });
 * await record.addTag("Sample");
 * console.log((await record.getMetadatum("temperature"))?.value, await record.getTags()); // 21.5 ["sample"]
 * ```
 *
 * @module
 */

import type {
  CollectionJson,
  Extra,
  PageJson,
  RecordJson,
  RecordLinkJson,
  ResourceChanges,
  RevisionJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import type { ListOptions } from "../http/list_options.ts";
import * as extras from "./capabilities/extras.ts";
import type { MetadataOptions } from "./capabilities/extras.ts";
import { FILE_METHODS, type FileChanges, type FileMethods } from "./capabilities/files.ts";
import { addLink, getLinked, removeLink } from "./capabilities/links.ts";
import * as links from "./capabilities/record_links.ts";
import type { RecordLinkChanges, RecordLinksQuery } from "./capabilities/record_links.ts";
import { ROLE_METHODS, type RoleMethods } from "./capabilities/roles.ts";
import { TAG_METHODS, type TagMethods } from "./capabilities/tags.ts";
import { validateExtras } from "./metadata.ts";
import { lookup, Resource, type ResourceSelector } from "./resource.ts";

export type { FileChanges, MetadataOptions, RecordLinkChanges, RecordLinksQuery };

/**
 * A record on the server, without file transfers.
 *
 * @example Usage
 * ```ts
 * import { RecordResource, RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const { transport } = manager;
 * const other = await manager.record({ identifier: "raw-data", create: true });
 * const record = await RecordResource.load(transport, { identifier: "result", create: true });
 * await record.linkRecord(other.id, "derived from", { termIri: "https://example.org/derivedFrom" });
 * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5 });
 * assert.strictEqual((await record.getMetadatum(["temperature"]))?.value, 21.5);
 * ```
 */
export class RecordResource extends Resource<RecordJson> {
  static {
    Object.assign(this.prototype, ROLE_METHODS, TAG_METHODS, FILE_METHODS);
  }

  /**
   * Wraps a record whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Record id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(
    transport: Transport,
    id: number,
    init: { meta?: RecordJson; created?: boolean } = {},
  ) {
    super(transport, "record", id, init);
  }

  /**
   * Looks a record up by id or identifier, creating it when `create` is set.
   *
   * @example Usage
   * ```ts
   * import { RecordResource, RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const { transport } = manager;
   * const record = await RecordResource.load(transport, { identifier: "x", create: true });
   * assert.strictEqual((await record.meta()).identifier, "x");
   * ```
   *
   * @param transport The transport.
   * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
   * @returns The record, as an instance of the class it is called on.
   * @throws {InputError} When the identifier is taken by a record you cannot read, or absent
   * without `create`.
   */
  static async load<T extends RecordResource>(
    this: new (transport: Transport, id: number, init: { meta: RecordJson; created: boolean }) => T,
    transport: Transport,
    selector: ResourceSelector,
  ): Promise<T> {
    const checked = "extras" in selector && selector.extras !== undefined
      ? { ...selector, extras: validateExtras(selector.extras) }
      : selector;
    const { meta, created } = await lookup<RecordJson>(transport, "record", checked);
    return new this(transport, meta.id, { meta, created });
  }

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
}

/**
 * A record's role methods ({@linkcode RoleMethods}), tag methods ({@linkcode TagMethods}) and
 * file information ({@linkcode FileMethods}).
 */
export interface RecordResource extends RoleMethods, TagMethods<RecordJson>, FileMethods {}
