/**
 * The name a Kadi4Mat server stores for a requested file name. Kadi 1.13.0 passes file and upload
 * names through `kadi.lib.conversion.normalize` (`" ".join(value.split())`): leading and trailing
 * whitespace is dropped and every inner run of whitespace becomes one space, whitespace in
 * Python's sense (`str.isspace()`). A name that is empty after that is refused (400). Clients
 * compare a stored name with the requested one through this; the local server stores names
 * through it.
 *
 * @module
 */

/** Python's `str.isspace()` characters (`str.split()` with no argument splits at runs of them). */
const PYTHON_WHITESPACE =
  // deno-lint-ignore no-control-regex
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * The name the server stores when asked to store `name`.
 *
 * @example Usage
 * ```ts
 * import { serverFileName } from "./server_name.ts";
 * import assert from "node:assert";
 *
 * assert.strictEqual(serverFileName(" lead.txt"), "lead.txt");
 * assert.strictEqual(serverFileName("a \t b.txt"), "a b.txt");
 * assert.strictEqual(serverFileName("raw/run1.csv"), "raw/run1.csv");
 * ```
 *
 * @param name The requested name.
 * @returns The stored name (`""` when the server refuses it as empty).
 */
export function serverFileName(name: string): string {
  return name.replace(PYTHON_WHITESPACE, " ").replace(/^ | $/g, "");
}
