/**
 * The metadata files of a collection folder: `.record.json` (a record, in the shape of
 * `records export -e json`) and `.collection.json` (a collection, in the shape of
 * `collections export -e json`). Reading keeps only what a user may set (server-side fields such
 * as ids, dates, creator and files are ignored); comparing tells which fields differ from the
 * server's, in the server's normalized form, so an unchanged folder sends no change.
 *
 * @example Usage
 * ```ts
 * import { parseRecordMetadata, recordChanges } from "./metadata.ts";
 * const wanted = parseRecordMetadata({ title: "Sample 1", tags: ["B", "a"] }, ".record.json");
 * const changes = recordChanges(wanted, { id: 1, identifier: "s", title: "Sample 1", tags: ["a", "b"], _links: {}, _actions: {} });
 * console.log(changes); // {}
 * ```
 *
 * @module
 */

import { InputError } from "../errors.ts";
import type {
  CollectionJson,
  Extra,
  RecordJson,
  ResourceChanges,
  ResourceJson,
} from "../http/protocol.ts";
import { stringifyJson } from "../http/_float_json.ts";
import { validateExtras } from "../resources/metadata.ts";

/** The record's metadata file in its folder (never uploaded as a file). */
export const RECORD_FILE = ".record.json";

/** The collection's metadata file in its folder. */
export const COLLECTION_FILE = ".collection.json";

/** Largest metadata file read, in bytes: a file of metadata, not of data. */
export const MAX_METADATA_FILE_BYTES = 16 * 1024 * 1024;

/** An outgoing link of a record to another record, by the target's identifier. */
export interface RecordLinkSpec {
  /** Link name. */
  name: string;
  /** IRI of a term describing it, or `null`. */
  term: string | null;
  /** Identifier of the record linked to. */
  to: string;
}

/** What a `.record.json` sets (fields left out are not managed). */
export interface RecordMetadata {
  /** Identifier. */
  identifier?: string;
  /** Title. */
  title?: string;
  /** Description (Markdown). */
  description?: string;
  /** Tags. */
  tags?: string[];
  /** Record type. */
  type?: string | null;
  /** License name. */
  license?: string | null;
  /** Extra metadata, with types. */
  extras?: Extra[];
  /** Outgoing links to other records. */
  links?: RecordLinkSpec[];
}

/** What a `.collection.json` sets. */
export interface CollectionMetadata {
  /** Identifier. */
  identifier?: string;
  /** Title. */
  title?: string;
  /** Description (Markdown). */
  description?: string;
  /** Tags. */
  tags?: string[];
}

const IDENTIFIER = /^[a-z0-9_-]{1,50}$/;

/**
 * Whether a text is a valid identifier as the server stores it (`a-z`, `0-9`, `-`, `_`, at most
 * 50 characters).
 */
export function isIdentifier(text: unknown): text is string {
  return typeof text === "string" && IDENTIFIER.test(text);
}

