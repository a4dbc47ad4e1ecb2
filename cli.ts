/**
 * The `repo-apy` command line interface. Run it with `deno run <permissions> cli.ts <group>
 * <command> [options]`; as a module it exports {@linkcode main} and the CLI's reusable parts.
 *
 * Exit codes: 0 success, 1 the operation failed (message on stderr), 2 wrong usage.
 *
 * @example Usage
 * ```ts ignore
 * import { main } from "@repo/apy/cli";
 * const code = await main(["config", "show-instances"]);
 * ```
 *
 * @module
 */

import denoJson from "./deno.json" with { type: "json" };
import type { RepoManagerOptions } from "./lib/manager/repo_manager.ts";
import { normalizeUnderscoreFlags } from "./lib/cli/_argv.ts";
import { reportError } from "./lib/cli/_errors.ts";
import { Output } from "./lib/cli/output.ts";
import { createProgram } from "./lib/cli/program.ts";

export * from "./lib/cli/mod.ts";

/** Options of {@linkcode main} (for tests and embedding). */
export interface MainOptions {
  /** Receives stdout text; default: the process's stdout. */
  stdout?: (text: string) => void;
  /** Receives stderr text; default: the process's stderr. */
  stderr?: (text: string) => void;
  /** Answers to prompts, one per line; default: read from stdin. */
  input?: readonly string[];
  /** Extra options for every manager the commands create. */
  managerOptions?: Partial<RepoManagerOptions>;
}

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code; it never exits
 * the process. Errors become one `Error: …` line on stderr, never a stack trace or the token.
 *
 * @example Usage
 * ```ts
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const code = await main(["--version"], { stdout: (text) => lines.push(text) });
 * console.log(code, lines.join("").trim()); // 0 "0.51.0"
 * ```
 *
 * @param args Command line arguments.
 * @param options Output writers, prompt answers and manager options.
 * @returns 0 on success, 1 when the operation failed, 2 on wrong usage.
 */
export async function main(args: string[], options: MainOptions = {}): Promise<number> {
  const output = new Output({
    ...(options.stdout === undefined ? {} : { stdout: options.stdout }),
    ...(options.stderr === undefined ? {} : { stderr: options.stderr }),
  });
  const program = createProgram({
    version: denoJson.version,
    output,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.managerOptions === undefined ? {} : { managerOptions: options.managerOptions }),
  });
  try {
    await program.parseAsync(normalizeUnderscoreFlags(program, args), { from: "user" });
    return 0;
  } catch (error) {
    return reportError(error, output);
  }
}

if (import.meta.main) Deno.exitCode = await main(Deno.args);
