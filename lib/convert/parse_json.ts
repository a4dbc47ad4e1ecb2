/**
 * A lossless JSON parser: numbers keep the text they were written as (so `1.0` stays a float
 * and `9007199254740993` keeps every digit), and objects keep their key order, integer-like keys
 * included. It accepts what Python's `json.loads` accepts, `NaN`, `Infinity` and `-Infinity`
 * included, so plain JSON converts exactly as in the reference client.
 *
 * @module
 */

import { InputError } from "../errors.ts";

/**
 * A JSON number as written. `isInteger` follows Python's `json` module: a number is an integer
 * when it has neither a fraction nor an exponent (`1` is an integer, `1.0` and `1e3` are floats).
 *
 * @example Usage
 * ```ts
 * import { JsonNumber } from "./parse_json.ts";
 * import assert from "node:assert";
 *
 * const big = new JsonNumber("9007199254740993");
 * assert.strictEqual(big.isInteger, true);
 * assert.strictEqual(big.toBigInt(), 9007199254740993n);
 * assert.strictEqual(new JsonNumber("2e5").toNumber(), 200000);
 * assert.throws(() => new JsonNumber("1.5").toBigInt(), RangeError); // a float
 * ```
 */
export class JsonNumber {
  /** The number's JSON text (`NaN`, `Infinity` and `-Infinity` included). */
  readonly text: string;
  /** Whether the text is an integer (no fraction, no exponent). */
  readonly isInteger: boolean;

  /**
   * Wraps a number's JSON text.
   *
   * @param text The text, e.g. `"1.0"`, `"-12"`, `"2e5"`.
   */
  constructor(text: string) {
    this.text = text;
    this.isInteger = /^-?\d+$/.test(text);
  }

  /**
   * The value as a JavaScript number (rounded when it has more precision).
   */
  toNumber(): number {
    if (this.text === "NaN") return NaN;
    if (this.text.endsWith("Infinity")) return this.text.startsWith("-") ? -Infinity : Infinity;
    return Number(this.text);
  }

  /**
   * The exact value of an integer; throws a `RangeError` for a float.
   */
  toBigInt(): bigint {
    if (!this.isInteger) throw new RangeError(`Cannot read '${this.text}' as an integer`);
    return BigInt(this.text);
  }
}

/** A parsed JSON value: objects are `Map`s in document order, numbers are {@link JsonNumber}s. */
export type JsonValue =
  | null
  | boolean
  | string
  | JsonNumber
  | JsonValue[]
  | Map<string, JsonValue>;

/** Options of {@link parseJson}. */
export interface ParseJsonOptions {
  /** Deepest nesting of arrays and objects accepted. @default {512} */
  maxDepth?: number;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: { [char: string]: string } = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Parses JSON text without losing number precision or key order. A repeated key keeps its first
 * position and its last value, as in Python.
 *
 * @example Usage
 * ```ts
 * import { JsonNumber, jsonValueToPlain, parseJson } from "./parse_json.ts";
 * const value = parseJson("[1, 1.0, null]");
 * console.log(Array.isArray(value) && value.map((v) => v instanceof JsonNumber && v.isInteger));
 * // [true, false, false]
 * console.log(jsonValueToPlain(parseJson('{"a": [1, 2.5, 9007199254740993]}')));
 * // { a: [1, 2.5, 9007199254740993n] }
 * ```
 *
 * @throws {InputError} When the text is not valid JSON, saying where.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): JsonValue {
  const { maxDepth = 512 } = options;
  let pos = 0;

  function fail(what: string): never {
    const line = text.slice(0, pos).split("\n").length;
    const column = pos - text.lastIndexOf("\n", pos - 1);
    throw new InputError(`Invalid JSON: ${what} at line ${line} column ${column}`);
  }

  function skip(): void {
    while (pos < text.length && WHITESPACE.has(text[pos] as string)) pos++;
  }

  function literal(word: string, value: JsonValue): JsonValue {
    if (!text.startsWith(word, pos)) fail("unexpected character");
    pos += word.length;
    return value;
  }

  function string(): string {
    pos++; // opening quote
    let out = "";
    let start = pos;
    while (true) {
      if (pos >= text.length) fail("unterminated string");
      const char = text[pos] as string;
      if (char === '"') {
        out += text.slice(start, pos);
        pos++;
        return out;
      }
      if (char < " ") fail("control character in string");
      if (char !== "\\") {
        pos++;
        continue;
      }
      out += text.slice(start, pos);
      const escape = text[pos + 1];
      if (escape === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("invalid \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (escape !== undefined && escape in ESCAPES) {
        out += ESCAPES[escape];
        pos += 2;
      } else fail("invalid escape");
      start = pos;
    }
  }

  function number(): JsonNumber {
    for (const special of ["NaN", "Infinity", "-Infinity"]) {
      if (text.startsWith(special, pos)) {
        pos += special.length;
        return new JsonNumber(special);
      }
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match === null) fail("unexpected character");
    pos += match[0].length;
    return new JsonNumber(match[0]);
  }

  function value(depth: number): JsonValue {
    skip();
    const char = text[pos];
    if (char === undefined) fail("unexpected end of input");
    if (char === "{" || char === "[") {
      if (depth >= maxDepth) fail(`nesting deeper than ${maxDepth} levels`);
      return char === "{" ? object(depth + 1) : array(depth + 1);
    }
    if (char === '"') return string();
    if (char === "t") return literal("true", true);
    if (char === "f") return literal("false", false);
    if (char === "n") return literal("null", null);
    return number();
  }

  function array(depth: number): JsonValue[] {
    pos++;
    const items: JsonValue[] = [];
    skip();
    if (text[pos] === "]") {
      pos++;
      return items;
    }
    while (true) {
      items.push(value(depth));
      skip();
      if (text[pos] === ",") pos++;
      else if (text[pos] === "]") {
        pos++;
        return items;
      } else fail("expected ',' or ']'");
    }
  }

  function object(depth: number): Map<string, JsonValue> {
    pos++;
    const entries = new Map<string, JsonValue>();
    skip();
    if (text[pos] === "}") {
      pos++;
      return entries;
    }
    while (true) {
      skip();
      if (text[pos] !== '"') fail("expected a key in double quotes");
      const key = string();
      skip();
      if (text[pos] !== ":") fail("expected ':'");
      pos++;
      entries.set(key, value(depth));
      skip();
      if (text[pos] === ",") pos++;
      else if (text[pos] === "}") {
        pos++;
        return entries;
      } else fail("expected ',' or '}'");
    }
  }

  const result = value(0);
  skip();
  if (pos < text.length) fail("extra data after the value");
  return result;
}

/**
 * Turns a {@link parseJson} result into plain JavaScript values (shown there): `Map`s become objects (own
 * properties, so a `__proto__` key stays a key), integers numbers when they fit in ±(2^53−1)
 * and bigints otherwise, floats numbers.
 */
export function jsonValueToPlain(value: JsonValue): unknown {
  if (value instanceof JsonNumber) {
    if (!value.isInteger) return value.toNumber();
    const big = value.toBigInt();
    return big >= -MAX_SAFE && big <= MAX_SAFE ? Number(big) : big;
  }
  if (Array.isArray(value)) return value.map(jsonValueToPlain);
  if (value instanceof Map) {
    const result: { [key: string]: unknown } = {};
    for (const [key, child] of value) {
      Object.defineProperty(result, key, {
        value: jsonValueToPlain(child),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return result;
  }
  return value;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
