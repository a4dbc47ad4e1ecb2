// Finds the first flag no command of the line knows, so that a misspelled flag is reported (with
// Commander's "Did you mean …?") before a required option it was meant to give is missed.

import type { CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { isGroup, subcommand } from "./_tree.ts";

/** A flag of `args` that the command it belongs to does not declare, or an unknown command. */
export interface UnknownFlag {
  /** The command the flag was given to (the group, for an unknown command). */
  command: CommandUnknownOpts;
  /** The flag as typed, without a `=value` part; or the command name as typed. */
  flag: string;
  /** Set when `flag` is a command name no command of the group has. */
  isCommand?: true;
}

/**
 * The first unknown flag of `args` (command names select the command flags belong to), or the
 * first unknown command name, whichever comes first: `records creat -i x` is a misspelled
 * command, not an unknown `-i`.
 */
export function firstUnknownFlag(
  root: CommandUnknownOpts,
  args: readonly string[],
): UnknownFlag | undefined {
  let command = root;
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? "";
    if (token === "--") return undefined;
    if (token.startsWith("--")) {
      const name = token.split("=")[0] ?? token;
      const option = findOption(command, (candidate) => candidate.long === name);
      if (option === undefined) return { command, flag: name };
      if (!token.includes("=") && option.required) index++;
      continue;
    }
    if (/^-[^-]$/.test(token)) {
      const option = findOption(command, (candidate) => candidate.short === token);
      if (option === undefined) return { command, flag: token };
      if (option.required) index++;
      continue;
    }
    if (token.startsWith("-") && token.length > 2) continue; // -abc or -xVALUE: left to Commander
    const sub = subcommand(command, token);
    if (sub !== undefined) command = sub;
    // A misspelled command comes before its options: reported first, with its suggestion.
    else if (isGroup(command)) return { command, flag: token, isCommand: true };
  }
  return undefined;
}

/** Flags every command has without declaring them as options. */
const META_FLAGS = ["-h", "--help"];

function findOption(
  command: CommandUnknownOpts,
  match: (option: Option) => boolean,
): Pick<Option, "required" | "optional"> | undefined {
  const declared = command.options.find(match);
  if (declared !== undefined) return declared;
  const meta = META_FLAGS.some((flag) => match({ long: flag, short: flag } as Option));
  return meta ? { required: false, optional: false } : undefined;
}
