/**
 * The `repo-apy` command tree: the list of command groups, {@linkcode createProgram} (every
 * group) and {@linkcode loadProgram} (what one run needs), and the root both build, whose
 * commands all get the shared behaviour (`--version`, `--xmlhelp`, `--commands` on groups, no
 * `process.exit`, all printing through one {@linkcode Output}).
 *
 * A run imports only the group its arguments name, and of it only the command they name when it
 * has one; the other groups are empty placeholders with their name and description, so
 * `repo-apy --help` still lists them. The command modules never import this list (they fill the
 * empty group they are given), so loading makes no cycle.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { RepoManagerOptions } from "../manager/repo_manager.ts";
import { setContext } from "./_context.ts";
import { finishCommand } from "./_every_command.ts";
import { helpWidthOf } from "./_help_layout.ts";
import { type LineInput, linesInput, stdinInput } from "./_input.ts";
import { walkCommands } from "./_tree.ts";
import { createGroup, onlyCommand } from "./commands/_group.ts";
import { Output } from "./output.ts";

/** Options of {@linkcode createProgram}. */
export interface ProgramOptions {
  /** Version printed by `--version`. */
  version: string;
  /** Where everything is printed; default: the process's stdout and stderr. */
  output?: Output | undefined;
  /** Answers to prompts, one per line; default: read from stdin. */
  input?: readonly string[] | undefined;
  /** Extra options for every manager the commands create (tests). */
  managerOptions?: Partial<RepoManagerOptions> | undefined;
  /**
   * Columns `--help` is wrapped to; default: `COLUMNS` (when readable), else the terminal's
   * width, else 80; 80 when `output` is given. `Infinity` prints it unwrapped.
   */
  helpWidth?: number | undefined;
}

/** Name of the program. */
export const PROGRAM_NAME: string = "repo-apy";

/** One top-level command group. */
export interface GroupEntry {
  /** Name on the command line. */
  name: string;
  /** One-line description (root help lists it without loading the group). */
  description: string;
  /** Other names of the group. */
  aliases: string[];
  /** Imports the group's module and returns its builder, which fills the empty group. */
  load(): Promise<(group: Command) => Command>;
}

/** Every group, in the order root help lists them. */
export const GROUPS: readonly GroupEntry[] = [
  {
    name: "config",
    description: "Create and edit the config file with hosts and tokens",
    aliases: [],
    load: async () => (await import("./commands/config.ts")).configCommand,
  },
  {
    name: "records",
    description: "Manage records",
    aliases: [],
    load: async () => (await import("./commands/records.ts")).recordsCommand,
  },
  {
    name: "collections",
    description: "Manage collections",
    aliases: [],
    load: async () => (await import("./commands/collections.ts")).collectionsCommand,
  },
  {
    name: "templates",
    description: "Manage templates",
    aliases: [],
    load: async () => (await import("./commands/templates.ts")).templatesCommand,
  },
  {
    name: "groups",
    description: "Manage groups",
    aliases: [],
    load: async () => (await import("./commands/groups.ts")).groupsCommand,
  },
  {
    name: "users",
    description: "Manage users",
    aliases: [],
    load: async () => (await import("./commands/users.ts")).usersCommand,
  },
  {
    name: "misc",
    description: "Miscellaneous commands",
    aliases: ["miscellaneous"],
    load: async () => (await import("./commands/misc.ts")).miscCommand,
  },
];

/**
 * Builds the whole command tree (every group loaded; a CLI run, `runCli()`, uses
 * {@linkcode loadProgram} instead). Nothing is parsed or printed until `parseAsync()` is called;
 * errors (including usage errors, as `CommanderError`) are thrown, never exited on.
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./program.ts";
 * const program = await createProgram({ version: "1.0.0" });
 * console.log(program.commands.map((command) => command.name()));
 * // ["config", "records", "collections", "templates", "groups", "users", "misc"]
 * ```
 */
export async function createProgram(options: ProgramOptions): Promise<Command> {
  return buildRoot(await Promise.all(GROUPS.map((group) => loadGroup(group))), options);
}

/**
 * Builds the tree one run of `args` (without the program name) needs: the group they name, with
 * only the command they name when it has one; every group when the run shows the whole tree
 * (`--commands` or `--xmlhelp` on the root, shell completions).
 */
export async function loadProgram(
  args: readonly string[],
  options: ProgramOptions,
): Promise<Command> {
  const at = args.findIndex((arg) => !arg.startsWith("-"));
  const named = at < 0 ? undefined : args[at];
  const entry = GROUPS.find((group) => group.name === named || group.aliases.includes(named ?? ""));
  const everything = entry === undefined
    ? args.some((arg) => arg === "--commands" || arg === "--xmlhelp")
    : args.includes("activate-autocompletion");
  // The word after the group names its command (groups take no option values before it).
  const next = at < 0 ? undefined : args[at + 1];
  const command = next === undefined || next.startsWith("-") ? undefined : next;
  const groups = await Promise.all(GROUPS.map(async (group) => {
    if (everything) return await loadGroup(group);
    if (group !== entry) return emptyGroup(group);
    return await loadGroup(group, command);
  }));
  return buildRoot(groups, options);
}

/** The group of `entry`, empty: its name, description and aliases (root help lists it so). */
function emptyGroup(entry: GroupEntry): Command {
  const group = createGroup(entry.name, entry.description);
  for (const alias of entry.aliases) group.alias(alias);
  return group;
}

/**
 * The group of `entry` with its commands (imports the group's module): with only the one called
 * `command` when it is given and the group has it.
 */
async function loadGroup(entry: GroupEntry, command?: string): Promise<Command> {
  const group = emptyGroup(entry);
  return (await entry.load())(command === undefined ? group : onlyCommand(group, command));
}

/** The root command holding `groups`, with the run's context and the shared behaviour. */
function buildRoot(groups: readonly Command[], options: ProgramOptions): Command {
  const output = options.output ?? new Output();
  const input: LineInput = options.input === undefined
    ? stdinInput(options.managerOptions?.signal)
    : linesInput(options.input);
  const root = createGroup(PROGRAM_NAME, "Command line client of the research data repository");
  for (const group of groups) root.addCommand(group);
  root.addHelpText(
    "after",
    "\nRun 'repo-apy help <group> <command>' (or add --help) for the options of a command." +
      "\nExit codes: 0 success, 1 the operation failed, 2 wrong usage, 130 interrupted (Ctrl-C).",
  );
  setContext(root, {
    output,
    input,
    version: options.version,
    managerOptions: options.managerOptions ?? {},
  });
  const width = helpWidthOf({ ...options, stdout: options.output });
  for (const command of walkCommands(root)) finishCommand(command, output, options.version, width);
  return root;
}