function isObject(value: unknown): value is { [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function bad(source: string, field: string, what: string): never {
  throw new InputError(
    `${source}: '${field}' ${what}; fix the file and run the same command again`,
  );
}

function text(value: unknown, source: string, field: string, nullable: boolean): string | null {
  if (value === null && nullable) return null;
  if (typeof value !== "string") bad(source, field, `must be text${nullable ? " or null" : ""}`);
  return value;
}

function identifierOf(value: unknown, source: string, field: string): string {
  const raw = text(value, source, field, false)!.trim().toLowerCase();
  if (!IDENTIFIER.test(raw)) {
    bad(source, field, "must be 1 to 50 of a-z, 0-9, - and _");
  }
  return raw;
}

function tagsOf(value: unknown, source: string): string[] {
  if (!Array.isArray(value) || value.some((tag) => typeof tag !== "string")) {
    bad(source, "tags", "must be a list of texts");
  }
  return value as string[];
}

function commonFields(
  value: { [key: string]: unknown },
  source: string,
): CollectionMetadata {
  const out: CollectionMetadata = {};
  if (value.identifier !== undefined) {
    out.identifier = identifierOf(value.identifier, source, "identifier");
  }
  if (value.title !== undefined) {
    const title = text(value.title, source, "title", false)!;
    if (normalizeText(title) === "") bad(source, "title", "must not be empty");
    out.title = title;
  }
  if (value.description !== undefined) {
    out.description = text(value.description, source, "description", false)!;
  }
  if (value.tags !== undefined) out.tags = tagsOf(value.tags, source);
  return out;
}

/**
 * Reads a record's metadata in the shape of `records export -e json`: identifier, title,
 * description, tags, type, license, extras (with their types) and links (`record_to.identifier`
 * names the record linked to; links into this record, with only `record_from`, are left to the
 * other record's file). Every other field is ignored.
 *
 * @param source Where it came from, for messages (`sample-1/.record.json`).
 * @throws {InputError} Naming the file and field that is wrong.
 */
export function parseRecordMetadata(value: unknown, source: string): RecordMetadata {
  if (!isObject(value)) bad(source, "(top level)", "must be a JSON object");
  const out: RecordMetadata = commonFields(value, source);
  if (value.type !== undefined) out.type = text(value.type, source, "type", true);
  if (value.license !== undefined) out.license = text(value.license, source, "license", true);
  if (value.extras !== undefined) {
    if (isObject(value.extras)) {
      bad(
        source,
        "extras",
        "must be a list of {key, type, value} entries as records export -e json writes them",
      );
    }
    try {
      out.extras = validateExtras(value.extras);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new InputError(`${source}: ${error.message}`, { cause: error });
    }
  }
  if (value.links !== undefined) {
    if (!Array.isArray(value.links)) bad(source, "links", "must be a list");
    const links: RecordLinkSpec[] = [];
    value.links.forEach((link: unknown, index) => {
      const field = `links[${index}]`;
      if (!isObject(link)) bad(source, field, "must be an object");
      const from = isObject(link.record_from) ? link.record_from.identifier : undefined;
      const to = isObject(link.record_to) ? link.record_to.identifier : undefined;
      // A link into this record (exported with only `record_from`) belongs to the other record.
      if (to === undefined || (from !== undefined && from !== out.identifier)) return;
      links.push({
        name: text(link.name, source, `${field}.name`, false)!,
        term: link.term === undefined ? null : text(link.term, source, `${field}.term`, true),
        to: identifierOf(to, source, `${field}.record_to.identifier`),
      });
    });
    out.links = links;
  }
  return out;
}

/**
 * Reads a collection's metadata in the shape of `collections export -e json`: identifier, title,
 * description and tags; every other field is ignored.
 *
 * @param source Where it came from, for messages.
 * @throws {InputError} Naming the file and field that is wrong.
 */
export function parseCollectionMetadata(value: unknown, source: string): CollectionMetadata {
  if (!isObject(value)) bad(source, "(top level)", "must be a JSON object");
  return commonFields(value, source);
}

/** Whitespace runs as one space, trimmed: how the server stores titles and tags. */
function normalizeText(value: string): string {
  return value.trim().replace(/\s+/g, " ");
}

/** Tags as the server stores them: normalized, lower-case, without duplicates, sorted. */
function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => normalizeText(tag).toLowerCase()).filter((tag) => tag))]
    .sort();
}

function normalizeType(type: string | null | undefined): string | null {
  const normal = type == null ? "" : normalizeText(type).toLowerCase();
  return normal === "" ? null : normal;
}

/** A JSON text with object keys sorted, for comparing. */
function sortedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item) =>
      isObject(item)
        ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]]))
        : item,
  );
}

function canonicalValue(extra: Extra): unknown {
  const { type, value } = extra;
  if (type === "dict" || type === "list") {
    return canonicalExtras(Array.isArray(value) ? value as Extra[] : []);
  }
  if (value === undefined || value === null) return null;
  if (type === "str" && typeof value === "string") return value.trim() === "" ? null : value.trim();
  if (type === "date" && typeof value === "string") {
    const time = Date.parse(value);
    return Number.isFinite(time) ? time : value;
  }
  return value;
}

