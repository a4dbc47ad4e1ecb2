/**
 * The `collections` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { topGroup } from "../_groups.ts";

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
  return topGroup("collections");
}
