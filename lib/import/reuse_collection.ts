/**
 * `reuseCollection`: a copy of a collection for a new run of the same work (client-reference
 * §5.4): a child collection with copies of the records, linked as the originals are.
 *
 * @module
 */

import { InputError, RepoApyError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import { type Extra, MAX_PER_PAGE, type RecordJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { deletedResources } from "../resources/capabilities/trash.ts";
import { ResourceNotFoundError } from "../resources/errors.ts";
import { appendIdentifierSuffix } from "../utils/identifier.ts";
import { RepoCollection } from "../model/collection.ts";
import { RepoRecord } from "../model/record.ts";
import { isIdentifierTaken } from "./_unique.ts";
import { openResource } from "../resources/resource.ts";

/** Options of {@link reuseCollection}. */
export interface ReuseCollectionOptions {
  /** Appended to every new identifier with `_` (required, not empty). */
  suffix: string;
  /** Records of the collection to reuse unchanged (added to the new collection, not copied). */
  linkedRecordIds?: readonly number[];
  /** Records of the collection to carry over: `"all"` or their ids. @default {"all"} */
  records?: "all" | readonly number[];
  /** Keep the values of the extras in the copies (else only required values are kept). @default {false} */
  keepExtrasValues?: boolean;
}

/** What {@link reuseCollection} made. */
export interface ReusedCollection {
  /** The new collection, a child of the original. */
  collection: RepoCollection;
  /** Old record id → id in the new collection (the same id for reused records). */
  records: Map<number, number>;
  /** Record links created between the new records. */
  links: number;
}

/**
 * Reuses a collection: creates a collection with the same title, description, tags and
 * visibility under the identifier with the suffix, links it as a child of the original, copies
 * the selected records (identifier with the suffix; title, type, description, tags, visibility,
 * license; extras with their values dropped unless required, or kept with `keepExtrasValues`),
 * adds the reused records unchanged, and re-creates the record links between them (name and
 * term). All new identifiers are checked first, so a taken one stops the run before anything is
 * created; if a later step fails, what this run created is deleted again (to the trash).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { reuseCollection } from "@repo/apy/import";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const run = await manager.collection({ identifier: "run", create: true });
 * const sample = await manager.record({ identifier: "sample", create: true });
 * await run.addRecordLink(sample.id);
 * const reused = await reuseCollection(manager, run.id, {
 *   suffix: "2024",
 *   linkedRecordIds: [sample.id],
 * });
 * assert.strictEqual((await reused.collection.meta()).identifier, "run_2024");
 * ```
 *
 * @throws {InputError} For an empty suffix, ids that are not records of the collection, or a
 *   new identifier already taken.
 */
export async function reuseCollection(
  target: { transport: Transport },
  collectionId: number,
  options: ReuseCollectionOptions,
): Promise<ReusedCollection> {
  const { transport } = target;
  const { suffix, linkedRecordIds = [], records = "all", keepExtrasValues = false } = options;
  if (suffix.trim() === "" || appendIdentifierSuffix("x", suffix) === "x_") {
    throw new InputError("Give a suffix with letters or digits for the new identifiers");
  }
  const source = await openResource(transport, RepoCollection, { id: collectionId });
  const sourceMeta = await source.meta();
  const reused = new Set(linkedRecordIds);
  const selected = await selectRecords(source, collectionId, reused, records);
  const copies = selected.filter((record) => !reused.has(record.id));
  const collectionIdentifier = appendIdentifierSuffix(sourceMeta.identifier, suffix);
  await ensureFree(transport, "collection", collectionIdentifier);
  for (const record of copies) {
    await ensureFree(transport, "record", appendIdentifierSuffix(record.identifier, suffix));
  }

  const created: { delete(): Promise<void> }[] = [];
  let creating: ["record" | "collection", string] = ["collection", collectionIdentifier];
  try {
    const collection = await openResource(transport, RepoCollection, {
      identifier: collectionIdentifier,
      create: true,
      title: sourceMeta.title,
      description: sourceMeta.description ?? "",
      visibility: sourceMeta.visibility ?? "private",
      tags: sourceMeta.tags ?? [],
    });
    created.push(collection);
    await source.addCollectionLink(collection.id);
    const mapping = new Map<number, number>();
    for (const record of selected) {
      let newId = record.id;
      if (!reused.has(record.id)) {
        creating = ["record", appendIdentifierSuffix(record.identifier, suffix)];
        const copy = await copyRecord(transport, record, suffix, keepExtrasValues);
        created.push(copy);
        newId = copy.id;
      }
      mapping.set(record.id, newId);
      await collection.addRecordLink(newId);
    }
    const links = await copyLinks(transport, selected, mapping);
    return { collection, records: mapping, links };
  } catch (error) {
    for (const resource of created.reverse()) {
      await resource.delete().catch(() => {});
    }
    if (isIdentifierTaken(error)) throw trashedError(...creating, error);
    throw new RepoApyError(
      `Reusing the collection ${collectionId} failed, what this run created was deleted again: ${
        error instanceof Error ? error.message : error
      }`,
      { cause: error },
    );
  }
}

/**
 * The members to reuse: every one, or those chosen plus the reused ones.
 *
 * @throws {InputError} For a chosen or reused id that is not a member.
 */
async function selectRecords(
  source: RepoCollection,
  collectionId: number,
  reused: ReadonlySet<number>,
  records: "all" | readonly number[],
) {
  const members = await Array.fromAsync(source.records({ perPage: MAX_PER_PAGE }));
  const byId = new Map(members.map((record) => [record.id, record]));
  for (const id of [...reused, ...(records === "all" ? [] : records)]) {
    if (!byId.has(id)) {
      throw new InputError(
        `The record with id ${id} is not in the collection ${collectionId}: choose among ` +
          `${[...byId.keys()].join(", ") || "none"}`,
      );
    }
  }
  return members.filter((record) =>
    records === "all" || records.includes(record.id) || reused.has(record.id)
  );
}

/** Copies the links between the selected records onto their copies; the number made. */
async function copyLinks(
  transport: Transport,
  selected: readonly { id: number }[],
  mapping: ReadonlyMap<number, number>,
): Promise<number> {
  let links = 0;
  for (const record of selected) {
    const from = new RepoRecord(transport, record.id);
    for await (const link of from.recordLinks({ direction: "out", perPage: MAX_PER_PAGE })) {
      const to = link.record_to?.id;
      const newFrom = mapping.get(record.id);
      const newTo = to === undefined ? undefined : mapping.get(to);
      if (newFrom === undefined || newTo === undefined) continue;
      if (newFrom === record.id && newTo === to) continue; // both reused: the link exists
      const start = await openResource(transport, RepoRecord, { id: newFrom });
      await start.linkRecord(newTo, link.name, { termIri: link.term ?? null });
      links++;
    }
  }
  return links;
}

async function ensureFree(transport: Transport, type: "record" | "collection", identifier: string) {
  try {
    if (type === "record") await openResource(transport, RepoRecord, { identifier });
    else await openResource(transport, RepoCollection, { identifier });
  } catch (error) {
    if (!(error instanceof ResourceNotFoundError)) throw error;
    // A 404 also answers for a resource in the trash, whose identifier stays taken.
    if (await inTrash(transport, type, identifier)) throw trashedError(type, identifier);
    return;
  }
  throw new InputError(
    `A ${type} with the identifier '${identifier}' exists already: choose another suffix`,
  );
}

/**
 * Whether the trash listing holds a `type` with exactly this identifier. A token without the
 * trash scope cannot list it: then only the create's structured 400 tells (see below).
 */
async function inTrash(transport: Transport, type: string, identifier: string) {
  try {
    for await (const item of deletedResources(transport, { filter: identifier })) {
      if (item.type === type && item.identifier === identifier) return true;
    }
  } catch (error) {
    if (error instanceof RequestError && (error.status === 401 || error.status === 403)) {
      return false;
    }
    throw error;
  }
  return false;
}

/** The identifier is held by a resource in the trash (the listing or the create's 400 told). */
function trashedError(type: string, identifier: string, cause?: unknown): InputError {
  return new InputError(
    `A ${type} with the identifier '${identifier}' is in the trash: restore it (misc ` +
      "restore-resource) or delete it for good (misc purge-resource), or choose another suffix",
    ...(cause === undefined ? [] : [{ cause }]),
  );
}

async function copyRecord(
  transport: Transport,
  record: RecordJson,
  suffix: string,
  keepExtrasValues: boolean,
): Promise<RepoRecord> {
  const full = await (await openResource(transport, RepoRecord, { id: record.id })).meta();
  const extras = full.extras ?? [];
  return await openResource(transport, RepoRecord, {
    identifier: appendIdentifierSuffix(full.identifier, suffix),
    create: true,
    title: full.title,
    type: full.type ?? null,
    description: full.description ?? "",
    tags: full.tags ?? [],
    visibility: full.visibility ?? "private",
    license: full.license ?? null,
    extras: keepExtrasValues ? extras : cleanExtras(extras),
  });
}

/** Extras without their values, except required ones; nested entries recursed. */
function cleanExtras(extras: readonly Extra[]): Extra[] {
  return extras.map((extra) => {
    if (extra.type === "dict" || extra.type === "list") {
      return { ...extra, value: cleanExtras(Array.isArray(extra.value) ? extra.value : []) };
    }
    return extra.validation?.required === true ? extra : { ...extra, value: null };
  });
}
