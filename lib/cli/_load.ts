// The command tree of one CLI run, built lazily: only the group the arguments name is imported
// (with the library modules it needs), and of it only the command they name when it has one; the
// other groups are empty placeholders carrying their name and description, so `repo-apy --help`
// still lists them. Runs that show the whole tree
// (`--commands` or `--xmlhelp` on the root, shell completions) load every group.

import type { Command } from "@commander-js/extra-typings";
import { emptyGroup, GROUPS, loadGroup, loadGroupFor } from "./_groups.ts";
import { buildRoot, type ProgramOptions } from "./_root.ts";

/** Builds the tree for `args` (without the program name). */
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
    return command === undefined ? await loadGroup(group) : await loadGroupFor(group, command);
  }));
  return buildRoot(groups, options);
}
