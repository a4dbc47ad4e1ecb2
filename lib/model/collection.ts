/**
 * {@linkcode RepoCollection}: a collection — metadata, tags, user and group roles, its records
 * and child collections, revisions, trash state, and streamed exports.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { RepoCollection } from "./collection.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const parent = await openResource(transport, RepoCollection, { identifier: "parent", create: true });
 * const child = await openResource(transport, RepoCollection, { identifier: "child", create: true });
 * await parent.addCollectionLink(child.id);
 * console.log((await parent.info()).childCount); // 1
 * ```
 *
 * @module
 */

import type { CollectionJson, PageJson, RecordJson } from "../http/protocol.ts";
import type { ListOptions } from "../http/list_options.ts";
import { addLink, getLinked, linked, removeLink } from "../resources/capabilities/links.ts";
import { TaggedResource } from "../resources/shared.ts";
import {
  exportResource,
  exportStream,
  type ExportStreamOptions,
  type ResourceExportOptions,
} from "../transfer/export.ts";

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
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const collection = await manager.collection({ identifier: "batch-1", create: true });
 * await collection.addRecordLink(record.id);
 * const ids: number[] = [];
 * for await (const item of collection.records()) ids.push(item.id);
 * assert.deepStrictEqual(ids, [record.id]);
 * ```
 */
export class RepoCollection extends TaggedResource<CollectionJson> {
  /** Resource type of the class. */
  static override readonly type = "collection";

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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const dir = await Deno.makeTempDir();
   * try {
   *   const path = await collection.export(`${dir}/`, "json");
   *   assert.strictEqual(path, `${dir}/batch-1.json`);
   * } finally {
   *   await Deno.remove(dir, { recursive: true });
   * }
   * ```
   */
  export(
    path: string,
    exportType: CollectionExportType = "json",
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
   * const collection = await manager.collection({ identifier: "batch-1", create: true });
   * const stream = await collection.exportStream("json");
   * assert.strictEqual((await new Response(stream).json()).identifier, "batch-1");
   * ```
   */
  exportStream(
    exportType: CollectionExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
