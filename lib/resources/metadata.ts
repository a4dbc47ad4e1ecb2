/**
 * Extra metadata ("extras") as pure functions: validation before anything is sent, lookup by
 * nested path, flattening, and the merge rules of `addMetadata`. The record methods, the CLI and
 * the importers all go through these.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { MetadataError } from "./errors.ts";
import {
  type Extra,
  EXTRA_TYPES,
  EXTRAS_DATE_PATTERN,
  EXTRAS_MAX_INTEGER,
  EXTRAS_MIN_INTEGER,
  type ExtraType,
} from "../http/protocol.ts";

const NESTED_TYPES: readonly ExtraType[] = ["dict", "list"];
const UNIT_TYPES: readonly ExtraType[] = ["int", "float"];

/**
 * Deepest nesting of `dict`/`list` entries accepted (validation, flattening): deeper metadata is
 * refused with an {@linkcode InputError} instead of exhausting the call stack.
 */
export const MAX_EXTRAS_DEPTH = 64;

/** Where an entry sits: its array path (`extras, 0, value, 1`) and its key path (`a, 2`). */
interface Position {
  path: readonly (string | number)[];
  name: readonly string[] | undefined;
  /** Nesting level of the array (top level: 0). */
  depth?: number;
}

function tooDeep(): never {
  throw new InputError(
    `The metadata is nested deeper than ${MAX_EXTRAS_DEPTH} levels of dict and list entries: ` +
      `flatten it`,
  );
}

/**
 * Validates extras before they are sent and returns a copy ready to send. Checked: the type is
 * one of `str, int, float, bool, date, dict, list`; an `int` is an integer within ±(2^53−1)
 * (a `bigint` within range becomes a number); a `float` is finite; a `bool` is boolean; a `str`
 * is a string; a `date` is an ISO 8601 string; `dict`/`list` values are arrays validated
 * recursively (children of a list need no key) up to {@linkcode MAX_EXTRAS_DEPTH} levels; a unit
 * only goes with `int`/`float`; keys are required at the top level and in dicts and unique per
 * array. `null` values are not validated.
 *
 * @example Usage
 * ```ts
 * import { validateExtras } from "./metadata.ts";
 * try {
 *   validateExtras([{ key: "n", type: "int", value: 2 ** 60 }]);
 * } catch (error) {
 *   console.log(String(error).includes("extras[0].value")); // true
 * }
 * ```
 *
 * @param extras The entries to check (anything; not trusted).
 * @param path Name of the array in messages. @default {"extras"}
 * @returns A validated copy of the entries.
 * @throws {MetadataError} Naming the first offending entry and what to change (`path`,
 * `keyPath`, `reason`; `allowedTypes` and `givenType` for a wrong type).
 * @throws {InputError} When nested deeper than {@linkcode MAX_EXTRAS_DEPTH} levels.
 */
export function validateExtras(extras: unknown, path = "extras"): Extra[] {
  return validateArray(extras, { path: [path], name: undefined }, false);
}

function validateArray(extras: unknown, at: Position, inList: boolean): Extra[] {
  const depth = at.depth ?? 0;
  if (depth > MAX_EXTRAS_DEPTH) tooDeep();
  if (!Array.isArray(extras)) {
    fail(at, `expected an array of metadata entries, got ${describe(extras)}`);
  }
  const seen = new Set<string>();
  return extras.map((entry: unknown, index) => {
    const path = [...at.path, index];
    const ownKey = isObject(entry) && typeof entry.key === "string" ? entry.key.trim() : undefined;
    const part = inList ? String(index + 1) : ownKey;
    const name = part === undefined ? undefined : [...(at.name ?? []), part];
    const position = { path, name, depth };
    if (!inList && ownKey !== undefined && ownKey !== "") {
      const normalized = ownKey.replace(/\s+/g, " ");
      if (seen.has(normalized)) {
        fail(
          { path: [...path, "key"], name },
          "the key is used twice at the same level; keys must be unique",
        );
      }
      seen.add(normalized);
    }
    return validateEntry(entry, position, inList);
  });
}

