/**
 * The `groups` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { topGroup } from "../_groups.ts";

/**
 * Builds the `groups` group (its commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { groupsCommand } from "./groups.ts";
 * console.log(groupsCommand().name()); // "groups"
 * ```
 *
 * @returns The group.
 */
export function groupsCommand(): Command {
  return topGroup("groups");
}
