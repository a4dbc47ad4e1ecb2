/**
 * Records: metadata, tags, links, roles, revisions and file information. File transfers
 * (upload, download, export) are added on top by `lib/transfer` in `RepoRecord`.
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

import { InputError } from "../http/errors.ts";
import { paginateItems } from "../http/paginate.ts";
import type {
  Extra,
  PageJson,
  RecordJson,
  RecordLinkJson,
  ResourceJson,
  RevisionJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { requireId, requireText } from "./_checks.ts";
import { RecordFileResource } from "./_record_files.ts";
import { flattenExtras, getExtra, mergeExtras, validateExtras } from "./metadata.ts";
import { lookup, type ResourceSelector } from "./resource.ts";

/** Query of {@linkcode RecordResource.getRecordLinks}. */
export interface RecordLinksQuery {
  /** `out`: links from this record (default); `in`: links to it. */
  direction?: "out" | "in";
  /** Filters by link name, record title or identifier. */
  filter?: string;
  /** Sort order, e.g. `-last_modified`, `name`. */
  sort?: string;
  /** Page number, from 1. */
  page?: number;
  /** Items per page (at most 100). */
  per_page?: number;
}

/** Changes {@linkcode RecordResource.updateRecordLink} can make. */
export interface RecordLinkChanges {
  /** New link name. */
  name?: string;
  /** New term IRI, or `null` to remove it. */
  termIri?: string | null;
  /** Id of the new target record. */
  recordTo?: number;
}

/** Whether new metadata replace entries with the same key. */
export interface MetadataOptions {
  /** Replace existing entries (see {@linkcode mergeExtras} for `addMetadata`). @default {false} */
  force?: boolean;
}

/**
 * A record on the server, without file transfers.
 *
 * @example Usage
 * ```ts ignore
 * const record = await RecordResource.load(transport, { id: 1 });
 * await record.linkRecord(2, "derived from", { termIri: "https://example.org/derivedFrom" });
 * console.log(await record.getMetadatum(["settings", "steps", "1"]));
 * ```
 */
