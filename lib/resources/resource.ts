/**
 * The core every resource class (records, collections, templates, groups) is built on: its id,
 * cached metadata, edit and delete, the trash state (restore, purge), revisions, and the
 * get-or-create lookup by id or identifier. Everything else a resource can do comes from the
 * capability modules in `./capabilities/`, which the typed classes delegate to.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import { TEMPLATE_TYPES } from "../http/protocol.ts";
import { identifierPath, listPath, resourcePath } from "../http/paths.ts";
import type {
  PageJson,
  ResourceChanges,
  ResourceJson,
  RevisionJson,
  TrashableType,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import type { ListOptions } from "../http/list_options.ts";
import { generateIdentifier } from "../utils/identifier.ts";
import { metaCache } from "./capabilities/cache.ts";
import { getRevision, getRevisions } from "./capabilities/revisions.ts";
import { purgeResource, restoreResource } from "./capabilities/trash.ts";
import { ResourceNotFoundError } from "./errors.ts";
import { validateExtras } from "./metadata.ts";

/** Selects a resource by id, or by identifier with optional creation and creation metadata. */
export type ResourceSelector =
  | { id: number }
  | { identifier: string; create?: boolean; [field: string]: unknown };

// Every resource answer must be an object with a numeric id: paths are built from it.
const HAS_ID = { shape: { id: "number" } } as const;

/**
 * A record, collection, template or group on the server, with its metadata cached for five
 * minutes: the core the typed classes ({@linkcode RepoGroup}, and the record, collection and
 * template classes) share. Get one from the manager: `manager.record()`, `manager.group()`, ...
 *
 * @example Metadata: cached, edited, fetched anew
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true, title: "Sample 1" });
 * assert.strictEqual((await record.meta()).title, "Sample 1");
 * assert.strictEqual((await record.edit({ title: "Renamed" })).title, "Renamed");
 * await record.patch({ description: "Measured twice" }); // as it is, without the type's checks
 * await manager.transport.request("PATCH", record.endpoint, { json: { title: "Changed" } });
 * record.invalidate(); // the cached metadata is stale; or call record.refresh()
 * assert.strictEqual((await record.meta()).title, "Changed");
 * assert.strictEqual(record.toString(), `record 'Changed' (id: ${record.id}, identifier: 'sample-1')`);
 * ```
 *
 * @example Trash and revisions
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.edit({ title: "Renamed" });
 * const [newest] = (await record.getRevisions({ perPage: 10 })).items;
 * assert.strictEqual((await record.getRevision(newest!.id)).id, newest!.id);
 * await record.delete();
 * assert.strictEqual((await record.restore()).id, record.id);
 * await record.delete();
 * await record.purge();
 * assert.strictEqual((await manager.misc.getDeletedResources()).items.length, 0);
 * ```
 */
export abstract class Resource<J extends ResourceJson = ResourceJson> {
  /** Resource type of the class; the loader looks resources of this type up. */
  static readonly type: TrashableType;
  /** The transport the resource sends its requests with. */
  readonly transport: Transport;
  /** Resource type. */
  readonly type: TrashableType;
  /** Id of the resource. */
  readonly id: number;
  /** Whether the lookup created the resource. */
  readonly created: boolean;
  #meta = metaCache<J>();

  /**
   * Wraps a resource whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Resource id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(transport: Transport, id: number, init: { meta?: J; created?: boolean } = {}) {
    this.transport = transport;
    this.type = new.target.type;
    this.id = id;
    this.created = init.created ?? false;
    if (init.meta) this.#meta.set(init.meta);
  }

  /** Endpoint of the resource, relative to the API base (`/records/1`). */
  get endpoint(): string {
    return resourcePath(this.type, this.id);
  }

  /** The resource's metadata, fetched when not cached or older than five minutes. */
  async meta(): Promise<J> {
    return this.#meta.fresh() ?? await this.refresh();
  }

  /** Fetches the metadata anew (and caches it). */
  async refresh(): Promise<J> {
    return this.#meta.set(await this.transport.jsonObject<J>("GET", this.endpoint, HAS_ID));
  }

  /** Changes fields of the resource with one PATCH; returns the updated metadata. */
  async edit(changes: ResourceChanges<J>): Promise<J> {
    return await this.patch(changes);
  }

  /**
   * Sends one PATCH as it is (no checks) and caches the answer; {@linkcode Resource.edit} checks
   * first where a type has rules.
   */
  async patch(changes: ResourceChanges<J>): Promise<J> {
    return this.#meta.set(
      await this.transport.jsonObject<J>("PATCH", this.endpoint, {
        json: changes,
        ...HAS_ID,
      }),
    );
  }

  /** Moves the resource to the trash. */
  async delete(): Promise<void> {
    await (await this.transport.request("DELETE", this.endpoint)).body?.cancel();
    this.#meta.clear();
  }

  /** Restores the resource from the trash (only its creator may); returns its metadata. */
  async restore(): Promise<J> {
    return this.#meta.set(await restoreResource(this.transport, this) as J);
  }

  /** Deletes the resource in the trash for good. */
  async purge(): Promise<void> {
    await purgeResource(this.transport, this);
    this.#meta.clear();
  }

  /** One page of the resource's revisions, newest first ({@linkcode getRevisions}). */
  async getRevisions(query: ListOptions = {}): Promise<PageJson<RevisionJson>> {
    return await getRevisions(this, query);
  }

  /**
   * One revision of the resource; `query.revision` compares against another ({@linkcode getRevision}).
   */
  async getRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    return await getRevision(this, revisionId, query);
  }

  /** Drops the cached metadata so the next {@linkcode Resource.meta} fetches it. */
  invalidate(): void {
    this.#meta.clear();
  }

  /** Describes the resource like `record 'Title' (id: 1, identifier: 'x')`. */
  toString(): string {
    const meta = this.#meta.peek();
    return meta
      ? `${this.type} '${meta.title}' (id: ${this.id}, identifier: '${meta.identifier}')`
      : `${this.type} (id: ${this.id})`;
  }
}

