/**
 * The `users` group: show a user and search users.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { addCommands } from "./_group.ts";
import { getUsersCommand, showUserCommand } from "./_users_commands.ts";

/**
 * Builds the `users` group: `show-info` and `get-users`.
 */
export function usersCommand(group: Command): Command {
  return addCommands(group, [showUserCommand, getUsersCommand], {
    "show-info": ["repo-apy users show-info -U jdoe -D local"],
    "get-users": ["repo-apy users get-users -f doe -n 50"],
  });
}
