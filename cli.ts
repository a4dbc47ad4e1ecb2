/**
 * The `repo-apy` command line interface. Run it with `deno run <permissions> cli.ts <group>
 * <command> [options]`; as a module it exports {@linkcode main} and the CLI's reusable parts.
 *
 * Exit codes: 0 success, 1 the operation failed (message on stderr), 2 wrong usage, 130
 * interrupted (Ctrl-C or SIGTERM: one line says what was left and how to continue).
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
import { runCli, type RunCliOptions, withInterrupts } from "./lib/cli/run.ts";

export * from "./lib/cli/mod.ts";

/** Options of {@linkcode main} (for tests and embedding). */
export type MainOptions = Omit<RunCliOptions, "version">;

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code; it never exits
 * the process. The version comes from `deno.json`.
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
export function main(args: string[], options: MainOptions = {}): Promise<number> {
  return runCli(args, { ...options, version: denoJson.version });
}

if (import.meta.main) {
  Deno.exitCode = await withInterrupts(
    (signal) => main(Deno.args, { signal }),
    () => Deno.exit(130),
  );
}
