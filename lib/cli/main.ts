/**
 * {@linkcode main}: the `repo-apy` program with the version of `deno.json`, and
 * {@linkcode runProcess}, its run as the process (`cli.ts`). `--version` and the `--help` of any
 * command (pre-rendered in `_help.json` by `deno task help-cache`, laid out for the terminal's
 * width) are answered here without commander; anything else goes to `runCli()` (`run.ts`),
 * imported only then.
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };
import { helpWidthOf, layoutHelp } from "./_help_layout.ts";
import { withInterrupts } from "./_interrupts.ts";
import type { RunCliOptions } from "./run.ts";

/** Options of {@linkcode main} (for tests and embedding). */
export type MainOptions = Omit<RunCliOptions, "version">;

/** Help texts by command path without the program name (`""` is the root, `records create`). */
export type HelpTexts = { [path: string]: string };

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

/**
 * Runs {@linkcode main} on `Deno.args` and sets the process's exit code; a second Ctrl-C exits
 * 130 at once, and an interrupted run exits right away.
 */
export async function runProcess(): Promise<void> {
  const code = await withInterrupts(
    (signal) => main(Deno.args, { signal }),
    () => {
      // A second Ctrl-C while the first one's cleanup runs: stop at once, on a line of its own.
      Deno.stderr.writeSync(new TextEncoder().encode("\nInterrupted again: stopped at once\n"));
      Deno.exit(130);
    },
  );
  // An interrupted run may leave a read of stdin waiting (a question cancelled): end now.
  if (code === 130) Deno.exit(code);
  Deno.exitCode = code;
}

/** The command path of `args` when they ask only for help (`records --help`), else undefined. */
export function helpRequest(args: readonly string[]): string | undefined {
  const last = args.at(-1);
  if (last !== "--help" && last !== "-h") return undefined;
  const path = args.slice(0, -1);
  if (path.some((arg) => arg.startsWith("-"))) return undefined;
  return path.join(" ");
}

/** The cached help of `path`, or undefined when the cache has none. */
async function cachedHelp(path: string): Promise<string | undefined> {
  const { default: texts } = await import("./_help.json", { with: { type: "json" } });
  return (texts as HelpTexts)[path];
}

async function print(text: string, options: MainOptions): Promise<void> {
  if (options.stdout !== undefined) options.stdout(text);
  else await Deno.stdout.write(new TextEncoder().encode(text));
}
