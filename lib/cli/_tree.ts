// Facts about the command tree shared by --xmlhelp, --commands, completions and argv handling.

import type { CommandUnknownOpts, Option } from "@commander-js/extra-typings";

/** Parameter types as `--xmlhelp` reports them (the names xmlhelpy uses). */
export type OptionType =
  | "flag"
  | "choice"
  | "string"
  | "long"
  | "long_range"
  | "real"
  | "tokenlist"
  | "path"
  | "file";

/** What `--xmlhelp` says about an option besides its type (xmlhelpy's attributes). */
export interface OptionDetails {
  /** Bounds of a `long_range`. */
  min?: number;
  max?: number;
  /** Separator of a `tokenlist` (default `,`). */
  separator?: string;
  /** Whether a `path` or `file` must exist. */
  exists?: boolean;
}

const optionTypes = new WeakMap<object, OptionType>();
const optionDetails = new WeakMap<object, OptionDetails>();
const groups = new WeakSet<object>();

/** Names of the options every command gets; not listed as parameters. */
export const META_OPTIONS: readonly string[] = ["--help", "--version", "--xmlhelp", "--commands"];

/** Records the type of an option (and its `--xmlhelp` details) for --xmlhelp and completions. */
export function setOptionType(option: object, type: OptionType, details?: OptionDetails): void {
  optionTypes.set(option, type);
  if (details !== undefined) optionDetails.set(option, details);
}

/** The details recorded with the option's type; a token list's separator defaults to `,`. */
export function optionTypeDetails(option: Option): OptionDetails {
  const details = optionDetails.get(option) ?? {};
  return optionType(option) === "tokenlist" ? { separator: ",", ...details } : details;
}

/** The type of an option: recorded, else flag, choice or string. */
export function optionType(option: Option): OptionType {
  const recorded = optionTypes.get(option);
  if (recorded !== undefined) return recorded;
  if (!takesValue(option)) return "flag";
  if (option.argChoices !== undefined) return "choice";
  return "string";
}

/** Whether the option is followed by a value. */
export function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** Marks a command as a group (gets `--commands`). */
export function markGroup(command: CommandUnknownOpts): void {
  groups.add(command);
}

/** Whether a command is a group. */
export function isGroup(command: CommandUnknownOpts): boolean {
  return groups.has(command) || command.commands.length > 0;
}

/** Full name of a command, such as `repo-apy config create`. */
export function commandPath(command: CommandUnknownOpts): string {
  const names: string[] = [];
  for (
    let current: CommandUnknownOpts | null = command;
    current !== null;
    current = current.parent
  ) {
    names.unshift(current.name());
  }
  return names.join(" ");
}

/** The subcommand of `command` called `name` (or with `name` as an alias), if any. */
export function subcommand(
  command: CommandUnknownOpts,
  name: string,
): CommandUnknownOpts | undefined {
  return command.commands.find((candidate) =>
    candidate.name() === name || candidate.aliases().includes(name)
  );
}

/** The command and all commands below it, depth first. */
export function* walkCommands(command: CommandUnknownOpts): Generator<CommandUnknownOpts> {
  yield command;
  for (const sub of command.commands) yield* walkCommands(sub);
}

/** Options shown for a command, the help option included. */
export function visibleOptions(command: CommandUnknownOpts): Option[] {
  return command.createHelp().visibleOptions(command);
}

/** Options of a command without help/version/xmlhelp/commands. */
export function parameterOptions(command: CommandUnknownOpts): Option[] {
  return visibleOptions(command).filter((option) => !META_OPTIONS.includes(option.long ?? ""));
}

/** Visible subcommands. */
export function visibleCommands(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return command.commands.filter((sub) => !isHidden(sub));
}

function isHidden(command: CommandUnknownOpts): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

/** First line of a command's summary or description. */
export function shortDescription(command: CommandUnknownOpts): string {
  const text = command.summary() || command.description();
  return text.split("\n")[0] ?? "";
}
