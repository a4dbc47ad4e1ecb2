// JSON text that keeps a float a float. JavaScript has one number type, so `3.0` parses as `3`
// and prints as `3`; the repository (Python) keeps `3.0` a float. A metadata entry says its type,
// so a whole number in a `float` entry (its value, its range, its options) is written `3.0` again,
// as the server and the Python client write it. Used for request bodies, `--json` output and the
// local server's answers.

/** `JSON.rawJSON` (V8, Deno 2) is not in TypeScript's lib yet. */
const RAW = JSON as JSON & {
  rawJSON(text: string): object;
  isRawJSON(value: unknown): boolean;
};

/** `3` → `3.0`, `-0` → `-0.0`; other numbers (`2.5`, `1e+21`) already read as floats. */
function floatNumber(value: number): unknown {
  if (!Number.isFinite(value)) return value;
  const text = Object.is(value, -0) ? "-0" : String(value);
  return /^-?\d+$/.test(text) ? RAW.rawJSON(`${text}.0`) : value;
}

/**
 * A float's value (or an array of them) marked to be written as a float by `JSON.stringify`:
 * for a value outside a `float` entry, e.g. an extra's value in the plain extras export.
 *
 * @example Usage
 * ```ts
 * import { floatValues } from "./_float_json.ts";
 * console.log(JSON.stringify({ t: floatValues(3), u: floatValues(2.5) })); // {"t":3.0,"u":2.5}
 * ```
 */
export function floatValues(value: unknown): unknown {
  if (typeof value === "number") return floatNumber(value);
  if (Array.isArray(value)) return value.map(floatValues);
  return value;
}

function floatValidation(validation: unknown): unknown {
  if (validation === null || typeof validation !== "object" || Array.isArray(validation)) {
    return validation;
  }
  const copy: { [key: string]: unknown } = { ...validation };
  if (copy.range !== null && typeof copy.range === "object" && !Array.isArray(copy.range)) {
    const range: { [key: string]: unknown } = { ...copy.range };
    for (const bound of ["min", "max"]) {
      if (range[bound] !== undefined) range[bound] = floatValues(range[bound]);
    }
    copy.range = range;
  }
  if (Array.isArray(copy.options)) copy.options = copy.options.map(floatValues);
  return copy;
}

/**
 * `value` with every metadata entry of type `float` (an object with `type: "float"`, at any depth)
 * having its whole-number `value`, range bounds and options marked to be written as floats (`3.0`)
 * by `JSON.stringify`. Everything else is left as it is: only the objects and arrays on the way to
 * a changed entry are copied, so a value without such entries is returned itself, unchanged.
 *
 * @example Usage
 * ```ts
 * import { keepFloats } from "./_float_json.ts";
 * const extras = [{ key: "t", type: "float", value: 3 }, { key: "n", type: "int", value: 3 }];
 * console.log(JSON.stringify(keepFloats(extras)));
 * // [{"key":"t","type":"float","value":3.0},{"key":"n","type":"int","value":3}]
 * console.log(keepFloats(extras[1]) === extras[1]); // true
 * ```
 */
export function keepFloats(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const kept = keepFloats(value[index]);
      if (kept !== value[index]) (copy ??= [...value])[index] = kept;
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  const entries = value as { [key: string]: unknown };
  let copy: { [key: string]: unknown } | undefined;
  for (const key of Object.keys(entries)) {
    const kept = keepFloats(entries[key]);
    if (kept !== entries[key]) (copy ??= { ...entries })[key] = kept;
  }
  if (entries.type !== "float") return copy ?? value;
  copy ??= { ...entries };
  if ("value" in copy) copy.value = floatValues(copy.value);
  if ("validation" in copy) copy.validation = floatValidation(copy.validation);
  return copy;
}

function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== "object" || RAW.isRawJSON(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `JSON.stringify` that writes whole numbers of `float` metadata entries as floats (`3.0`).
 *
 * @example Usage
 * ```ts
 * import { stringifyJson } from "./_float_json.ts";
 * console.log(stringifyJson({ type: "float", value: -0 })); // {"type":"float","value":-0.0}
 * ```
 */
export function stringifyJson(value: unknown, indent?: number): string {
  const plain = JSON.stringify(value, null, indent);
  // No string "float" anywhere: no float entry to mark, and the plain text is the answer.
  return plain?.includes('"float"') ? JSON.stringify(keepFloats(value), null, indent) : plain;
}
