/**
 * The `groups` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { createGroup } from "./_group.ts";

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
  return createGroup("groups", "Manage groups");
}
