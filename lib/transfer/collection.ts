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

import type {
  CollectionJson,
  GroupRoleJson,
  PageJson,
  RecordJson,
  UserRoleJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { addLink, getLinked, linked, removeLink } from "../resources/capabilities/links.ts";
import * as roles from "../resources/capabilities/roles.ts";
import * as tags from "../resources/capabilities/tags.ts";
import { lookup, Resource, type ResourceSelector } from "../resources/resource.ts";
import {
  exportResource,
  exportStream,
  type ExportStreamOptions,
  type ResourceExportOptions,
} from "./export.ts";

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
 * ```ts ignore
 * const collection = await RepoCollection.load(transport, { id: 1 });
 * await collection.addRecordLink(5);
 * for await (const record of collection.records({ children: true })) console.log(record.id);
 * ```
 */
export class RepoCollection extends Resource<CollectionJson> {
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
   * ```ts ignore
   * const collection = await RepoCollection.load(transport, { identifier: "c", create: true });
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
   */
  async info(): Promise<CollectionInfo> {
    const collection = await this.refresh();
    const records = await this.getRecords({ per_page: 1 });
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
   */
  addRecordLink(recordId: number): Promise<void> {
    return addLink(this, "collectionRecords", recordId);
  }

  /**
   * Removes a record from the collection.
   *
   * @param recordId Id of the record.
   */
  removeRecordLink(recordId: number): Promise<void> {
    return removeLink(this, "collectionRecords", recordId);
  }

  /**
   * One page of the collection's records.
   *
   * @param query `filter`, `sort`, `children` (include records of descendants), `page`, `per_page`.
   * @returns The page.
   */
  getRecords(query: QueryParams = {}): Promise<PageJson<RecordJson>> {
    return getLinked(this, "collectionRecords", query);
  }

  /**
   * Every record of the collection.
   *
   * @param query `filter`, `sort`, `children`.
   * @returns An async iterator over the records.
   */
  records(query: QueryParams = {}): AsyncGenerator<RecordJson, void, undefined> {
    return linked(this, "collectionRecords", query);
  }

  // Child collections

  /**
   * Makes another collection a child of this one.
   *
   * @param childId Id of the child collection.
   */
  addCollectionLink(childId: number): Promise<void> {
    return addLink(this, "childCollections", childId);
  }

  /**
   * Detaches a child collection.
   *
   * @param childId Id of the child collection.
   */
  removeCollectionLink(childId: number): Promise<void> {
    return removeLink(this, "childCollections", childId);
  }

  /**
   * One page of the child collections.
   *
   * @param query `filter`, `sort`, `page`, `per_page`.
   * @returns The page.
   */
  getCollections(query: QueryParams = {}): Promise<PageJson<CollectionJson>> {
    return getLinked(this, "childCollections", query);
  }

  /**
   * Every child collection.
   *
   * @param query `filter`, `sort`.
   * @returns An async iterator over the children.
   */
  collections(query: QueryParams = {}): AsyncGenerator<CollectionJson, void, undefined> {
    return linked(this, "childCollections", query);
  }

  // Tags

  /**
   * The collection's tags.
   *
   * @returns The tags, sorted.
   */
  getTags(): Promise<string[]> {
    return tags.getTags(this);
  }

  /**
   * Whether the collection has a tag.
   *
   * @param tag The tag.
   * @returns True when present.
   */
  checkTag(tag: string): Promise<boolean> {
    return tags.checkTag(this, tag);
  }

  /**
   * Adds a tag (lower-cased).
   *
   * @param tag The tag.
   * @returns The updated collection.
   */
  addTag(tag: string): Promise<CollectionJson> {
    return tags.addTag(this, tag);
  }

  /**
   * Removes a tag.
   *
   * @param tag The tag.
   * @returns The updated collection.
   */
  removeTag(tag: string): Promise<CollectionJson> {
    return tags.removeTag(this, tag);
  }

  // Roles

  /**
   * Gives a user a role (`member`, `collaborator`, `editor`, `admin`).
   *
   * @param userId Id of the user.
   * @param roleName The role.
   */
  addUser(userId: number, roleName: string): Promise<void> {
    return roles.addRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Changes the role of a user.
   *
   * @param userId Id of the user.
   * @param roleName The new role.
   */
  changeUserRole(userId: number, roleName: string): Promise<void> {
    return roles.changeRole(this, "users", { subjectId: userId, role: roleName });
  }

  /**
   * Removes the role of a user.
   *
   * @param userId Id of the user.
   */
  removeUser(userId: number): Promise<void> {
    return roles.removeRole(this, "users", userId);
  }

  /**
   * Gives a group a role.
   *
   * @param groupId Id of the group.
   * @param roleName The role.
   */
  addGroupRole(groupId: number, roleName: string): Promise<void> {
    return roles.addRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Changes the role of a group.
   *
   * @param groupId Id of the group.
   * @param roleName The new role.
   */
  changeGroupRole(groupId: number, roleName: string): Promise<void> {
    return roles.changeRole(this, "groups", { subjectId: groupId, role: roleName });
  }

  /**
   * Removes the role of a group.
   *
   * @param groupId Id of the group.
   */
  removeGroupRole(groupId: number): Promise<void> {
    return roles.removeRole(this, "groups", groupId);
  }

  /**
   * One page of the users with a role in the collection.
   *
   * @param query `page`, `per_page`, `filter`, `exclude`.
   * @returns The page.
   */
  getUsers(query: QueryParams = {}): Promise<PageJson<UserRoleJson>> {
    return roles.getUserRoles(this, query);
  }

  /**
   * One page of the groups with a role in the collection.
   *
   * @param query `page`, `per_page`, `filter`.
   * @returns The page.
   */
  getGroups(query: QueryParams = {}): Promise<PageJson<GroupRoleJson>> {
    return roles.getGroupRoles(this, query);
  }

  // Exports

  /**
   * Exports the collection to disk (a directory gets `<identifier>.<ext>`; `useFolder` writes
   * into `<path>/<identifier>/`).
   *
   * @param path Target file or directory.
   * @param exportType `json`, `rdf`, `qr` or `ro-crate`.
   * @param options Filter, folder, force, progress, signal.
   * @returns The path written.
   */
  export(
    path: string,
    exportType: CollectionExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /**
   * Exports the collection as a byte stream.
   *
   * @param exportType `json`, `rdf`, `qr` or `ro-crate`.
   * @param options Filter, progress, signal.
   * @returns The exported data.
   */
  exportStream(
    exportType: CollectionExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