export class RecordResource extends RecordFileResource {
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
   * ```ts ignore
   * const record = await RecordResource.load(transport, { identifier: "x", create: true });
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
   */
  override async edit(
    changes: Partial<Omit<RecordJson, "id" | "_links" | "_actions">>,
  ): Promise<RecordJson> {
    const checked = changes.extras === undefined
      ? changes
      : { ...changes, extras: validateExtras(changes.extras) };
    return await super.edit(checked);
  }

  // Tags

  /**
   * The record's tags (from the cached metadata).
   *
   * @returns The tags, sorted.
   */
  async getTags(): Promise<string[]> {
    return [...((await this.meta()).tags ?? [])];
  }

  /**
   * Whether the record has a tag (compared in lower case).
   *
   * @param tag The tag.
   * @returns True when present.
   */
  async checkTag(tag: string): Promise<boolean> {
    return (await this.getTags()).includes(normalizeTag(tag));
  }

  /**
   * Adds a tag (lower-cased); the full tag list is sent, even when the tag is already present.
   *
   * @param tag The tag.
   * @returns The updated record.
   */
  async addTag(tag: string): Promise<RecordJson> {
    const added = normalizeTag(tag);
    return await this.edit({ tags: [...((await this.refresh()).tags ?? []), added] });
  }

  /**
   * Removes a tag.
   *
   * @param tag The tag.
   * @returns The updated record.
   */
  async removeTag(tag: string): Promise<RecordJson> {
    const removed = normalizeTag(tag);
    return await this.edit({
      tags: ((await this.refresh()).tags ?? []).filter((t) => t !== removed),
    });
  }

  // Revisions

  /**
   * One page of the record's revisions, newest first.
   *
   * @param query `page`, `per_page`.
   * @returns The page.
   */
  async getRecordRevisions(query: QueryParams = {}): Promise<PageJson<RevisionJson>> {
    return await this.transport.json("GET", `${this.endpoint}/revisions`, { query });
  }

  /**
   * One revision of the record.
   *
   * @param revisionId Id of the revision.
   * @param query `revision`: compare against this revision instead of the parent.
   * @returns The revision.
   */
  async getRecordRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    const id = requireId(revisionId, "revision id");
    return await this.transport.json("GET", `${this.endpoint}/revisions/${id}`, { query });
  }

  // Record links

  /**
   * Links this record to another one.
   *
   * @param recordTo Id of the target record.
   * @param name Name of the link.
   * @param options `termIri`: IRI of a term describing the link.
   * @returns The new link.
   */
  async linkRecord(
    recordTo: number,
    name: string,
    options: { termIri?: string | null } = {},
  ): Promise<RecordLinkJson> {
    const json = {
      record_to: { id: requireId(recordTo, "record id") },
      name: requireText(name, "link name"),
      term: options.termIri ?? null,
    };
    const endpoint = (await this.meta())._actions.link_record ?? `${this.endpoint}/records`;
    return await this.transport.json("POST", endpoint, { json });
  }

  /**
   * Changes a link from this record.
   *
   * @param linkId Id of the link.
   * @param changes `name`, `termIri`, `recordTo`.
   * @returns The updated link.
   * @throws {InputError} When nothing is to change.
   */
  async updateRecordLink(linkId: number, changes: RecordLinkChanges): Promise<RecordLinkJson> {
    const json: { name?: string; term?: string | null; record_to?: { id: number } } = {};
    if (changes.name !== undefined) json.name = requireText(changes.name, "link name");
    if (changes.termIri !== undefined) json.term = changes.termIri;
    if (changes.recordTo !== undefined) {
      json.record_to = { id: requireId(changes.recordTo, "record id") };
    }
    if (Object.keys(json).length === 0) {
      throw new InputError("Nothing to change: give a name, termIri or recordTo");
    }
    return await this.transport.json("PATCH", this.#linkEndpoint(linkId), { json });
  }

  /**
   * Deletes a link from this record.
   *
   * @param linkId Id of the link.
   */
  async deleteRecordLink(linkId: number): Promise<void> {
    await (await this.transport.request("DELETE", this.#linkEndpoint(linkId))).body?.cancel();
  }

  /**
   * One page of the links from (`direction: "out"`) or to (`"in"`) this record.
   *
   * @param query Direction, filter, sort, page, per_page.
   * @returns The page.
   */
  async getRecordLinks(query: RecordLinksQuery = {}): Promise<PageJson<RecordLinkJson>> {
    return await this.transport.json("GET", `${this.endpoint}/records`, {
      query: linkQuery(query),
    });
  }

  /**
   * Iterates over all links from or to this record.
   *
   * @param query Direction, filter, sort.
   * @returns An async iterator over the links.
   */
  recordLinks(query: RecordLinksQuery = {}): AsyncGenerator<RecordLinkJson, void, undefined> {
    const params = { per_page: 100, ...linkQuery(query) };
    return paginateItems<RecordLinkJson>(this.transport, `${this.endpoint}/records`, params);
  }

  // Collection links

  /**
   * Adds the record to a collection.
   *
   * @param collectionId Id of the collection.
   */
  async addCollectionLink(collectionId: number): Promise<void> {
    const json = { id: requireId(collectionId, "collection id") };
    await (await this.transport.request("POST", `${this.endpoint}/collections`, { json })).body
      ?.cancel();
  }

  /**
   * Removes the record from a collection.
   *
   * @param collectionId Id of the collection.
   */
  async removeCollectionLink(collectionId: number): Promise<void> {
    const endpoint = `${this.endpoint}/collections/${requireId(collectionId, "collection id")}`;
    await (await this.transport.request("DELETE", endpoint)).body?.cancel();
  }

  /**
   * One page of the collections the record is in.
   *
   * @param query `page`, `per_page`, `filter`, `sort`.
   * @returns The page.
   */
  async getCollectionLinks(query: QueryParams = {}): Promise<PageJson<ResourceJson>> {
    return await this.transport.json("GET", `${this.endpoint}/collections`, { query });
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
   */
  async addMetadatum(metadatum: Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    const [added] = validateExtras([metadatum]) as [Extra];
    const meta = await this.refresh();
    const extras = meta.extras ?? [];
    if (!options.force && extras.some((extra) => extra.key === added.key)) return meta;
    return await super.edit({ extras: [...extras.filter((e) => e.key !== added.key), added] });
  }

  /**
   * Adds several metadata with one PATCH, by the rules of {@linkcode mergeExtras}.
   *
   * @param metadata The entries, or one entry.
   * @param options `force`.
   * @returns The record afterwards.
   * @throws {InputError} When an entry is invalid; nothing is sent.
   */
  async addMetadata(metadata: Extra[] | Extra, options: MetadataOptions = {}): Promise<RecordJson> {
    const added = validateExtras(Array.isArray(metadata) ? metadata : [metadata]);
    const meta = await this.refresh();
    const old = meta.extras ?? [];
    const merged = mergeExtras(old, added, options);
    if (JSON.stringify(merged) === JSON.stringify(old)) return meta;
    return await super.edit({ extras: merged });
  }

  /**
   * A metadatum by key or nested path (see {@linkcode getExtra}); inside lists, path parts are
   * 1-based indices.
   *
   * @param path A key, a `.`-separated path, or the path's parts.
   * @returns The entry, or `undefined` when absent.
   */
  async getMetadatum(path: string | readonly string[]): Promise<Extra | undefined> {
    return getExtra((await this.meta()).extras ?? [], path);
  }

  /**
   * Whether a top-level metadatum with that key exists.
   *
   * @param key The key.
   * @returns True when present.
   */
  async checkMetadatum(key: string): Promise<boolean> {
    return ((await this.meta()).extras ?? []).some((extra) => extra.key === key);
  }

  /**
   * Removes the top-level metadatum with that key; nothing is sent when there is none.
   *
   * @param key The key.
   * @returns The record afterwards.
   */
  async removeMetadatum(key: string): Promise<RecordJson> {
    const meta = await this.refresh();
    const extras = meta.extras ?? [];
    const kept = extras.filter((extra) => extra.key !== key);
    return kept.length === extras.length ? meta : await super.edit({ extras: kept });
  }

  /**
   * Removes all metadata.
   *
   * @returns The record afterwards.
   */
  async removeAllMetadata(): Promise<RecordJson> {
    return await super.edit({ extras: [] });
  }

  /**
   * The record's metadata flattened to one level (see {@linkcode flattenExtras}).
   *
   * @param options `separator` joining nested keys. @default {"."}
   * @returns The flat entries.
   */
  async flattenExtras(options: { separator?: string } = {}): Promise<Extra[]> {
    return flattenExtras((await this.meta()).extras ?? [], options.separator ?? ".");
  }

  #linkEndpoint(linkId: number): string {
    return `${this.endpoint}/records/${requireId(linkId, "link id")}`;
  }
}

function normalizeTag(tag: string): string {
  const normalized = requireText(tag, "tag").trim().replace(/\s+/g, " ").toLowerCase();
  return normalized;
}

function linkQuery(query: RecordLinksQuery): QueryParams {
  const { direction = "out", ...rest } = query;
  if (direction !== "out" && direction !== "in") {
    throw new InputError(`Invalid link direction '${String(direction)}': use 'out' or 'in'`);
  }
  return { ...rest, direction };
}
