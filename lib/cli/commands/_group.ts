// Creates a command group (gets `--commands` and shows its help when called without a command),
// and fills one with commands and their usage examples.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { markGroup } from "../_tree.ts";

/** A new group named `name`. */
export function createGroup(name: string, description: string): Command {
  const group = new Command(name).description(description);
  markGroup(group);
  return group;
}

const examples: WeakMap<object, readonly string[]> = new WeakMap();

/** The usage examples `addCommands` gave `command` (none: an empty list). */
export function commandExamples(command: CommandUnknownOpts): readonly string[] {
  return examples.get(command) ?? [];
}

const only: WeakMap<object, string> = new WeakMap();

/**
 * Makes {@linkcode addCommands} fill `group` with the one command called `name` (by name or
 * alias) when the group has it, and with every command otherwise: a run that names a command
 * builds only that one (start-up time), a typo still gets every sibling to suggest from.
 */
export function onlyCommand(group: Command, name: string): Command {
  only.set(group, name);
  return group;
}

/** Adds the commands `builders` make to `group`, each with its usage examples at the end of its help. */
export function addCommands(
  group: Command,
  builders: readonly (() => CommandUnknownOpts)[],
  examplesByName: { readonly [command: string]: readonly string[] },
): Command {
  const wanted = only.get(group);
  const built: CommandUnknownOpts[] = [];
  for (const build of builders) {
    const command = build();
    if (wanted !== undefined && (command.name() === wanted || command.aliases().includes(wanted))) {
      return addCommand(group, command, examplesByName);
    }
    built.push(command);
  }
  for (const command of built) addCommand(group, command, examplesByName);
  return group;
}

function addCommand(
  group: Command,
  command: CommandUnknownOpts,
  examplesByName: { readonly [command: string]: readonly string[] },
): Command {
  const lines = examplesByName[command.name()];
  if (lines) {
    examples.set(command, lines);
    command.addHelpText("after", `\nExamples:\n${lines.map((line) => `  $ ${line}`).join("\n")}`);
  }
  group.addCommand(command);
  return group;
}