/** A concrete resource class: its type, and the constructor the loader calls. */
export interface ResourceClass<J extends ResourceJson, R extends Resource<J>> {
  /** Resource type. */
  readonly type: TrashableType;
  /** Wraps a resource whose id is known. */
  new (transport: Transport, id: number, init: { meta?: J; created?: boolean }): R;
}

/**
 * The one loader behind `manager.record()`, `manager.collection()`, `manager.template()` and
 * `manager.group()`: looks a resource up by id or identifier (creating it when `create` is set)
 * and wraps it in its class.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "./resource.ts";
 * import { RepoGroup } from "./group.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const group = await openResource(transport, RepoGroup, { identifier: "team", create: true });
 * assert.strictEqual(group.created, true);
 * ```
 *
 * @param transport The transport.
 * @param cls The resource class.
 * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
 * @returns The resource.
 * @throws {InputError} When the identifier is taken by a resource you cannot read, or the
 * creation metadata is invalid (a record's `extras`, a template's `type`).
 * @throws {ResourceNotFoundError} When the identifier is absent and `create` is not set.
 */
export async function openResource<J extends ResourceJson, R extends Resource<J>>(
  transport: Transport,
  cls: ResourceClass<J, R>,
  selector: ResourceSelector,
): Promise<R> {
  const { meta, created } = await lookup<J>(transport, cls.type, selector);
  return new cls(transport, meta.id, { meta, created });
}

/**
 * Finds a resource by id or identifier, creating it when `create` is set (client-reference §2.3);
 * {@linkcode openResource} wraps the answer in its class.
 *
 * @typeParam J Metadata type.
 * @param transport The transport.
 * @param type Resource type.
 * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
 * @returns The metadata and whether it was created.
 * @throws {ResourceNotFoundError} When the identifier is absent and `create` is not set.
 */
export async function lookup<J extends ResourceJson>(
  transport: Transport,
  type: TrashableType,
  selector: ResourceSelector,
): Promise<{ meta: J; created: boolean }> {
  if ("id" in selector && typeof selector.id === "number") {
    try {
      return {
        meta: await transport.jsonObject<J>("GET", resourcePath(type, selector.id), HAS_ID),
        created: false,
      };
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      if (error.status === 404) throw new ResourceNotFoundError(type, { id: selector.id }, error);
      throw new RequestError({
        status: error.status,
        method: error.method,
        url: error.url,
        body: error.body,
        headers: error.headers,
        message: `Could not access the ${type} with id ${selector.id}: ${error.message}`,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
        cause: error,
      });
    }
  }
  if (!("identifier" in selector) || typeof selector.identifier !== "string") {
    throw new InputError(`No id or identifier given: pass { id } or { identifier } of the ${type}`);
  }
  const { identifier: raw, create, ...given } = selector;
  const metadata = creationMetadata(type, given, create === true); // checked before anything is sent
  const identifier = generateIdentifier(raw.trim());
  if (identifier === "") {
    throw new InputError(`The identifier '${raw}' has no valid characters (a-z, 0-9, - and _)`);
  }
  try {
    const meta = await transport.jsonObject<J>("GET", identifierPath(type, identifier), HAS_ID);
    return { meta, created: false };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    if (error.status === 403) {
      // Creating: the identifier is taken. Reading: the resource is there, but not for this user.
      throw new InputError(
        create
          ? `The ${type} identifier '${identifier}' is already in use and you have no access to it: choose another identifier`
          : `The ${type} '${identifier}' exists, but your account has no access to it: ask its owner for a role in it (the role 'member' can read it)`,
        { cause: error },
      );
    }
    if (error.status !== 404 && !(error.status === 401 && hasScopes(error.body))) throw error;
    if (!create) throw new ResourceNotFoundError(type, identifier, error);
  }
  const body = { title: identifier, ...metadata, identifier };
  const meta = await transport.jsonObject<J>("POST", listPath(type), { json: body, ...HAS_ID });
  return { meta, created: true };
}

/** Whether an error body names the scopes the token lacks (the server's `scopes` key). */
function hasScopes(body: unknown): boolean {
  return typeof body === "object" && body !== null &&
    Array.isArray((body as { scopes?: unknown }).scopes);
}

/**
 * Checks and completes the metadata a resource would be created with: a record's `extras` are
 * validated; a template to create gets its `type` (`record` by default) and `data` (`{}` for
 * record templates, `[]` for extras).
 */
function creationMetadata(
  type: TrashableType,
  metadata: { [field: string]: unknown },
  create: boolean,
): { [field: string]: unknown } {
  if (type === "record" && metadata.extras !== undefined) {
    return { ...metadata, extras: validateExtras(metadata.extras) };
  }
  if (type !== "template" || !create) return metadata;
  const templateType = metadata.type ?? "record";
  if (!(TEMPLATE_TYPES as readonly unknown[]).includes(templateType)) {
    throw new InputError(
      `Invalid template type '${String(templateType)}': use one of ${TEMPLATE_TYPES.join(", ")}`,
    );
  }
  return {
    ...metadata,
    type: templateType,
    data: metadata.data ?? (templateType === "record" ? {} : []),
  };
}
