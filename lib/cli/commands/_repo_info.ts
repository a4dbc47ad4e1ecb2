// `get-repo-info` (in `config` and in `misc`): instance, host, server version, masked token, token user.

import { Command } from "@commander-js/extra-typings";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand, type ApyOptions } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { maskHost } from "../../config/mask.ts";
import { maskPat } from "./_config_edit.ts";

/** A new `get-repo-info` command. */
export function getRepoInfoCommand(): Command {
  const command = readingCommand(
    new Command("get-repo-info").description(
      "Show the instance, host, server version, masked personal access token and its user",
    ),
    {
      what: '{"instance", "host", "info" (the server\'s /info answer), "pat" (masked), "user" ' +
        "(the token's user as the server sends it)}",
    },
  );
  apyCommand(command, getRepoInfo);
  return command;
}

/** Runs `get-repo-info`. */
async function getRepoInfo(manager: CLIRepoManager, options: ApyOptions): Promise<void> {
  const settings = await manager.settings();
  const info = await manager.info();
  const user = await manager.patUser();
  const mode = jsonMode(options);
  if (mode !== undefined) {
    const pat = maskPat(settings.pat, 10, "***");
    const instance = settings.instance ?? null;
    printJson(
      manager.output,
      { instance, host: maskHost(settings.host), info, pat, user },
      mode,
    );
    return;
  }
  manager.output.text(`Instance: ${settings.instance ?? "(none: host and pat given directly)"}`);
  manager.output.text(`Host: ${maskHost(settings.host)}`);
  manager.output.text(`Server version: ${info.version}`);
  manager.output.text(`Personal access token: ${maskPat(settings.pat, 10, "***")}`);
  manager.output.text(`Token user: ${user.displayname} (id ${user.id})`);
}
