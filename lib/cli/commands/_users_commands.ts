// `users show-info` and `get-users`.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { UserJson } from "../../http/protocol.ts";
import { apyCommand } from "../apy_command.ts";
import { searchPaginationOptions, userIdOptions } from "../options.ts";
import { resolveUser } from "./_records_common.ts";
import { pageParams, printable, printPage } from "./_resources_common.ts";

function describeUser(user: UserJson): string {
  const identity = user.identity;
  return `${printable(user.displayname)} (id: ${user.id}, username: ${
    printable(identity?.username ?? "?")
  }, identity type: ${printable(identity?.type ?? "?")})`;
}

/** `users show-info`: display name, id, username and identity type of a user. */
export function showUserCommand(): CommandUnknownOpts {
  const command = userIdOptions(
    new Command("show-info")
      .description("Show a user: display name, id, username and identity type")
      .option("--json", "Print the user as the server sends it (JSON) on stdout"),
  );
  apyCommand(command, async (manager, options) => {
    const user = await (await resolveUser(manager, options)).meta();
    if (options.json === true) {
      manager.output.json(user);
      return;
    }
    manager.printInfo(`Display name: ${printable(user.displayname)}`);
    manager.printInfo(`ID: ${user.id}`);
    manager.printInfo(`Username: ${printable(user.identity?.username ?? "?")}`);
    manager.printInfo(`Identity type: ${printable(user.identity?.type ?? "?")}`);
  });
  return command;
}

/** `users get-users`: one page of users, with their usernames. */
export function getUsersCommand(): CommandUnknownOpts {
  const command = searchPaginationOptions(
    new Command("get-users")
      .description("Search users by display name or username (one page)")
      .option("-f, --filter <text>", "Filter by display name or username", "")
      .option("--json", "Print the page as the server sends it (JSON) on stdout"),
  );
  apyCommand(command, async (manager, options) => {
    const query = { ...pageParams(options), ...(options.filter ? { filter: options.filter } : {}) };
    printPage(manager, await manager.search.searchUsers(query), {
      what: "user(s)",
      json: options.json,
      line: describeUser,
    });
  });
  return command;
}
