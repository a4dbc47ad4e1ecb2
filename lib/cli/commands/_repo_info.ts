// `get-repo-info` (in `config` and in `misc`): instance, host, server version, masked token, token user.

import { Command } from "@commander-js/extra-typings";
import { apyCommand } from "../apy_command.ts";
import { maskHost } from "../../config/mask.ts";
import { maskPat } from "./_config_edit.ts";

/** A new `get-repo-info` command. */
export function getRepoInfoCommand(): Command {
  const command = new Command("get-repo-info").description(
    "Show the instance, host, server version, masked personal access token and its user",
  );
  apyCommand(command, async (manager) => {
    const settings = await manager.settings();
    const info = await manager.info();
    const user = await manager.patUser();
    manager.printInfo(`Instance: ${settings.instance ?? "(none: host and pat given directly)"}`);
    manager.printInfo(`Host: ${maskHost(settings.host)}`);
    manager.printInfo(`Server version: ${info.version}`);
    manager.printInfo(`Personal access token: ${maskPat(settings.pat, 10, "***")}`);
    manager.printInfo(`Token user: ${user.displayname} (id ${user.id})`);
  });
  return command;
}
