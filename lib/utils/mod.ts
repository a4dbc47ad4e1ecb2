/**
 * Utilities: identifiers from arbitrary text.
 *
 * @example Usage
 * ```ts
 * import { generateIdentifier } from "./mod.ts";
 * console.log(generateIdentifier("My Record 1")); // "my-record-1"
 * ```
 *
 * @module
 */

export * from "./identifier.ts";
