/**
 * The `users` group: show a user and search users.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { addCommands, topGroup } from "../_groups.ts";
import { getUsersCommand, showUserCommand } from "./_users_commands.ts";

/**
 * Builds the `users` group: `show-info` and `get-users`.
 *
 * @example Usage
 * ```ts
 * import { usersCommand } from "./users.ts";
 * console.log(usersCommand().commands.map((command) => command.name())); // ["show-info", "get-users"]
 * ```
 *
 * @returns The group.
 */
export function usersCommand(): Command {
  return addCommands(topGroup("users"), [showUserCommand, getUsersCommand], {
    "show-info": ["repo-apy users show-info -U jdoe -D local"],
    "get-users": ["repo-apy users get-users -f doe -n 50"],
  });
}
