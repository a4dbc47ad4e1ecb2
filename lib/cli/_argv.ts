// Lets kebab spellings reach underscore flags: `--exclude-pattern` becomes `--exclude_pattern` for
// commands that declare `--exclude_pattern` (the reference client's spelling).

import type { CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { subcommand, takesValue } from "./_tree.ts";

/** Rewrites kebab spellings of underscore flags in `args` for the command they address. */
export function normalizeUnderscoreFlags(
  root: CommandUnknownOpts,
  args: readonly string[],
): string[] {
  const result: string[] = [];
  let command = root;
  for (let index = 0; index < args.length; index++) {
    const token = args[index] ?? "";
    if (token === "--") {
      result.push(...args.slice(index));
      break;
    }
    if (token.startsWith("--")) {
      const [name = "", ...value] = token.split("=");
      const option = findLong(command, name);
      result.push(option?.long === undefined ? token : [option.long, ...value].join("="));
      if (
        option !== undefined && value.length === 0 && option.required && index + 1 < args.length
      ) {
        result.push(args[++index] ?? "");
      }
      continue;
    }
    if (token.startsWith("-") && token.length === 2) {
      const option = command.options.find((candidate) => candidate.short === token);
      result.push(token);
      if (
        option !== undefined && takesValue(option) && option.required && index + 1 < args.length
      ) {
        result.push(args[++index] ?? "");
      }
      continue;
    }
    const sub = subcommand(command, token);
    if (sub !== undefined) command = sub;
    result.push(token);
  }
  return result;
}

function findLong(command: CommandUnknownOpts, name: string): Option | undefined {
  return command.options.find((option) => option.long === name) ??
    command.options.find((option) =>
      option.long !== undefined && option.long.includes("_") &&
      option.long.replaceAll("_", "-") === name
    );
}
