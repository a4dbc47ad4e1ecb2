// The command tree of one CLI run, built lazily: only the group the arguments name is imported
// (with the library modules it needs); the other groups are empty placeholders carrying their
// name and description, so `repo-apy --help` still lists them. Runs that show the whole tree
// (`--commands` or `--xmlhelp` on the root, shell completions) load every group.

import type { Command } from "@commander-js/extra-typings";
import { emptyGroup, GROUPS, loadGroup } from "./_groups.ts";
import { buildRoot, type ProgramOptions } from "./_root.ts";

/** Builds the tree for `args` (without the program name). */
export async function loadProgram(
  args: readonly string[],
  options: ProgramOptions,
): Promise<Command> {
  const named = args.find((arg) => !arg.startsWith("-"));
  const entry = GROUPS.find((group) => group.name === named || group.aliases.includes(named ?? ""));
  const everything = entry === undefined
    ? args.some((arg) => arg === "--commands" || arg === "--xmlhelp")
    : args.includes("activate-autocompletion");
  const groups = await Promise.all(GROUPS.map(async (group) => {
    return everything || group === entry ? await loadGroup(group) : emptyGroup(group);
  }));
  return buildRoot(groups, options);
}
