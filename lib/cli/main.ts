/**
 * {@linkcode main}: the `repo-apy` program with the version of `deno.json`. It loads the command
 * tree only when it is needed and then only the group the arguments name; `--version` and the
 * `--help` of any command (pre-rendered by `deno task help-cache`, laid out for the terminal's
 * width) need neither, so they start quickly.
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };
import { cachedHelp, helpRequest } from "./_help_cache.ts";
import { helpWidthOf, layoutHelp } from "./_help_layout.ts";
import type { RunCliOptions } from "./run.ts";

/** Options of {@linkcode main} (for tests and embedding). */
export type MainOptions = Omit<RunCliOptions, "version">;

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code; it never exits
 * the process. The version comes from `deno.json`.
 *
 * @example Usage
 * ```ts
 * import { main } from "./main.ts";
 * const lines: string[] = [];
 * const code = await main(["--version"], { stdout: (text) => lines.push(text) });
 * console.log(code, lines.join("").trim()); // 0 "0.51.0"
 * ```
 *
 * @param args Command line arguments.
 * @param options Output writers, prompt answers and manager options.
 * @returns 0 on success, 1 when the operation failed, 2 on wrong usage.
 */
export async function main(args: readonly string[], options: MainOptions = {}): Promise<number> {
  if (args.length === 1 && args[0] === "--version") {
    await print(`${denoJson.version}\n`, options);
    return 0;
  }
  const helpPath = helpRequest(args);
  const help = helpPath === undefined ? undefined : await cachedHelp(helpPath);
  if (help !== undefined) {
    await print(layoutHelp(help, helpWidthOf(options)), options);
    return 0;
  }
  const { runCli } = await import("./run.ts");
  return await runCli(args, { ...options, version: denoJson.version });
}

async function print(text: string, options: MainOptions): Promise<void> {
  if (options.stdout !== undefined) options.stdout(text);
  else await Deno.stdout.write(new TextEncoder().encode(text));
}
