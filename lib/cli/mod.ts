/**
 * The CLI's reusable parts (the `./cli` export): `main`, the command tree, the CLI manager, the
 * command wrapper, the shared option sets, the output module, completion scripts and `--xmlhelp`.
 *
 * Run as the main module it is the `repo-apy` command itself, so
 * `deno install -g -n repo-apy <permissions> jsr:@repo/apy/cli` installs the CLI (README).
 *
 * @example Usage
 * ```ts
 * import { createProgram } from "./mod.ts";
 * const program = await createProgram({ version: "1.0.0" });
 * console.log(program.name()); // "repo-apy"
 * ```
 *
 * @module
 */

export * from "./apy_command.ts";
export * from "./cli_manager.ts";
export * from "./completions.ts";
export * from "./main.ts";
export * from "./options.ts";
export * from "./output.ts";
export * from "./program.ts";
export * from "./run.ts";
export * from "./xml_help.ts";

import { runProcess } from "./_entry.ts";

if (import.meta.main) await runProcess();
