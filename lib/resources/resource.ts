/**
 * The base of every resource class (records, collections, templates, groups): its id, cached
 * metadata, edit and delete, and the get-or-create lookup by id or identifier.
 *
 * @example Usage
 * ```ts
 * import { Resource } from "./resource.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await Resource.open(transport, "record", { identifier: "demo", create: true });
 * console.log(record.created, (await record.meta()).identifier); // true "demo"
 * ```
 *
 * @module
 */

import { InputError, RequestError } from "../http/errors.ts";
import { RESOURCE_BASE, type ResourceJson, type ResourceType } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { generateIdentifier } from "../utils/identifier.ts";

/** Selects a resource by id, or by identifier with optional creation and creation metadata. */
export type ResourceSelector =
  | { id: number }
  | { identifier: string; create?: boolean; [field: string]: unknown };

const META_TTL_MS = 5 * 60 * 1000;
// Every resource answer must be an object with a numeric id: paths are built from it.
const HAS_ID = { shape: { id: "number" } } as const;

/** A resource on the server, with its metadata cached for five minutes. */
export class Resource<J extends ResourceJson = ResourceJson> {
  /** The transport the resource sends its requests with. */
  readonly transport: Transport;
  /** Resource type. */
  readonly type: ResourceType;
  /** Id of the resource. */
  readonly id: number;
  /** Whether the lookup created the resource. */
  readonly created: boolean;
  #meta: J | undefined;
  #fetchedAt = 0;

  /**
   * Wraps a resource whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param type Resource type.
   * @param id Resource id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(
    transport: Transport,
    type: ResourceType,
    id: number,
    init: { meta?: J; created?: boolean } = {},
  ) {
    this.transport = transport;
    this.type = type;
    this.id = id;
    this.created = init.created ?? false;
    if (init.meta) this.#cache(init.meta);
  }

  /**
   * Looks a resource up by id or identifier, creating it when asked to.
   *
   * @example Usage
   * ```ts ignore
   * const record = await Resource.open(transport, "record", { identifier: "x", create: true, title: "X" });
   * ```
   *
   * @param transport The transport.
   * @param type Resource type.
   * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
   * @returns The resource.
   */
  static async open<J extends ResourceJson>(
    transport: Transport,
    type: ResourceType,
    selector: ResourceSelector,
  ): Promise<Resource<J>> {
    const { meta, created } = await lookup<J>(transport, type, selector);
    return new Resource<J>(transport, type, meta.id, { meta, created });
  }

  /** Endpoint of the resource, relative to the API base (`/records/1`). */
  get endpoint(): string {
    return `/${RESOURCE_BASE[this.type]}/${this.id}`;
  }

  /**
   * The resource's metadata, fetched when not cached or older than five minutes.
   *
   * @returns The metadata.
   */
  async meta(): Promise<J> {
    if (this.#meta && Date.now() - this.#fetchedAt < META_TTL_MS) return this.#meta;
    return await this.refresh();
  }

  /**
   * Fetches the metadata anew.
   *
   * @returns The metadata.
   */
  async refresh(): Promise<J> {
    return this.#cache(await this.transport.jsonObject<J>("GET", this.endpoint, HAS_ID));
  }

  /**
   * Changes fields of the resource with one PATCH.
   *
   * @param changes Fields to change.
   * @returns The updated metadata.
   */
  async edit(changes: Partial<Omit<J, "id" | "_links" | "_actions">>): Promise<J> {
    return this.#cache(
      await this.transport.jsonObject<J>("PATCH", this.endpoint, { json: changes, ...HAS_ID }),
    );
  }

  /** Moves the resource to the trash. */
  async delete(): Promise<void> {
    await (await this.transport.request("DELETE", this.endpoint)).body?.cancel();
    this.#meta = undefined;
  }

  /** Drops the cached metadata so the next {@linkcode Resource.meta} fetches it. */
  invalidate(): void {
    this.#meta = undefined;
  }

  /**
   * Describes the resource like `record 'Title' (id: 1, identifier: 'x')`.
   *
   * @returns The description.
   */
  toString(): string {
    const meta = this.#meta;
    return meta
      ? `${this.type} '${meta.title}' (id: ${this.id}, identifier: '${meta.identifier}')`
      : `${this.type} (id: ${this.id})`;
  }

  #cache(meta: J): J {
    this.#meta = meta;
    this.#fetchedAt = Date.now();
    return meta;
  }
}

/**
 * Finds a resource by id or identifier, creating it when `create` is set (client-reference §2.3).
 *
 * @example Usage
 * ```ts ignore
 * const { meta, created } = await lookup(transport, "record", { identifier: "x", create: true });
 * ```
 *
 * @typeParam J Metadata type.
 * @param transport The transport.
 * @param type Resource type.
 * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
 * @returns The metadata and whether it was created.
 */
export async function lookup<J extends ResourceJson>(
  transport: Transport,
  type: ResourceType,
  selector: ResourceSelector,
): Promise<{ meta: J; created: boolean }> {
  const base = `/${RESOURCE_BASE[type]}`;
  if ("id" in selector && typeof selector.id === "number") {
    try {
      return {
        meta: await transport.jsonObject<J>("GET", `${base}/${selector.id}`, HAS_ID),
        created: false,
      };
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      throw new RequestError({
        status: error.status,
        method: error.method,
        url: error.url,
        body: error.body,
        headers: error.headers,
        message: `Could not access the ${type} with id ${selector.id}: ${error.message}`,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      });
    }
  }
  if (!("identifier" in selector) || typeof selector.identifier !== "string") {
    throw new InputError(`No id or identifier given: pass { id } or { identifier } of the ${type}`);
  }
  const { identifier: raw, create, ...metadata } = selector;
  const identifier = generateIdentifier(raw.trim());
  if (identifier === "") {
    throw new InputError(`The identifier '${raw}' has no valid characters (a-z, 0-9, - and _)`);
  }
  try {
    const meta = await transport.jsonObject<J>("GET", `${base}/identifier/${identifier}`, HAS_ID);
    return { meta, created: false };
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    if (error.status === 403) {
      throw new InputError(
        `The ${type} identifier '${identifier}' is already in use and you have no access to it: choose another identifier`,
      );
    }
    const insufficientScope = error.status === 401 &&
      error.description.includes("insufficient scope");
    if (error.status !== 404 && !insufficientScope) throw error;
  }
  if (!create) {
    throw new InputError(
      `The ${type} with identifier '${identifier}' is not present: create it first (create: true)`,
    );
  }
  const body = { title: identifier, ...metadata, identifier };
  const meta = await transport.jsonObject<J>("POST", base, { json: body, ...HAS_ID });
  return { meta, created: true };
}
