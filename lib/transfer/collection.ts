/**
 * {@linkcode RepoCollection}: a collection — metadata, tags, user and group roles, its records
 * and child collections, revisions, trash state, and streamed exports.
 *
 * @example Usage
 * ```ts
 * import { RepoCollection } from "./collection.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const parent = await RepoCollection.load(transport, { identifier: "parent", create: true });
 * const child = await RepoCollection.load(transport, { identifier: "child", create: true });
 * await parent.addCollectionLink(child.id);
 * console.log((await parent.info()).childCount); // 1
 * ```
 *
 * @module
 */

import type { CollectionJson, PageJson, RecordJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { ListOptions } from "../http/list_options.ts";
import { addLink, getLinked, linked, removeLink } from "../resources/capabilities/links.ts";
import { ROLE_METHODS, type RoleMethods } from "../resources/capabilities/roles.ts";
import { TAG_METHODS, type TagMethods } from "../resources/capabilities/tags.ts";
import { lookup, Resource, type ResourceSelector } from "../resources/resource.ts";
import { EXPORT_METHODS } from "./_export_methods.ts";
import type { ExportMethods } from "./export.ts";

/** Collection export types. */
export type CollectionExportType = "json" | "rdf" | "qr" | "ro-crate";

/** What {@linkcode RepoCollection.info} gathers. */
export interface CollectionInfo {
  /** The collection. */
  collection: CollectionJson;
  /** How many records it holds (without those of child collections). */
  recordCount: number;
  /** How many child collections it has. */
  childCount: number;
  /** Its child collections (every page). */
  children: CollectionJson[];
}

/**
 * A collection on the server.
 *
 * @example Usage
 * ```ts
 * import { RepoCollection, RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const { transport } = manager;
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const collection = await RepoCollection.load(transport, { identifier: "batch-1", create: true });
 * await collection.addRecordLink(record.id);
 * const ids: number[] = [];
 * for await (const item of collection.records()) ids.push(item.id);
 * assert.deepStrictEqual(ids, [record.id]);
 * ```
 */
export class RepoCollection extends Resource<CollectionJson> {
  static {
    Object.assign(this.prototype, ROLE_METHODS, TAG_METHODS, EXPORT_METHODS);
  }

  /**
   * Wraps a collection whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Collection id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(
    transport: Transport,
    id: number,
    init: { meta?: CollectionJson; created?: boolean } = {},
  ) {
    super(transport, "collection", id, init);
  }

  /**
   * Looks a collection up by id or identifier, creating it when `create` is set.
   *
   * @example Usage
   * ```ts
   * import { RepoCollection, RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const { transport } = manager;
   * const collection = await RepoCollection.load(transport, { identifier: "c", create: true });
   * assert.strictEqual((await collection.meta()).identifier, "c");
   * ```
   *
   * @param transport The transport.
   * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
   * @returns The collection.
   */
  static async load(transport: Transport, selector: ResourceSelector): Promise<RepoCollection> {
    const { meta, created } = await lookup<CollectionJson>(transport, "collection", selector);
    return new RepoCollection(transport, meta.id, { meta, created });
  }

  /**
   * The collection, the number of its records and its child collections.
   *
   * @returns The information.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await collection.addRecordLink(record.id);
   * const info = await collection.info();
   * assert.deepStrictEqual([info.recordCount, info.childCount], [1, 0]);
   * ```
   */
  async info(): Promise<CollectionInfo> {
    const collection = await this.refresh();
    const records = await this.getRecords({ perPage: 1 });
    const children = await Array.fromAsync(this.collections());
    return {
      collection,
      recordCount: records._pagination.total_items,
      childCount: children.length,
      children,
    };
  }

  // Records

  /**
   * Adds a record to the collection.
   *
   * @param recordId Id of the record.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await collection.addRecordLink(record.id);
   * assert.strictEqual((await collection.getRecords()).items[0]?.id, record.id);
   * ```
   */
  addRecordLink(recordId: number): Promise<void> {
    return addLink(this, "collectionRecords", recordId);
  }

  /**
   * Removes a record from the collection.
   *
   * @param recordId Id of the record.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await collection.addRecordLink(record.id);
   * await collection.removeRecordLink(record.id);
   * assert.strictEqual((await collection.getRecords()).items.length, 0);
   * ```
   */
  removeRecordLink(recordId: number): Promise<void> {
    return removeLink(this, "collectionRecords", recordId);
  }

  /**
   * One page of the collection's records.
   *
   * @param query `filter`, `sort`, `children` (include records of descendants), `page`, `perPage`.
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await collection.addRecordLink(record.id);
   * const page = await collection.getRecords({ per_page: 10 });
   * assert.deepStrictEqual(page.items.map((item) => item.id), [record.id]);
   * ```
   */
  getRecords(query: ListOptions = {}): Promise<PageJson<RecordJson>> {
    return getLinked(this, "collectionRecords", query);
  }

  /**
   * Every record of the collection.
   *
   * @param query `filter`, `sort`, `children`.
   * @returns An async iterator over the records.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const record = await manager.record({ identifier: "sample-1", create: true });
   * await collection.addRecordLink(record.id);
   * const records = await Array.fromAsync(collection.records({ children: true }));
   * assert.deepStrictEqual(records.map((item) => item.id), [record.id]);
   * ```
   */
  records(query: ListOptions = {}): AsyncGenerator<RecordJson, void, undefined> {
    return linked(this, "collectionRecords", query);
  }

  // Child collections

  /**
   * Makes another collection a child of this one.
   *
   * @param childId Id of the child collection.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const child = await manager.collection({ identifier: "batch-1a", create: true });
   * await collection.addCollectionLink(child.id);
   * assert.strictEqual((await collection.info()).childCount, 1);
   * ```
   */
  addCollectionLink(childId: number): Promise<void> {
    return addLink(this, "childCollections", childId);
  }

  /**
   * Detaches a child collection.
   *
   * @param childId Id of the child collection.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const child = await manager.collection({ identifier: "batch-1a", create: true });
   * await collection.addCollectionLink(child.id);
   * await collection.removeCollectionLink(child.id);
   * assert.strictEqual((await collection.info()).childCount, 0);
   * ```
   */
  removeCollectionLink(childId: number): Promise<void> {
    return removeLink(this, "childCollections", childId);
  }

  /**
   * One page of the child collections.
   *
   * @param query `filter`, `sort`, `page`, `perPage`.
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const child = await manager.collection({ identifier: "batch-1a", create: true });
   * await collection.addCollectionLink(child.id);
   * const page = await collection.getCollections();
   * assert.deepStrictEqual(page.items.map((item) => item.id), [child.id]);
   * ```
   */
  getCollections(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getLinked(this, "childCollections", query);
  }

  /**
   * Every child collection.
   *
   * @param query `filter`, `sort`.
   * @returns An async iterator over the children.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const child = await manager.collection({ identifier: "batch-1a", create: true });
   * await collection.addCollectionLink(child.id);
   * const children = await Array.fromAsync(collection.collections());
   * assert.deepStrictEqual(children.map((item) => item.id), [child.id]);
   * ```
   */
  collections(query: ListOptions = {}): AsyncGenerator<CollectionJson, void, undefined> {
    return linked(this, "childCollections", query);
  }
}

/**
 * A collection's role methods ({@linkcode RoleMethods}), tag methods ({@linkcode TagMethods}) and
 * exports ({@linkcode ExportMethods}: `json`, `rdf`, `qr`, `ro-crate`).
 */
export interface RepoCollection
  extends RoleMethods, TagMethods<CollectionJson>, ExportMethods<CollectionExportType> {}
