/**
 * Identifier helpers: turning any text into a valid resource identifier.
 *
 * @module
 */

import { IDENTIFIER_MAX_LENGTH } from "../http/protocol.ts";

/**
 * Creates an identifier from arbitrary text: lower-cased, every character outside `a-z`, `0-9`,
 * `-`, `_` and space deleted, each run of spaces turned into one `-`, cut to 50 characters.
 *
 * @example Usage
 * ```ts
 * import { generateIdentifier } from "./identifier.ts";
 * console.log(generateIdentifier("Äpfel & Birnen!")); // "pfel-birnen"
 * ```
 *
 * @param value Any text.
 * @returns The identifier.
 */
export function generateIdentifier(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9\-_ ]/g, "").replace(/ +/g, "-").slice(
    0,
    IDENTIFIER_MAX_LENGTH,
  );
}

/**
 * Appends a suffix to an identifier with `_`, shortening the identifier so the result stays within
 * 50 characters.
 *
 * @example Usage
 * ```ts
 * import { appendIdentifierSuffix } from "./identifier.ts";
 * console.log(appendIdentifierSuffix("x".repeat(50), "v").length); // 50
 * ```
 *
 * @param identifier The identifier.
 * @param suffix The suffix; normalized like an identifier.
 * @returns The identifier with the suffix.
 */
export function appendIdentifierSuffix(identifier: string, suffix: string): string {
  const clean = generateIdentifier(suffix.trim()).replace(/^[-_]+|[-_]+$/g, "").slice(
    0,
    IDENTIFIER_MAX_LENGTH - 1,
  );
  return `${identifier.slice(0, IDENTIFIER_MAX_LENGTH - 1 - clean.length)}_${clean}`;
}
