// `users show-info` and `get-users`.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { UserJson } from "../../http/protocol.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand } from "../apy_command.ts";
import { userIdOptions } from "../options.ts";
import { resolveUser } from "./_records_common.ts";
import { terminalLine } from "../_terminal_text.ts";
import { filteredListCommand } from "./_filtered_list.ts";

function describeUser(user: UserJson): string {
  const identity = user.identity;
  return `${terminalLine(user.displayname)} (id: ${user.id}, username: ${
    terminalLine(identity?.username ?? "?")
  }, identity type: ${terminalLine(identity?.type ?? "?")})`;
}

/** `users show-info`: display name, id, username and identity type of a user. */
export function showUserCommand(): CommandUnknownOpts {
  const command = readingCommand(
    userIdOptions(
      new Command("show-info")
        .description("Show a user: display name, id, username and identity type"),
    ),
    { what: "the user as the server sends it" },
  );
  apyCommand(command, async (manager, options) => {
    const user = await (await resolveUser(manager, options)).meta();
    const mode = jsonMode(options);
    if (mode !== undefined) {
      printJson(manager.output, user, mode);
      return;
    }
    manager.output.text(`Display name: ${terminalLine(user.displayname)}`);
    manager.output.text(`ID: ${user.id}`);
    manager.output.text(`Username: ${terminalLine(user.identity?.username ?? "?")}`);
    manager.output.text(`Identity type: ${terminalLine(user.identity?.type ?? "?")}`);
  });
  return command;
}

/** `users get-users`: one page of users, with their usernames, or all with `--json`. */
export function getUsersCommand(): CommandUnknownOpts {
  return filteredListCommand({
    name: "get-users",
    description: "Search users by display name or username (one page)",
    filterHelp: "Filter by display name or username",
    json: "the users",
    what: "user(s)",
    page: (manager, query) => manager.search.searchUsers(query),
    all: (manager, query) => manager.search.users(query),
    line: describeUser,
  });
}
