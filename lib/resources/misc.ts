/**
 * {@linkcode RepoMisc}: what belongs to no single resource — the trash (list, restore, purge),
 * licenses, roles, tags and the server information (`manager.misc`).
 *
 * @example Usage
 * ```ts
 * import { RepoMisc } from "./misc.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const misc = new RepoMisc(transport);
 * console.log((await misc.getDeletedResources()).items.length); // 0
 * ```
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
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.delete();
 * await manager.misc.restore("record", record.id);
 * const licenses = await manager.misc.getLicenses({ filter: "CC" });
 * assert.ok(licenses.items.every((license) => /CC/i.test(`${license.name} ${license.title}`)));
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
   * One page of your deleted resources, newest deletion first (`GET /trash`).
   *
   * @param params `filter` (identifier), `page`, `perPage`.
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
   * await record.delete();
   * const page = await manager.misc.getDeletedResources({ filter: "sample" });
   * assert.deepStrictEqual(page.items.map((item) => item.id), [record.id]);
   * ```
   */
  getDeletedResources(params: FilterParams = {}): Promise<PageJson<TrashItemJson>> {
    return trash.getDeletedResources(this.transport, searchQuery(params));
  }

  /**
   * Every deleted resource of yours.
   *
   * @param params `filter` (identifier).
   * @returns An async iterator over the trash items.
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
   * await record.delete();
   * const items = await Array.fromAsync(manager.misc.deletedResources());
   * assert.strictEqual(items.length, 1);
   * ```
   */
  deletedResources(params: FilterParams = {}): AsyncGenerator<TrashItemJson, void, undefined> {
    return trash.deletedResources(this.transport, searchQuery(params));
  }

  /**
   * Restores a deleted resource.
   *
   * @param type `record`, `collection`, `template` or `group`.
   * @param id Id of the resource.
   * @returns The restored resource.
   * @throws {InputError} When the type has no trash.
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
   * await record.delete();
   * assert.strictEqual((await manager.misc.restore("record", record.id)).id, record.id);
   * ```
   */
  restore(type: string, id: number): Promise<ResourceJson> {
    return trash.restoreResource(this.transport, { type, id });
  }

  /**
   * Deletes a resource in the trash for good.
   *
   * @param type `record`, `collection`, `template` or `group`.
   * @param id Id of the resource.
   * @throws {InputError} When the type has no trash.
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
   * await record.delete();
   * await manager.misc.purge("record", record.id);
   * assert.strictEqual((await manager.misc.getDeletedResources()).items.length, 0);
   * ```
   */
  purge(type: string, id: number): Promise<void> {
    return trash.purgeResource(this.transport, { type, id });
  }

  /**
   * One page of licenses, by title (`GET /licenses`).
   *
   * @param params `filter` (name or title), `page`, `perPage`.
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
   * const page = await manager.misc.getLicenses({ perPage: 5 });
   * assert.ok(page.items.length > 0);
   * ```
   */
  getLicenses(params: FilterParams = {}): Promise<PageJson<LicenseJson>> {
    return getPage(this.transport, LICENSES_PATH, searchQuery(params));
  }

  /**
   * Every license, by title, page after page (up to four pages read ahead).
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const names = (await Array.fromAsync(manager.misc.licenses())).map((license) => license.name);
   * assert.ok(names.length > 0);
   * ```
   *
   * @param params `filter` (name or title); `perPage` sets the page size (default 100).
   * @returns An async iterator over the licenses.
   */
  licenses(params: FilterParams = {}): AsyncGenerator<LicenseJson, void, undefined> {
    return allItems(this.transport, LICENSES_PATH, searchQuery(params));
  }

  /**
   * The roles of each resource type and their permissions (`GET /roles`).
   *
   * @returns The roles, keyed by resource type.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const roles = await manager.misc.getRoles();
   * assert.ok(Object.keys(roles).includes("record"));
   * ```
   */
  getRoles(): Promise<RolesJson> {
    return this.transport.json("GET", ROLES_PATH);
  }

  /**
   * One page of the tags of the resources you can read, by name (`GET /tags`).
   *
   * @param params `filter`, `type` (`record` or `collection`), `page`, `perPage`.
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
   * await record.addTag("raw");
   * const page = await manager.misc.getTags({ type: "record" });
   * assert.deepStrictEqual(page.items.map((tag) => tag.name), ["raw"]);
   * ```
   */
  getTags(
    params: FilterParams & { type?: "record" | "collection" } = {},
  ): Promise<PageJson<TagJson>> {
    return getPage(this.transport, TAGS_PATH, searchQuery(params));
  }

  /**
   * Every tag of the resources you can read, by name, page after page (up to four pages read ahead).
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
   * await record.addTag("raw");
   * const names: string[] = [];
   * for await (const tag of manager.misc.tags({ type: "record" })) names.push(tag.name);
   * assert.deepStrictEqual(names, ["raw"]);
   * ```
   *
   * @param params `filter`, `type` (`record` or `collection`); `perPage` (default 100).
   * @returns An async iterator over the tags.
   */
  tags(
    params: FilterParams & { type?: "record" | "collection" } = {},
  ): AsyncGenerator<TagJson, void, undefined> {
    return allItems(this.transport, TAGS_PATH, searchQuery(params));
  }

  /**
   * Information about the repository instance (`GET /info`).
   *
   * @returns The server's answer, e.g. `{ version: "1.13.0" }`.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * assert.strictEqual((await manager.misc.getInfo()).version, "1.13.0");
   * ```
   */
  getInfo(): Promise<InfoJson> {
    return this.transport.json("GET", INFO_PATH);
  }
}
