/**
 * The `users` group.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { topGroup } from "../_groups.ts";

/**
 * Builds the `users` group (its commands are added here as they are written).
 *
 * @example Usage
 * ```ts
 * import { usersCommand } from "./users.ts";
 * console.log(usersCommand().name()); // "users"
 * ```
 *
 * @returns The group.
 */
export function usersCommand(): Command {
  return topGroup("users");
}
