/**
 * {@linkcode RepoCollection}: a collection — metadata, tags, user and group roles, its records
 * and child collections, revisions, trash state, and streamed exports. Each method is one line
 * over its capability module or transfer function, whose docs carry parameters and errors.
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
 * @example Records and child collections
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const collection = await manager.collection({ identifier: "batch-1", create: true });
 * const child = await manager.collection({ identifier: "batch-1a", create: true });
 * await collection.addRecordLink(record.id);
 * await collection.addCollectionLink(child.id);
 * const records = await Array.fromAsync(collection.records());
 * assert.deepStrictEqual(records.map((item) => item.id), [record.id]);
 * assert.strictEqual((await collection.getCollections()).items[0]?.id, child.id);
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
 * const collection = await manager.collection({ identifier: "batch-1", create: true });
 * const stream = await collection.exportStream("json"); // or export(path, "json")
 * assert.strictEqual((await new Response(stream).json()).identifier, "batch-1");
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

  /** Adds a record to the collection ({@linkcode addLink}). */
  addRecordLink(recordId: number): Promise<void> {
    return addLink(this, "collectionRecords", recordId);
  }

  /** Removes a record from the collection ({@linkcode removeLink}). */
  removeRecordLink(recordId: number): Promise<void> {
    return removeLink(this, "collectionRecords", recordId);
  }

  /**
   * One page of the collection's records; `children: true` includes the descendants'
   * ({@linkcode getLinked}).
   */
  getRecords(query: ListOptions = {}): Promise<PageJson<RecordJson>> {
    return getLinked(this, "collectionRecords", query);
  }

  /** Iterates over the collection's records ({@linkcode linked}). */
  records(query: ListOptions = {}): AsyncGenerator<RecordJson, void, undefined> {
    return linked(this, "collectionRecords", query);
  }

  // Child collections

  /** Makes another collection a child of this one ({@linkcode addLink}). */
  addCollectionLink(childId: number): Promise<void> {
    return addLink(this, "childCollections", childId);
  }

  /** Detaches a child collection ({@linkcode removeLink}). */
  removeCollectionLink(childId: number): Promise<void> {
    return removeLink(this, "childCollections", childId);
  }

  /** One page of the child collections ({@linkcode getLinked}). */
  getCollections(query: ListOptions = {}): Promise<PageJson<CollectionJson>> {
    return getLinked(this, "childCollections", query);
  }

  /** Iterates over the child collections ({@linkcode linked}). */
  collections(query: ListOptions = {}): AsyncGenerator<CollectionJson, void, undefined> {
    return linked(this, "childCollections", query);
  }

  // Exports

  /** Exports the collection to `path` as `exportType` ({@linkcode exportResource}). */
  export(
    path: string,
    exportType: CollectionExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /** The collection exported as a byte stream ({@linkcode exportStream}). */
  exportStream(
    exportType: CollectionExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
