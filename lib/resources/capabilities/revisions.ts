/**
 * Capability: revisions of a record, collection, template or group (`<base>/<id>/revisions`).
 *
 * @module
 */

import type { PageJson, RevisionJson } from "../../http/protocol.ts";
import { revisionsPath } from "../../http/paths.ts";
import type { QueryParams } from "../../http/url.ts";
import type { ListOptions } from "../../http/list_options.ts";
import { getPage, type ResourceContext } from "./context.ts";

/**
 * One page of the resource's revisions, newest first.
 *
 * @param ctx The resource.
 * @param query `page`, `perPage`.
 * @returns The page.
 */
export async function getRevisions(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<RevisionJson>> {
  return await getPage(ctx.transport, revisionsPath(ctx), query);
}

/**
 * One revision of the resource.
 *
 * @param ctx The resource.
 * @param revisionId Id of the revision.
 * @param query `revision`: compare against this revision instead of the parent.
 * @returns The revision.
 */
export async function getRevision(
  ctx: ResourceContext,
  revisionId: number,
  query: QueryParams = {},
): Promise<RevisionJson> {
  return await ctx.transport.json("GET", revisionsPath(ctx, revisionId), { query });
}
