/**
 * Capability: a record's extra metadata, read from the cached metadata and changed by PATCHing
 * the whole `extras` list (the rules themselves are in `../metadata.ts`).
 *
 * @module
 */

import type { Extra, RecordJson } from "../../http/protocol.ts";
import { flattenExtras, getExtra, mergeExtras, validateExtras } from "../metadata.ts";
import type { MetaContext } from "./context.ts";

/** Whether new metadata replace entries with the same key. */
export interface MetadataOptions {
  /** Replace existing entries (see `mergeExtras` for `addMetadata`). @default {false} */
  force?: boolean | undefined;
}

type Ctx = MetaContext<RecordJson>;

/**
 * Adds one metadatum; without `force` an existing top-level entry with that key is kept and
 * nothing is sent, with `force` it is replaced (the new one goes last).
 *
 * @param ctx The record.
 * @param metadatum The entry.
 * @param options `force`.
 * @returns The record afterwards.
 */
export async function addMetadatum(
  ctx: Ctx,
  metadatum: Extra,
  options: MetadataOptions = {},
): Promise<RecordJson> {
  const [added] = validateExtras([metadatum]) as [Extra];
  const meta = await ctx.refresh();
  const extras = meta.extras ?? [];
  if (!options.force && extras.some((extra) => extra.key === added.key)) return meta;
  return await ctx.patch({ extras: [...extras.filter((e) => e.key !== added.key), added] });
}

/**
 * Adds several metadata with one PATCH, by the rules of `mergeExtras`.
 *
 * @param ctx The record.
 * @param metadata The entries, or one entry.
 * @param options `force`.
 * @returns The record afterwards.
 */
export async function addMetadata(
  ctx: Ctx,
  metadata: Extra[] | Extra,
  options: MetadataOptions = {},
): Promise<RecordJson> {
  const added = validateExtras(Array.isArray(metadata) ? metadata : [metadata]);
  const meta = await ctx.refresh();
  const old = meta.extras ?? [];
  const merged = mergeExtras(old, added, options);
  if (JSON.stringify(merged) === JSON.stringify(old)) return meta;
  return await ctx.patch({ extras: merged });
}

/**
 * A metadatum by key or nested path (1-based indices inside lists).
 *
 * @param ctx The record.
 * @param path A key, a `.`-separated path, or the path's parts.
 * @returns The entry, or `undefined` when absent.
 */
export async function getMetadatum(
  ctx: Ctx,
  path: string | readonly string[],
): Promise<Extra | undefined> {
  return getExtra((await ctx.meta()).extras ?? [], path);
}

/**
 * Whether a top-level metadatum with that key exists.
 *
 * @param ctx The record.
 * @param key The key.
 * @returns True when present.
 */
export async function checkMetadatum(ctx: Ctx, key: string): Promise<boolean> {
  return ((await ctx.meta()).extras ?? []).some((extra) => extra.key === key);
}

/**
 * Removes the top-level metadatum with that key; nothing is sent when there is none.
 *
 * @param ctx The record.
 * @param key The key.
 * @returns The record afterwards.
 */
export async function removeMetadatum(ctx: Ctx, key: string): Promise<RecordJson> {
  const meta = await ctx.refresh();
  const extras = meta.extras ?? [];
  const kept = extras.filter((extra) => extra.key !== key);
  return kept.length === extras.length ? meta : await ctx.patch({ extras: kept });
}

/**
 * Removes all metadata.
 *
 * @param ctx The record.
 * @returns The record afterwards.
 */
export async function removeAllMetadata(ctx: Ctx): Promise<RecordJson> {
  return await ctx.patch({ extras: [] });
}

/**
 * The metadata flattened to one level.
 *
 * @param ctx The record.
 * @param separator Joins nested keys.
 * @returns The flat entries.
 */
export async function flattenMetadata(ctx: Ctx, separator = "."): Promise<Extra[]> {
  return flattenExtras((await ctx.meta()).extras ?? [], separator);
}
