/**
 * The context every capability works on: a transport and the resource's type and id. Capabilities
 * (`roles.ts`, `tags.ts`, `revisions.ts`, ...) are plain functions over it, and the resource
 * classes are thin: each method delegates to the capability that implements it.
 *
 * @module
 */

import { paginateItems } from "../../http/paginate.ts";
import {
  MAX_PER_PAGE,
  type PageJson,
  type ResourceChanges,
  type ResourceJson,
  type ResourceType,
} from "../../http/protocol.ts";
import type { RequestOptions, Transport } from "../../http/transport.ts";
import { type ListOptions, wireQuery } from "../../http/list_options.ts";

/** What a capability needs of a resource. */
export interface ResourceContext {
  /** The transport requests go through. */
  readonly transport: Transport;
  /** Resource type. */
  readonly type: ResourceType;
  /** Resource id. */
  readonly id: number;
}

/** Fields a PATCH may change. */
export type Changes<J extends ResourceJson> = ResourceChanges<J>;

/** A context with the resource's cached metadata (for capabilities that read or edit it). */
export interface MetaContext<J extends ResourceJson = ResourceJson> extends ResourceContext {
  /** The cached metadata. */
  meta(): Promise<J>;
  /** The metadata fetched anew. */
  refresh(): Promise<J>;
  /** One PATCH of the resource (updates the cache). */
  patch(changes: Changes<J>): Promise<J>;
}

/**
 * Sends a request whose answer has no content of interest, and discards the body.
 *
 * @param transport The transport.
 * @param method HTTP method.
 * @param path The endpoint.
 * @param options `json` body, `query`.
 */
export async function send(
  transport: Transport,
  method: string,
  path: string,
  options: Pick<RequestOptions, "json" | "query"> = {},
): Promise<void> {
  await (await transport.request(method, path, options)).body?.cancel();
}

/**
 * One page of a paginated endpoint.
 *
 * @typeParam T Item type.
 * @param transport The transport.
 * @param path The endpoint.
 * @param options Filters, `page`, `perPage` (mapped to wire names here, for every list method).
 * @returns The page.
 */
export async function getPage<T>(
  transport: Transport,
  path: string,
  options: ListOptions = {},
): Promise<PageJson<T>> {
  return await transport.json<PageJson<T>>("GET", path, { query: wireQuery(options) });
}

/**
 * Pages every listing requests ahead of the one its caller reads (see `paginate`'s `ahead`): on a
 * link with a long round trip a listing then costs a few round trips instead of one per page, and
 * a caller that stops early leaves at most this many GETs unused.
 */
export const PAGES_AHEAD = 4;

/**
 * Every item of a paginated endpoint, fetched 100 per page, up to {@linkcode PAGES_AHEAD} pages
 * ahead of the item the iterator yields.
 *
 * @typeParam T Item type.
 * @param transport The transport.
 * @param path The endpoint.
 * @param options Filters (`page` and `perPage` of the first page), mapped to wire names here.
 * @returns An async iterator over the items.
 */
export function allItems<T>(
  transport: Transport,
  path: string,
  options: ListOptions = {},
): AsyncGenerator<T, void, undefined> {
  // Full pages unless the options size them (as `perPage` or the wire name).
  const query = { ...wireQuery({ perPage: MAX_PER_PAGE }), ...wireQuery(options) };
  return paginateItems<T>(transport, path, query, { ahead: PAGES_AHEAD });
}
