/**
 * Utilities: identifiers from arbitrary text, file-name globs, safe local names for server names,
 * resource types.
 *
 * @example Usage
 * ```ts
 * import { generateIdentifier, globToRegExp } from "./mod.ts";
 * console.log(generateIdentifier("My Record 1")); // "my-record-1"
 * console.log(globToRegExp("*.csv").test("data.csv")); // true
 * ```
 *
 * @module
 */

export * from "./file_name.ts";
export * from "./glob.ts";
export * from "./identifier.ts";
export * from "./resource_type.ts";
export * from "./part_file.ts";