function validateEntry(entry: unknown, at: Position, inList: boolean): Extra {
  if (!isObject(entry)) {
    fail(at, `expected an object with 'key', 'type' and 'value', got ${describe(entry)}`);
  }
  const type = entry.type;
  if (typeof type !== "string" || !(EXTRA_TYPES as readonly string[]).includes(type)) {
    fail(
      { ...at, path: [...at.path, "type"] },
      `${describe(type)} is not a metadata type; use one of ${EXTRA_TYPES.join(", ")}`,
      { allowedTypes: EXTRA_TYPES, givenType: type },
    );
  }
  const extraType = type as ExtraType;
  const copy: Extra = { ...entry, type: extraType };
  if (!inList) {
    if (typeof entry.key !== "string" || entry.key.trim() === "") {
      fail({ ...at, path: [...at.path, "key"] }, "a non-empty string key is required");
    }
  }
  const valueAt = { ...at, path: [...at.path, "value"], depth: (at.depth ?? 0) + 1 };
  if (entry.value !== null && entry.value !== undefined) {
    copy.value = NESTED_TYPES.includes(extraType)
      ? validateArray(entry.value, valueAt, extraType === "list")
      : validateValue(extraType, entry.value, valueAt);
  }
  if (entry.unit !== undefined && entry.unit !== null) {
    const unitAt = { ...at, path: [...at.path, "unit"] };
    if (!UNIT_TYPES.includes(extraType)) {
      fail(unitAt, `a unit is only allowed with int and float, not ${extraType}; remove the unit`);
    }
    if (typeof entry.unit !== "string") fail(unitAt, `${describe(entry.unit)} is not a string`);
  }
  for (const field of ["description", "term"] as const) {
    const value = entry[field];
    if (value !== undefined && value !== null && typeof value !== "string") {
      fail({ ...at, path: [...at.path, field] }, `${describe(value)} is not a string`);
    }
  }
  return copy;
}

function validateValue(type: ExtraType, value: unknown, at: Position): unknown {
  switch (type) {
    case "str":
      if (typeof value !== "string") fail(at, `${describe(value)} is not a string`);
      return value;
    case "int": {
      if (typeof value === "bigint" || (typeof value === "number" && Number.isInteger(value))) {
        const big = BigInt(value);
        if (big > BigInt(EXTRAS_MAX_INTEGER) || big < BigInt(EXTRAS_MIN_INTEGER)) {
          fail(at, `${big} is outside ±(2^53−1); store it as a string`);
        }
        return Number(big);
      }
      if (typeof value === "number" && Number.isFinite(value)) {
        fail(at, `${value} is not an integer; use the type 'float'`);
      }
      return fail(at, `${describe(value)} is not an integer`);
    }
    case "float":
      if (typeof value !== "number") fail(at, `${describe(value)} is not a number`);
      if (!Number.isFinite(value)) fail(at, `${value} is not a finite number`);
      return value;
    case "bool":
      if (typeof value !== "boolean") {
        fail(at, `${describe(value)} is not a boolean (true or false)`);
      }
      return value;
    case "date":
      if (typeof value !== "string" || !isIsoDate(value)) {
        fail(
          at,
          `${
            describe(value)
          } is not an ISO 8601 date such as 2024-05-01 or 2024-05-01T10:20:30+00:00`,
        );
      }
      return value;
    default:
      return value;
  }
}

function isIsoDate(text: string): boolean {
  const match = EXTRAS_DATE_PATTERN.exec(text.trim());
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1, 7).map((part) =>
    part === undefined ? undefined : Number(part)
  ) as [number, number, number, number?, number?, number?];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

/**
 * Finds an entry by key or nested path. Inside a `list`, path parts are 1-based index strings. A
 * string is first taken as one top-level key; if no such key exists and the string contains `.`,
 * it is split at the dots. Pass an array when a key itself contains a dot.
 *
 * @example Usage
 * ```ts
 * import { getExtra } from "./metadata.ts";
 * const extras = [{ key: "l", type: "list" as const, value: [{ type: "str" as const, value: "x" }] }];
 * console.log(getExtra(extras, "l.1")?.value, getExtra(extras, "missing")); // "x" undefined
 * ```
 *
 * @param extras The entries to search.
 * @param path A key, a `.`-separated path, or the path's parts.
 * @returns The entry, or `undefined` when absent.
 */
export function getExtra(
  extras: readonly Extra[],
  path: string | readonly string[],
): Extra | undefined {
  if (typeof path === "string") {
    const direct = extras.find((extra) => extra.key === path);
    if (direct !== undefined || !path.includes(".")) return direct;
    return getExtra(extras, path.split("."));
  }
  let level: readonly Extra[] = extras;
  let inList = false;
  let found: Extra | undefined;
  for (const part of path) {
    if (inList) {
      const index = /^[1-9]\d*$/.test(part) ? Number(part) - 1 : -1;
      found = index >= 0 ? level[index] : undefined;
    } else {
      found = level.find((extra) => extra.key === part);
    }
    if (found === undefined) return undefined;
    inList = found.type === "list";
    level = NESTED_TYPES.includes(found.type) && Array.isArray(found.value) ? found.value : [];
  }
  return found;
}

