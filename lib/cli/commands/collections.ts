/**
 * The `collections` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { createGroup } from "./_group.ts";

/**
 * Builds the `collections` group (its commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { collectionsCommand } from "./collections.ts";
 * console.log(collectionsCommand().name()); // "collections"
 * ```
 *
 * @returns The group.
 */
export function collectionsCommand(): Command {
  return createGroup("collections", "Manage collections");
}
