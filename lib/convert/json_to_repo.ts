/**
 * Plain JSON to the repository's extra metadata (client-reference §4.1).
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { type Extra, EXTRAS_MAX_INTEGER, EXTRAS_MIN_INTEGER } from "../http/protocol.ts";
import { normalizeIsoDate } from "./is_iso_date.ts";
import { JsonNumber } from "./parse_json.ts";

/** Options of {@link jsonToRepo}. */
export interface JsonToRepoOptions {
  /**
   * Turn integers outside ±(2^53−1) into `str` entries holding their decimal digits. Without
   * it such an integer is refused.
   * @default {false}
   */
  convertInvalidInts?: boolean;
  /** Value used for every `null` instead of leaving the entry out (typed like any value). */
  fallbackValue?: unknown;
  /**
   * Store a date as Python's `isoformat()` of the parsed value (`"2020-W01"` becomes
   * `"2019-12-30T00:00:00"`), as the server stores dates (and the reference client before 0.48).
   * Without it the original string is kept; a server that only takes
   * `YYYY-MM-DD[Thh:mm[:ss]][zone]` then rejects the shorter forms.
   * @default {false}
   */
  normalizeDates?: boolean;
}

const MAX = BigInt(EXTRAS_MAX_INTEGER);
const MIN = BigInt(EXTRAS_MIN_INTEGER);

/**
 * Converts plain JSON to extra metadata with the reference client's rules: an object gives one
 * entry per key in order, an array gives entries keyed `"1"`, `"2"`, … at the top level and keyless
 * inside lists, any other value is one entry keyed `"1"`; `null` is left out unless
 * `fallbackValue` is given; objects become `dict`, arrays `list`; numbers are `int` or `float` as
 * written (pass the result of {@link parseJson} to keep `1.0` a float — a plain JavaScript number
 * is an `int` when it is whole); a string without `_` that dateutil's `isoparse` accepts is a
 * `date` (the string is kept as is), other strings are `str`; booleans are `bool`.
 *
 * @example Usage
 * ```ts
 * import { jsonToRepo, parseJson } from "../../mod.ts";
 * console.log(jsonToRepo({ l: [1, "a", [true]] }));
 * // [{ key: "l", type: "list", value: [
 * //   { type: "int", value: 1 }, { type: "str", value: "a" },
 * //   { type: "list", value: [{ type: "bool", value: true }] },
 * // ] }]
 * const data = parseJson('{"n": 9007199254740992}'); // beyond ±(2^53−1)
 * console.log(jsonToRepo(data, { convertInvalidInts: true }));
 * // [{ key: "n", type: "str", value: "9007199254740992" }]
 * ```
 *
 * @param data Parsed JSON: a {@link parseJson} result or plain JavaScript values (objects,
 *   arrays, `Map`s, strings, numbers, bigints, booleans, `null`; `undefined` counts as `null`).
 * @throws {InputError} For an integer outside ±(2^53−1) without `convertInvalidInts`, or a
 *   value JSON cannot hold (a function, a symbol, a non-plain object).
 */
export function jsonToRepo(data: unknown, options: JsonToRepoOptions = {}): Extra[] {
  return convert(data, options, false, "");
}

function entriesOf(data: unknown): [string, unknown][] {
  if (data instanceof Map) return [...data].map(([key, value]) => [String(key), value]);
  if (Array.isArray(data)) return data.map((value, index) => [String(index + 1), value]);
  if (isPlainObject(data)) return Object.entries(data);
  return [["1", data]];
}

function isPlainObject(value: unknown): value is { [key: string]: unknown } {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function convert(data: unknown, options: JsonToRepoOptions, inList: boolean, at: string): Extra[] {
  const extras: Extra[] = [];
  for (const [key, raw] of entriesOf(data)) {
    let value = raw;
    if (value === null || value === undefined) {
      if (options.fallbackValue === undefined || options.fallbackValue === null) continue;
      value = options.fallbackValue;
    }
    const path = at === "" ? key : `${at}.${key}`;
    const typed = typeOf(value, options, path);
    extras.push(inList ? typed : { key, ...typed });
  }
  return extras;
}

function typeOf(value: unknown, options: JsonToRepoOptions, path: string): Extra {
  if (Array.isArray(value)) return { type: "list", value: convert(value, options, true, path) };
  if (value instanceof Map || isPlainObject(value)) {
    return { type: "dict", value: convert(value, options, false, path) };
  }
  if (typeof value === "string") {
    const date = value.includes("_") ? undefined : normalizeIsoDate(value);
    if (date === undefined) return { type: "str", value };
    return { type: "date", value: options.normalizeDates === true ? date : value };
  }
  if (typeof value === "boolean") return { type: "bool", value };
  if (value instanceof JsonNumber) {
    return value.isInteger
      ? integer(value.toBigInt(), options, path)
      : { type: "float", value: value.toNumber() };
  }
  if (typeof value === "bigint") return integer(value, options, path);
  if (typeof value === "number") {
    return Number.isInteger(value) ? integer(BigInt(value), options, path) : {
      type: "float",
      value,
    };
  }
  throw new InputError(`Cannot convert the value at '${path}' to metadata: it is not JSON`);
}

function integer(value: bigint, options: JsonToRepoOptions, path: string): Extra {
  if (value >= MIN && value <= MAX) return { type: "int", value: Number(value) };
  if (options.convertInvalidInts === true) return { type: "str", value: value.toString() };
  throw new InputError(
    `The integer at '${path}' (${value}) is outside the range the repository stores ` +
      `(±${EXTRAS_MAX_INTEGER}): convert such integers to strings (convertInvalidInts, ` +
      "--convert-invalid-ints) or change the value",
  );
}
