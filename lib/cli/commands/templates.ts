/**
 * The `templates` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { topGroup } from "../_groups.ts";

/**
 * Builds the `templates` group (its commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { templatesCommand } from "./templates.ts";
 * console.log(templatesCommand().name()); // "templates"
 * ```
 *
 * @returns The group.
 */
export function templatesCommand(): Command {
  return topGroup("templates");
}
