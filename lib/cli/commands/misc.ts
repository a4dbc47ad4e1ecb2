/**
 * The `misc` group (alias `miscellaneous`).
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { topGroup } from "../_groups.ts";
import { getRepoInfoCommand } from "./_repo_info.ts";

/**
 * Builds the `misc` group: `get-repo-info` (more commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { miscCommand } from "./misc.ts";
 * console.log(miscCommand().aliases()); // ["miscellaneous"]
 * ```
 *
 * @returns The group.
 */
export function miscCommand(): Command {
  const group = topGroup("misc");
  group.addCommand(getRepoInfoCommand());
  return group;
}