/**
 * Flattens nested entries into one level: nested keys are joined with the separator and list
 * items get their 1-based index as key. Empty dicts and lists leave nothing.
 *
 * @example Usage
 * ```ts
 * import { flattenExtras } from "./metadata.ts";
 * const extras = [{ key: "a", type: "dict" as const, value: [{ key: "b", type: "int" as const, value: 1 }] }];
 * console.log(flattenExtras(extras, "/")); // [{ key: "a/b", type: "int", value: 1 }]
 * ```
 *
 * @param extras The entries.
 * @param separator Joins the keys. @default {"."}
 * @returns The flat entries (copies).
 * @throws {InputError} When nested deeper than {@linkcode MAX_EXTRAS_DEPTH} levels.
 */
export function flattenExtras(extras: readonly Extra[], separator = "."): Extra[] {
  const flat: Extra[] = [];
  const walk = (level: readonly Extra[], prefix: string, inList: boolean, depth = 0) => {
    if (depth > MAX_EXTRAS_DEPTH) tooDeep();
    level.forEach((extra, index) => {
      // List items are addressed by their 1-based position, even when they carry a key.
      const key = `${prefix}${inList || extra.key === undefined ? index + 1 : extra.key}`;
      if (NESTED_TYPES.includes(extra.type)) {
        const children = Array.isArray(extra.value) ? extra.value : [];
        walk(children, `${key}${separator}`, extra.type === "list", depth + 1);
      } else {
        flat.push({ ...extra, key });
      }
    });
  };
  walk(extras, "", false);
  return flat;
}

/** Options of {@linkcode mergeExtras}. */
export interface MergeExtrasOptions {
  /** Whether new entries replace old flat entries with the same key. @default {false} */
  force?: boolean | undefined;
}

/**
 * Merges new top-level entries into old ones by key. A new entry whose key is taken is dropped,
 * unless `force` is set and the old entry is flat (not `dict`/`list`): then the old one is
 * removed. The result is the remaining old entries followed by the kept new ones.
 *
 * @example Usage
 * ```ts
 * import { mergeExtras } from "./metadata.ts";
 * const old = [{ key: "a", type: "int" as const, value: 1 }];
 * const added = [{ key: "a", type: "int" as const, value: 2 }, { key: "b", type: "str" as const, value: "x" }];
 * console.log(mergeExtras(old, added).map((e) => e.value)); // [1, "x"]
 * console.log(mergeExtras(old, added, { force: true }).map((e) => e.value)); // [2, "x"]
 * ```
 *
 * @param old The current entries.
 * @param added The entries to add.
 * @param options `force`.
 * @returns The merged entries.
 */
export function mergeExtras(
  old: readonly Extra[],
  added: readonly Extra[],
  options: MergeExtrasOptions = {},
): Extra[] {
  const { force = false } = options;
  const replaced = new Set<string>();
  const kept: Extra[] = [];
  for (const extra of added) {
    const clash = old.find((item) => item.key === extra.key);
    if (clash === undefined) kept.push(extra);
    else if (force && !NESTED_TYPES.includes(clash.type) && extra.key !== undefined) {
      replaced.add(extra.key);
      kept.push(extra);
    }
  }
  return [...old.filter((item) => item.key === undefined || !replaced.has(item.key)), ...kept];
}

function isObject(value: unknown): value is { [field: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (typeof value === "string") return `'${value}'`;
  if (typeof value === "bigint") return String(value);
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

function fail(
  at: Position,
  reason: string,
  type?: { allowedTypes: readonly string[]; givenType: unknown },
): never {
  const subject = at.name === undefined
    ? "Invalid metadatum"
    : `Invalid metadatum '${at.name.join(".")}'`;
  throw new MetadataError(`${subject} (${metadataPathText(at.path)}): ${reason}`, {
    path: at.path,
    keyPath: at.name,
    reason,
    ...type,
  });
}

/**
 * Writes a metadata path as code would: `extras[0].value[1].type`.
 *
 * @example Usage
 * ```ts
 * import { metadataPathText } from "./metadata.ts";
 * console.log(metadataPathText(["extras", 0, "value", 1, "type"])); // "extras[0].value[1].type"
 * ```
 *
 * @param path The array's name, then indices and field names.
 * @returns The path as text.
 */
export function metadataPathText(path: readonly (string | number)[]): string {
  return path.map((part, index) =>
    typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`
  ).join("");
}
