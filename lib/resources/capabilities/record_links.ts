/**
 * Capability: links between records (`/records/<id>/records[/<link id>]`).
 *
 * @module
 */

import { InputError } from "../../errors.ts";
import type { PageJson, RecordJson, RecordLinkJson } from "../../http/protocol.ts";
import { recordLinksPath } from "../../http/paths.ts";
import type { QueryParams } from "../../http/url.ts";
import { requireId, requireText } from "../_checks.ts";
import { allItems, getPage, type MetaContext, type ResourceContext, send } from "./context.ts";

/** Query of {@linkcode getRecordLinks}. */
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
  perPage?: number;
  /** Wire name of `perPage`, still accepted for compatibility. */
  per_page?: number;
}

/** Changes {@linkcode updateRecordLink} can make. */
export interface RecordLinkChanges {
  /** New link name. */
  name?: string;
  /** New term IRI, or `null` to remove it. */
  termIri?: string | null;
  /** Id of the new target record. */
  recordTo?: number;
}

/**
 * Links the record to another one (POST `_actions.link_record`).
 *
 * @param ctx The record.
 * @param link Target record id, link name and optional term IRI.
 * @returns The new link.
 */
export async function linkRecord(
  ctx: MetaContext<RecordJson>,
  link: { recordTo: number; name: string; termIri?: string | null | undefined },
): Promise<RecordLinkJson> {
  const json = {
    record_to: { id: requireId(link.recordTo, "record id") },
    name: requireText(link.name, "link name"),
    term: link.termIri ?? null,
  };
  const endpoint = (await ctx.meta())._actions.link_record ?? recordLinksPath(ctx.id);
  return await ctx.transport.json("POST", endpoint, { json });
}

/**
 * Changes a link from the record.
 *
 * @param ctx The record.
 * @param linkId Id of the link.
 * @param changes `name`, `termIri`, `recordTo`.
 * @returns The updated link.
 * @throws {InputError} When nothing is to change.
 */
export async function updateRecordLink(
  ctx: ResourceContext,
  linkId: number,
  changes: RecordLinkChanges,
): Promise<RecordLinkJson> {
  const json: { name?: string; term?: string | null; record_to?: { id: number } } = {};
  if (changes.name !== undefined) json.name = requireText(changes.name, "link name");
  if (changes.termIri !== undefined) json.term = changes.termIri;
  if (changes.recordTo !== undefined) {
    json.record_to = { id: requireId(changes.recordTo, "record id") };
  }
  if (Object.keys(json).length === 0) {
    throw new InputError("Nothing to change: give a name, termIri or recordTo");
  }
  return await ctx.transport.json("PATCH", recordLinksPath(ctx.id, linkId), { json });
}

/**
 * Deletes a link from the record.
 *
 * @param ctx The record.
 * @param linkId Id of the link.
 */
export async function deleteRecordLink(ctx: ResourceContext, linkId: number): Promise<void> {
  await send(ctx.transport, "DELETE", recordLinksPath(ctx.id, linkId));
}

/**
 * One page of the links from (`direction: "out"`) or to (`"in"`) the record.
 *
 * @param ctx The record.
 * @param query Direction, filter, sort, page, perPage.
 * @returns The page.
 */
export async function getRecordLinks(
  ctx: ResourceContext,
  query: RecordLinksQuery = {},
): Promise<PageJson<RecordLinkJson>> {
  return await getPage(ctx.transport, recordLinksPath(ctx.id), linkQuery(query));
}

/**
 * Every link from or to the record.
 *
 * @param ctx The record.
 * @param query Direction, filter, sort.
 * @returns An async iterator over the links.
 */
export function recordLinks(
  ctx: ResourceContext,
  query: RecordLinksQuery = {},
): AsyncGenerator<RecordLinkJson, void, undefined> {
  return allItems(ctx.transport, recordLinksPath(ctx.id), linkQuery(query));
}

function linkQuery(query: RecordLinksQuery): QueryParams {
  const { direction = "out", ...rest } = query;
  if (direction !== "out" && direction !== "in") {
    throw new InputError(`Invalid link direction '${String(direction)}': use 'out' or 'in'`);
  }
  return { ...rest, direction };
}
