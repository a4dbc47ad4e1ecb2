/**
 * Assembles the `repo-apy` command tree and gives every command the shared behaviour:
 * `--version`, `--xmlhelp`, `--commands` on groups, no `process.exit` (errors are thrown to
 * `main()`), and all printing through one {@linkcode Output}.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import type { RepoManagerOptions } from "../manager/repo_manager.ts";
import { buildRoot, PROGRAM_NAME as NAME } from "./_root.ts";
import { collectionsCommand } from "./commands/collections.ts";
import { configCommand } from "./commands/config.ts";
import { groupsCommand } from "./commands/groups.ts";
import { miscCommand } from "./commands/misc.ts";
import { recordsCommand } from "./commands/records.ts";
import { templatesCommand } from "./commands/templates.ts";
import { usersCommand } from "./commands/users.ts";
import type { Output } from "./output.ts";

/** Name of the program. */
export const PROGRAM_NAME: string = NAME;

/** Options of {@linkcode createProgram}. */
export interface ProgramOptions {
  /** Version printed by `--version`. */
  version: string;
  /** Where everything is printed; default: the process's stdout and stderr. */
  output?: Output;
  /** Answers to prompts, one per line; default: read from stdin. */
  input?: readonly string[];
  /** Extra options for every manager the commands create (tests). */
  managerOptions?: Partial<RepoManagerOptions>;
}

/**
 * Builds the whole command tree (every group loaded; a CLI run, `runCli()`, loads only the group it
 * uses). Nothing is parsed or printed until `parseAsync()` is called;
 * errors (including usage errors, as `CommanderError`) are thrown, never exited on.
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./program.ts";
 * const program = createProgram({ version: "1.0.0" });
 * console.log(program.commands.map((command) => command.name()));
 * // ["config", "records", "collections", "templates", "groups", "users", "misc"]
 * ```
 *
 * @param options Version, output, prompt answers and manager options.
 * @returns The root command.
 */
export function createProgram(options: ProgramOptions): Command {
  const groups = [
    configCommand,
    recordsCommand,
    collectionsCommand,
    templatesCommand,
    groupsCommand,
    usersCommand,
    miscCommand,
  ];
  return buildRoot(groups.map((group) => group()), options);
}
