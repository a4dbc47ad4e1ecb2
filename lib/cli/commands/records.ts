/**
 * The `records` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { createGroup } from "./_group.ts";

/**
 * Builds the `records` group (its commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { recordsCommand } from "./records.ts";
 * console.log(recordsCommand().name()); // "records"
 * ```
 *
 * @returns The group.
 */
export function recordsCommand(): Command {
  return createGroup("records", "Manage records");
}
