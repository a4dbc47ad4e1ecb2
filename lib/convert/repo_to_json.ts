/**
 * The repository's extra metadata back to plain JSON (client-reference §4.3).
 *
 * @module
 */

import type { Extra } from "../http/protocol.ts";
import { MetadataError } from "../resources/errors.ts";
import { metadataPathText } from "../resources/metadata.ts";

/** A plain JSON value as {@link repoToJson} returns it. */
export type PlainJson = null | boolean | number | string | PlainJson[] | {
  [key: string]: PlainJson;
};

/**
 * Converts extra metadata to a plain structure: `dict` entries become objects of key → value,
 * `list` entries arrays of their values (child keys ignored), other entries their stored value
 * unchanged (dates stay strings). The top level is an object.
 *
 * @example Usage
 * ```ts
 * import { jsonToRepo, repoToJson } from "../../mod.ts";
 * console.log(repoToJson(jsonToRepo({ l: [1, "a", [true]] }))); // { l: [1, "a", [true]] }
 * ```
 *
 * @param extras The entries (from a record's `extras`, not trusted).
 * @throws {MetadataError} When an entry is not an object with a type, or a dict child has no key
 * (`path` says which entry).
 */
export function repoToJson(extras: readonly Extra[]): { [key: string]: PlainJson } {
  return toObject(extras, ["extras"]);
}

type At = readonly (string | number)[];

function invalid(at: At, reason: string): MetadataError {
  return new MetadataError(`The metadata entry ${metadataPathText(at)} ${reason}`, {
    path: at,
    reason,
  });
}

function toValue(extra: unknown, at: At): PlainJson {
  if (typeof extra !== "object" || extra === null || !("type" in extra)) {
    throw invalid(at, "is not an object with a type");
  }
  const entry = extra as Extra;
  if (entry.type === "dict" || entry.type === "list") {
    const children = Array.isArray(entry.value) ? entry.value as Extra[] : [];
    return entry.type === "dict"
      ? toObject(children, [...at, "value"])
      : children.map((child, index) => toValue(child, [...at, "value", index]));
  }
  return (entry.value ?? null) as PlainJson;
}

function toObject(extras: readonly Extra[], at: At): { [key: string]: PlainJson } {
  const result: { [key: string]: PlainJson } = {};
  extras.forEach((extra, index) => {
    const key = (extra as { key?: unknown } | null)?.key;
    if (typeof key !== "string") throw invalid([...at, index], "has no key");
    Object.defineProperty(result, key, {
      value: toValue(extra, [...at, index]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  });
  return result;
}
