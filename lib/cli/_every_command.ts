// What every command of the tree gets (`finishCommand`): `--version`, `--xmlhelp`, `--commands`
// and examples on groups, required options marked in help, choices in any case, no
// `process.exit` (errors are thrown to `runCli()`), and all printing through one Output.

import {
  CommanderError,
  type CommandUnknownOpts,
  Help,
  InvalidArgumentError,
  Option,
} from "@commander-js/extra-typings";
import { commandPath, isGroup, shortDescription, walkCommands } from "./_tree.ts";
import { commandExamples } from "./commands/_group.ts";
import { layoutHelp } from "./_help_layout.ts";
import type { Output } from "./output.ts";
import { xmlHelp } from "./xml_help.ts";

/**
 * Hand-picked examples of the groups' help; a group without them shows the first example of its
 * first commands that have one. Every group also gets two from its tree.
 */
const GROUP_EXAMPLES: { [group: string]: string[] } = {
  config: [
    "repo-apy config create && repo-apy config set-host && repo-apy config set-pat",
    "repo-apy config show-instances",
  ],
  records: [
    'repo-apy records create -i sample-17 -t "Sample 17" -p   # prints the id',
    "repo-apy records add-files -R sample-17 -n data/ -p '*.h5'",
    "repo-apy records get-file -R sample-17 -P '*.h5' -p out/",
  ],
};

function groupExamples(group: CommandUnknownOpts): string {
  const first = group.commands.find((command) => !isGroup(command));
  const picked = GROUP_EXAMPLES[group.name()] ??
    group.commands.flatMap((command) => commandExamples(command).slice(0, 1)).slice(0, 3);
  const lines = [
    ...picked,
    ...(first === undefined
      ? []
      : [`repo-apy help ${commandPath(first).split(" ").slice(1).join(" ")}`]),
    `${commandPath(group)} --commands`,
  ];
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`;
}

/** Help that marks required options, so `--help` says what `--xmlhelp` says. */
class ApyHelp extends Help {
  override optionDescription(option: Parameters<Help["optionDescription"]>[0]): string {
    const text = super.optionDescription(option);
    return option.mandatory ? `${text} (required)` : text;
  }
}

/**
 * Lets a choice be given in any case, as the reference client does (`-v PUBLIC`): the value is
 * replaced by its canonical form before the option's own parser sees it; help and errors list the
 * canonical forms.
 */
function caseInsensitiveChoices(option: Option): void {
  const choices = option.argChoices;
  const parse = option.parseArg;
  if (choices === undefined || parse === undefined) return;
  option.parseArg = <T>(value: string, previous: T): T => {
    const canonical = choices.find((choice) => choice.toLowerCase() === value.toLowerCase());
    if (canonical === undefined) {
      throw new InvalidArgumentError(`Allowed choices are ${choices.join(", ")}.`);
    }
    return parse(canonical, previous);
  };
}

/**
 * Gives `command` the behaviour every command shares: case-insensitive choices, help that marks
 * required options, `--version`, `--xmlhelp`, errors thrown instead of exiting, all printing
 * through `output` laid out `width` columns wide; groups also get `--commands` and examples.
 */
export function finishCommand(
  command: CommandUnknownOpts,
  output: Output,
  version: string,
  width: number,
): void {
  for (const option of command.options) caseInsensitiveChoices(option);
  command.createHelp = () => Object.assign(new ApyHelp(), command.configureHelp());
  command
    .helpCommand(false)
    .enablePositionalOptions()
    .helpOption("-h, --help", "Print this help and exit")
    .exitOverride()
    .showHelpAfterError("(add --help for usage)")
    .configureOutput({
      // Commander writes help (and the version) through these, rendered unwrapped; one layout
      // for the terminal serves them and the cached help (`main()`). Errors are written as they are.
      writeOut: (text) => output.writeOut(layoutHelp(text, width)),
      writeErr: (text) => output.writeErr(layoutHelp(text, width)),
      outputError: (text) => output.writeErr(text),
      getOutHelpWidth: () => Infinity,
      getErrHelpWidth: () => Infinity,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
      stripColor: (text) => text,
    })
    .version(version, "--version", "Print the version and exit");
  command.addOption(new Option("--xmlhelp", "Print an XML description of this command and exit"));
  command.on("option:xmlhelp", () => {
    output.writeOut(xmlHelp(command));
    throw new CommanderError(0, "repo-apy.xmlhelp", "(xmlhelp)");
  });
  if (!isGroup(command)) return;
  if (command.parent !== null) command.addHelpText("after", () => groupExamples(command));
  command.addOption(new Option("--commands", "Print all commands of this group and exit"));
  command.on("option:commands", () => {
    output.writeOut(commandList(command));
    throw new CommanderError(0, "repo-apy.commands", "(commands)");
  });
  if (command.commands.length === 0) {
    command.action(() => command.help({ error: true }));
  }
}

function commandList(group: CommandUnknownOpts): string {
  const rows: [string, string][] = [];
  for (const command of walkCommands(group)) {
    if (command !== group && !isGroup(command)) {
      rows.push([commandPath(command), shortDescription(command)]);
    }
  }
  if (rows.length === 0) return `${commandPath(group)} has no commands yet\n`;
  const width = Math.max(...rows.map(([path]) => path.length));
  return rows.map(([path, description]) => `${path.padEnd(width)}  ${description}\n`).join("");
}
