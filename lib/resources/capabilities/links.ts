/**
 * Capability: membership links — a record in collections, a collection's records, and a
 * collection's child collections. Each link is added with POST `{ id }`, removed with DELETE
 * `<path>/<id>`, and listed page by page; the kinds differ only in their path.
 *
 * @module
 */

import type { PageJson } from "../../http/protocol.ts";
import {
  childCollectionsPath,
  collectionRecordsPath,
  recordCollectionsPath,
} from "../../http/paths.ts";
import type { ListOptions } from "../../http/list_options.ts";
import { requireId } from "../_checks.ts";
import { allItems, getPage, type ResourceContext, send } from "./context.ts";

const KINDS = {
  /** The collections a record is in (`/records/<id>/collections`). */
  recordCollections: { path: recordCollectionsPath, what: "collection id" },
  /** The records of a collection (`/collections/<id>/records`). */
  collectionRecords: { path: collectionRecordsPath, what: "record id" },
  /** The child collections of a collection (`/collections/<id>/collections`). */
  childCollections: { path: childCollectionsPath, what: "collection id" },
} as const;

/** A kind of membership link. */
export type LinkKind = keyof typeof KINDS;

/**
 * Adds a link (POST `{ id }`).
 *
 * @param ctx The resource the link starts from.
 * @param kind The kind of link.
 * @param targetId Id of the linked resource.
 */
export async function addLink(
  ctx: ResourceContext,
  kind: LinkKind,
  targetId: number,
): Promise<void> {
  const { path, what } = KINDS[kind];
  await send(ctx.transport, "POST", path(ctx.id), { json: { id: requireId(targetId, what) } });
}

/**
 * Removes a link (DELETE `<path>/<id>`).
 *
 * @param ctx The resource the link starts from.
 * @param kind The kind of link.
 * @param targetId Id of the linked resource.
 */
export async function removeLink(
  ctx: ResourceContext,
  kind: LinkKind,
  targetId: number,
): Promise<void> {
  await send(ctx.transport, "DELETE", KINDS[kind].path(ctx.id, targetId));
}

/**
 * One page of the linked resources.
 *
 * @typeParam T Item type.
 * @param ctx The resource the links start from.
 * @param kind The kind of link.
 * @param query `page`, `perPage`, `filter`, `sort` (and `children` for a collection's records).
 * @returns The page.
 */
export async function getLinked<T>(
  ctx: ResourceContext,
  kind: LinkKind,
  query: ListOptions = {},
): Promise<PageJson<T>> {
  return await getPage<T>(ctx.transport, KINDS[kind].path(ctx.id), query);
}

/**
 * Every linked resource.
 *
 * @typeParam T Item type.
 * @param ctx The resource the links start from.
 * @param kind The kind of link.
 * @param query `filter`, `sort`.
 * @returns An async iterator over the linked resources.
 */
export function linked<T>(
  ctx: ResourceContext,
  kind: LinkKind,
  query: ListOptions = {},
): AsyncGenerator<T, void, undefined> {
  return allItems<T>(ctx.transport, KINDS[kind].path(ctx.id), query);
}
