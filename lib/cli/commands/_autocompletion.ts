// `config activate-autocompletion`: writes the completion script and sources it from the shell's rc.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { homePath } from "../../config/path.ts";
import { contextOf } from "../_context.ts";
import { COMPLETION_SHELLS, completionScript, type CompletionShell } from "../completions.ts";

/** A new `activate-autocompletion` command. */
export function activateAutocompletionCommand(): CommandUnknownOpts {
  const command = new Command("activate-autocompletion")
    .description("Install shell completion for repo-apy (bash, zsh or fish)")
    .addOption(
      new Option("-s, --shell <shell>", "Shell to complete in").choices(COMPLETION_SHELLS)
        .makeOptionMandatory(),
    );
  command.action(async (options, self) => {
    await activate(self, options.shell);
  });
  return command;
}

async function activate(command: CommandUnknownOpts, shell: CompletionShell): Promise<void> {
  const { output } = contextOf(command);
  let root = command;
  while (root.parent !== null) root = root.parent;
  const name = root.name();
  const script = completionScript(root, shell);
  if (shell === "fish") {
    const path = homePath(`.config/fish/completions/${name}.fish`);
    const dir = path.slice(0, Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")));
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(path, script);
    output.info(`Wrote the fish completion script to ${path}: fish loads it in new shells`);
    return;
  }
  const scriptPath = homePath(`.${name}-complete.${shell}`);
  const rcPath = homePath(`.${shell}rc`);
  await Deno.writeTextFile(scriptPath, script);
  const line = `source "${scriptPath}"`;
  const rc = await Deno.readTextFile(rcPath).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  });
  if (rc.split("\n").some((existing) => existing.trim() === line)) {
    output.info(
      `Autocompletion for ${shell} is already activated in ${rcPath}; updated ${scriptPath}`,
    );
    return;
  }
  const prefix = rc === "" || rc.endsWith("\n") ? "" : "\n";
  await Deno.writeTextFile(rcPath, `${prefix}${line}\n`, { append: true });
  output.info(
    `Wrote the ${shell} completion script to ${scriptPath} and added '${line}' to ${rcPath}: ` +
      `open a new shell to use it`,
  );
}
