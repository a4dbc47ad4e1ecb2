/**
 * The `groups` group: create, edit, inspect and delete groups and manage their members.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { changing } from "../_command_kind.ts";
import { addCommands } from "./_group.ts";
import {
  createResourceCommand,
  deleteResourceCommand,
  editResourceCommand,
} from "./_resources_basic.ts";
import { addUserCommand, removeUserCommand } from "./_roles.ts";
import { getResourcesCommand } from "./_resources_search.ts";
import { showResourceCommand } from "./_resources_show.ts";

/**
 * Builds the `groups` group with the reference client's commands (`create`, `edit`,
 * `show-info`, `delete`, `add-user`, `remove-user`, `get-groups`).
 */
export function groupsCommand(group: Command): Command {
  return addCommands(group, [
    ...changing(
      () => createResourceCommand("group"),
      () => editResourceCommand("group"),
    ),
    () => showResourceCommand("group"),
    ...changing(
      () => deleteResourceCommand("group"),
      () => addUserCommand("group"),
      () => removeUserCommand("group"),
    ),
    () =>
      getResourcesCommand(
        "group",
        "-i, --my_user_id",
        "List the groups you created (the reference client 0.48.1 sent this flag to the " +
          "server as a query parameter, which ignored it; this one does what the flag says)",
      ),
  ], EXAMPLES);
}

const EXAMPLES: { [command: string]: string[] } = {
  "create": ['repo-apy groups create -i lab-a -t "Lab A" -p   # prints the id'],
  "add-user": [
    "repo-apy groups add-user -G lab-a -U jdoe -D local -p editor   # again to change the role",
  ],
  "get-groups": ["repo-apy groups get-groups -i"],
};
