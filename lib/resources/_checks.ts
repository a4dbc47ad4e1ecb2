/**
 * Argument checks shared by the resource classes; each throws {@linkcode InputError} before any
 * request is sent.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { checkId } from "../http/paths.ts";

/**
 * Checks that an id is a positive integer.
 *
 * @param id The id.
 * @param what What the id belongs to, for the message (`user id`).
 * @returns The id.
 */
export function requireId(id: number, what: string): number {
  return checkId(id, what);
}

/**
 * Checks that a text is a non-empty string.
 *
 * @param text The text.
 * @param what What the text is, for the message (`link name`).
 * @returns The text.
 */
export function requireText(text: string, what: string): string {
  if (typeof text !== "string" || text.trim() === "") {
    throw new InputError(`The ${what} is empty: give a non-empty ${what}`);
  }
  return text;
}
