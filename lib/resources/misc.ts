/**
 * {@linkcode RepoMisc}: what belongs to no single resource — the trash (list, restore, purge),
 * licenses, roles, tags and the server information (`manager.misc`).
 *
 * @module
 */

import { INFO_PATH, LICENSES_PATH, ROLES_PATH, TAGS_PATH } from "../http/paths.ts";
import type {
  InfoJson,
  LicenseJson,
  PageJson,
  ResourceJson,
  RolesJson,
  TagJson,
  TrashItemJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { allItems, getPage } from "./capabilities/context.ts";
import * as trash from "./capabilities/trash.ts";
import { searchQuery } from "./search.ts";

/** Paging and a text filter. */
export interface FilterParams {
  /** Text filter (identifier for the trash; name or title for licenses and tags). */
  filter?: string;
  /** Page number, from 1. */
  page?: number;
  /** Items per page (at most 100). */
  perPage?: number;
}

/**
 * Trash, licenses, roles, tags and server information.
 *
 * @example Trash
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.delete();
 * const page = await manager.misc.getDeletedResources({ filter: "sample" });
 * assert.deepStrictEqual(page.items.map((item) => item.id), [record.id]);
 * assert.strictEqual((await manager.misc.restore("record", record.id)).id, record.id);
 * await record.delete();
 * await manager.misc.purge("record", record.id);
 * assert.strictEqual((await Array.fromAsync(manager.misc.deletedResources())).length, 0);
 * ```
 *
 * @example Licenses, roles, tags, server information
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const licenses = await manager.misc.getLicenses({ filter: "CC" });
 * assert.ok(licenses.items.every((license) => /CC/i.test(`${license.name} ${license.title}`)));
 * assert.ok((await Array.fromAsync(manager.misc.licenses())).length > 0);
 * assert.ok(Object.keys(await manager.misc.getRoles()).includes("record"));
 * await (await manager.record({ identifier: "sample-1", create: true })).addTag("raw");
 * const tags = await manager.misc.getTags({ type: "record" });
 * assert.deepStrictEqual(tags.items.map((tag) => tag.name), ["raw"]);
 * assert.strictEqual((await Array.fromAsync(manager.misc.tags())).length, 1);
 * assert.strictEqual((await manager.misc.getInfo()).version, "1.13.0");
 * ```
 */
export class RepoMisc {
  /** The transport requests go through. */
  readonly transport: Transport;

  /**
   * Creates the object; nothing is sent.
   *
   * @param transport The transport.
   */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /**
   * One page of your deleted resources, newest deletion first
   * ({@linkcode trash.getDeletedResources}).
   */
  getDeletedResources(params: FilterParams = {}): Promise<PageJson<TrashItemJson>> {
    return trash.getDeletedResources(this.transport, searchQuery(params));
  }

  /** Iterates over your deleted resources ({@linkcode trash.deletedResources}). */
  deletedResources(params: FilterParams = {}): AsyncGenerator<TrashItemJson, void, undefined> {
    return trash.deletedResources(this.transport, searchQuery(params));
  }

  /** Restores a deleted resource ({@linkcode trash.restoreResource}). */
  restore(type: string, id: number): Promise<ResourceJson> {
    return trash.restoreResource(this.transport, { type, id });
  }

  /** Deletes a resource in the trash for good ({@linkcode trash.purgeResource}). */
  purge(type: string, id: number): Promise<void> {
    return trash.purgeResource(this.transport, { type, id });
  }

  /** One page of licenses by title; `filter` matches name or title (`GET /licenses`). */
  getLicenses(params: FilterParams = {}): Promise<PageJson<LicenseJson>> {
    return getPage(this.transport, LICENSES_PATH, searchQuery(params));
  }

  /** Iterates over the licenses by title, up to four pages read ahead (100 per page by default). */
  licenses(params: FilterParams = {}): AsyncGenerator<LicenseJson, void, undefined> {
    return allItems(this.transport, LICENSES_PATH, searchQuery(params));
  }

  /** The roles of each resource type and their permissions (`GET /roles`). */
  getRoles(): Promise<RolesJson> {
    return this.transport.json("GET", ROLES_PATH);
  }

  /** One page of the tags of the resources you can read, by name (`GET /tags`). */
  getTags(
    params: FilterParams & { type?: "record" | "collection" } = {},
  ): Promise<PageJson<TagJson>> {
    return getPage(this.transport, TAGS_PATH, searchQuery(params));
  }

  /** Iterates over the tags of the resources you can read, by name, up to four pages read ahead. */
  tags(
    params: FilterParams & { type?: "record" | "collection" } = {},
  ): AsyncGenerator<TagJson, void, undefined> {
    return allItems(this.transport, TAGS_PATH, searchQuery(params));
  }

  /** Information about the repository instance, e.g. `{ version: "1.13.0" }` (`GET /info`). */
  getInfo(): Promise<InfoJson> {
    return this.transport.json("GET", INFO_PATH);
  }
}
