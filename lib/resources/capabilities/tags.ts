/**
 * Capability: tags of a record or collection, kept in the resource's metadata and changed by
 * PATCHing the whole list.
 *
 * @module
 */

import type { ResourceJson } from "../../http/protocol.ts";
import { requireText } from "../_checks.ts";
import type { MetaContext } from "./context.ts";

/** A resource with tags. */
export type Tagged = ResourceJson & { tags?: string[] };

/**
 * Lower-cases a tag and collapses its white space, as the server stores it.
 *
 * @param tag The tag.
 * @returns The normalized tag.
 */
function normalizeTag(tag: string): string {
  return requireText(tag, "tag").trim().replace(/\s+/g, " ").toLowerCase();
}

/**
 * The tags (from the cached metadata).
 *
 * @param ctx The resource.
 * @returns The tags, sorted.
 */
export async function getTags<J extends Tagged>(ctx: MetaContext<J>): Promise<string[]> {
  return [...((await ctx.meta()).tags ?? [])];
}

/**
 * Whether the resource has a tag (compared in lower case).
 *
 * @param ctx The resource.
 * @param tag The tag.
 * @returns True when present.
 */
export async function checkTag<J extends Tagged>(
  ctx: MetaContext<J>,
  tag: string,
): Promise<boolean> {
  return (await getTags(ctx)).includes(normalizeTag(tag));
}

/**
 * Adds a tag (lower-cased); the full list is sent, even when the tag is already present.
 *
 * @param ctx The resource.
 * @param tag The tag.
 * @returns The updated metadata.
 */
export async function addTag<J extends Tagged>(ctx: MetaContext<J>, tag: string): Promise<J> {
  const added = normalizeTag(tag);
  const tags = [...((await ctx.refresh()).tags ?? []), added];
  return await ctx.patch({ tags } as Partial<J>);
}

/**
 * Removes a tag.
 *
 * @param ctx The resource.
 * @param tag The tag.
 * @returns The updated metadata.
 */
export async function removeTag<J extends Tagged>(ctx: MetaContext<J>, tag: string): Promise<J> {
  const removed = normalizeTag(tag);
  const tags = ((await ctx.refresh()).tags ?? []).filter((t) => t !== removed);
  return await ctx.patch({ tags } as Partial<J>);
}