/** Extras in one comparable form: the server's defaults filled in, values as it stores them. */
function canonicalExtras(extras: readonly Extra[]): unknown[] {
  return extras.map((extra) => {
    const validation = extra.validation;
    return {
      key: typeof extra.key === "string" ? extra.key.trim() : null,
      type: extra.type,
      value: canonicalValue(extra),
      unit: extra.type === "int" || extra.type === "float" ? extra.unit ?? null : null,
      description: extra.description ?? "",
      term: extra.term ?? null,
      validation: validation === undefined || validation === null ||
          (isObject(validation) && Object.keys(validation).length === 0)
        ? null
        : validation,
    };
  });
}

/**
 * Whether two lists of extras hold the same metadata (keys, types, values, units, descriptions,
 * terms, validation), in the form the server stores: a float `1` equals `1.0`.
 *
 * @returns Whether they are the same.
 */
export function sameExtras(a: readonly Extra[], b: readonly Extra[]): boolean {
  return sortedJson(canonicalExtras(a)) === sortedJson(canonicalExtras(b));
}

function commonChanges(
  wanted: CollectionMetadata,
  current: ResourceJson & { tags?: string[] },
  changes: { [field: string]: unknown },
): void {
  if (wanted.title !== undefined && normalizeText(wanted.title) !== normalizeText(current.title)) {
    changes.title = wanted.title;
  }
  if (
    wanted.description !== undefined &&
    wanted.description.trim() !== (current.description ?? "").trim()
  ) changes.description = wanted.description;
  if (
    wanted.tags !== undefined &&
    normalizeTags(wanted.tags).join("\n") !== normalizeTags(current.tags ?? []).join("\n")
  ) changes.tags = normalizeTags(wanted.tags);
}

/**
 * The fields of a record to change so that it holds the metadata of its `.record.json`: only
 * those that differ from the server's, compared in the server's normalized form.
 *
 * @param wanted The metadata of the file.
 * @param current The record as the server sends it.
 * @returns The changes (empty when nothing differs).
 */
export function recordChanges(
  wanted: RecordMetadata,
  current: RecordJson,
): ResourceChanges<RecordJson> {
  const changes: { [field: string]: unknown } = {};
  commonChanges(wanted, current, changes);
  if (wanted.type !== undefined && normalizeType(wanted.type) !== normalizeType(current.type)) {
    changes.type = wanted.type;
  }
  if (wanted.license !== undefined && (wanted.license ?? null) !== (current.license ?? null)) {
    changes.license = wanted.license;
  }
  if (wanted.extras !== undefined && !sameExtras(wanted.extras, current.extras ?? [])) {
    changes.extras = wanted.extras;
  }
  return changes as ResourceChanges<RecordJson>;
}

/**
 * The fields of a collection to change so that it holds the metadata of its `.collection.json`.
 *
 * @param wanted The metadata of the file.
 * @param current The collection as the server sends it.
 * @returns The changes (empty when nothing differs).
 */
export function collectionChanges(
  wanted: CollectionMetadata,
  current: CollectionJson,
): ResourceChanges<CollectionJson> {
  const changes: { [field: string]: unknown } = {};
  commonChanges(wanted, current, changes);
  return changes as ResourceChanges<CollectionJson>;
}

/**
 * The text of a record's `.record.json`: the fields a folder sets, in the shape of
 * `records export -e json` (floats written as floats), without server-side fields, so it only
 * changes when the record does.
 */
export function recordFileText(record: RecordJson, links: readonly RecordLinkSpec[]): string {
  return stringifyJson(
    {
      identifier: record.identifier,
      title: record.title,
      description: record.description ?? "",
      type: record.type ?? null,
      license: record.license ?? null,
      tags: record.tags ?? [],
      extras: record.extras ?? [],
      links: links.map((link) => ({
        name: link.name,
        term: link.term,
        record_to: { identifier: link.to },
      })),
    },
    2,
  ) + "\n";
}

/**
 * The text of a collection's `.collection.json`, in the shape of `collections export -e json`.
 */
export function collectionFileText(collection: CollectionJson): string {
  return JSON.stringify(
    {
      identifier: collection.identifier,
      title: collection.title,
      description: collection.description ?? "",
      tags: collection.tags ?? [],
    },
    null,
    2,
  ) + "\n";
}
