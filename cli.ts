/**
 * The `repo-apy` command line interface, and the package's `./cli` export. Run it with
 * `deno run <permissions> jsr:@repo/apy/cli <group> <command> [options]` (or `cli.ts` in a
 * checkout), install it with `deno install -g -n repo-apy <permissions> jsr:@repo/apy/cli`;
 * `deno task compile` builds it into a binary. Exit codes: 0 success, 1 the operation failed
 * (message on stderr), 2 wrong usage, 130 interrupted (Ctrl-C or SIGTERM: one line says what was
 * left and how to continue).
 *
 * This module imports only {@linkcode main}, which loads the command group a run names and
 * nothing else, so start-up stays short; its other exports are types, which cost nothing at run
 * time. The CLI's reusable parts (the command tree, `CLIRepoManager`, `apyCommand`, `Output`, …)
 * are the `./cli/kit` export (`lib/cli/kit.ts`): handed out here, they would load before every run.
 *
 * @example Usage
 * ```ts
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const code = await main(["--version"], { stdout: (text) => lines.push(text) });
 * console.log(code, lines.join("").trim()); // 0 "0.51.0"
 * ```
 *
 * @module
 */

export { main, type MainOptions } from "./lib/cli/main.ts";
export type { RunCliOptions } from "./lib/cli/run.ts";
export type { RepoManagerOptions } from "./lib/manager/repo_manager.ts";
export type { SettingsOptions } from "./lib/config/settings.ts";
export type { Logger, LogLevel } from "./lib/http/log.ts";
export type { RetryOptions } from "./lib/http/retry.ts";
import { runProcess } from "./lib/cli/main.ts";

if (import.meta.main) await runProcess();
