/**
 * Assembles the `repo-apy` command tree and gives every command the shared behaviour:
 * `--version`, `--xmlhelp`, `--commands` on groups, no `process.exit` (errors are thrown to
 * `main()`), and all printing through one {@linkcode Output}.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { GROUPS, loadGroup } from "./_groups.ts";
import { buildRoot, PROGRAM_NAME as NAME, type ProgramOptions } from "./_root.ts";

/** Name of the program. */
export const PROGRAM_NAME: string = NAME;

export type { ProgramOptions };

/**
 * Builds the whole command tree (every group of the group list loaded; a CLI run, `runCli()`,
 * loads only the group it uses). Nothing is parsed or printed until `parseAsync()` is called;
 * errors (including usage errors, as `CommanderError`) are thrown, never exited on.
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./program.ts";
 * const program = await createProgram({ version: "1.0.0" });
 * console.log(program.commands.map((command) => command.name()));
 * // ["config", "records", "collections", "templates", "groups", "users", "misc"]
 * ```
 *
 * @param options Version, output, prompt answers and manager options.
 * @returns The root command.
 */
export async function createProgram(options: ProgramOptions): Promise<Command> {
  return buildRoot(await Promise.all(GROUPS.map(loadGroup)), options);
}
