/**
 * {@linkcode apyCommand}: wraps a command's action so it gets `-I/--instance`, `-V/--verbose`, a
 * ready {@linkcode CLIRepoManager} and the CLI's error handling.
 *
 * @module
 */

import { type Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { contextOf } from "./_context.ts";
import { ExitError, reportError } from "./_errors.ts";
import { terminalLine } from "./_terminal_text.ts";
import { setOptionType } from "./_tree.ts";
import type { CLIRepoManager } from "./cli_manager.ts";
import type { ConnectionSettings } from "../config/settings.ts";
import { type Verbosity, VERBOSITY_LEVELS } from "./output.ts";

/** Options {@linkcode apyCommand} adds. */
export interface ApyOptions {
  /** `-I/--instance`: config instance to use (default: the config file's default). */
  instance?: string | undefined;
  /** `-V/--verbose`: verbosity. */
  verbose: Verbosity;
  /** `-q/--quiet`: print nothing but errors (and data asked for, such as `-p` ids). */
  quiet?: true | undefined;
  /** `--progress`: report transfer progress as plain lines when stderr is not a terminal. */
  progress?: true | undefined;
}

const dryManagers = new WeakSet<CLIRepoManager>();

/**
 * Adds `--dry-run` to a command that sends, writes or deletes something. With it,
 * {@linkcode dryRun} tells the action to print what it would do and stop before it changes
 * anything (it may still read from the server to say exactly what it would do).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import {
 *   apyCommand,
 *   createProgram,
 *   dryRun,
 *   dryRunOption,
 *   isDryRun,
 *   Output,
 * } from "@repo/apy/cli/kit";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * const managerOptions = { host: server.url, pat: server.pat };
 * await using manager = new RepoManager(managerOptions);
 * await manager.record({ identifier: "sample-1", create: true });
 *
 * const lines: string[] = [];
 * const output = new Output({ stdout: (text) => lines.push(text), stderr: () => {} });
 * const program = await createProgram({ version: "1.0.0", output, managerOptions });
 * const command = dryRunOption(program.command("delete-one").argument("<identifier>"));
 * apyCommand(command, async (manager, _options, identifier) => {
 *   const record = await manager.record({ identifier });
 *   assert.ok(isDryRun(manager)); // for an action that lists several things it would do
 *   if (dryRun(manager, `delete the ${record}`)) return;
 *   await record.delete();
 * });
 * await program.parseAsync(["delete-one", "sample-1", "--dry-run"], { from: "user" });
 * assert.match(lines.join(""), /^Dry run: would delete the record/);
 * await manager.record({ identifier: "sample-1" }); // still there
 * ```
 */
export function dryRunOption<C extends CommandUnknownOpts>(command: C): C {
  command.addOption(
    new Option("--dry-run", "Print what would be sent, written or deleted, and change nothing"),
  );
  return command;
}

/**
 * Whether the command runs with `--dry-run` ({@linkcode dryRunOption}); if so, prints
 * `Dry run: would <what>` on stdout and the action stops there (it must change nothing).
 */
export function dryRun(manager: CLIRepoManager, what: string): boolean {
  if (!isDryRun(manager)) return false;
  // Printed whatever the verbosity (like data), but it is a message: one safe line.
  manager.output.data(terminalLine(`Dry run: would ${what}`));
  return true;
}

/** Whether the command runs with `--dry-run` ({@linkcode dryRunOption}), printing nothing. */
export function isDryRun(manager: CLIRepoManager): boolean {
  return dryManagers.has(manager);
}

/**
 * Adds the everyday options of every command: `-V/--verbose <level>`, `-q/--quiet` (only
 * `--quiet` where the command has its own `-q`, such as `--query` on the search commands) and
 * `--progress`. {@linkcode apyCommand} adds them; commands with their own action (the `config`
 * group) get them here, applied before the action runs.
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { everydayOptions } from "@repo/apy/cli/kit";
 * import assert from "node:assert";
 *
 * const command = everydayOptions(new Command("show").option("-q, --query <text>"));
 * assert.deepStrictEqual(command.options.map((option) => option.flags).slice(1), [
 *   "-V, --verbose <level>",
 *   "--quiet",
 *   "--progress",
 * ]);
 * ```
 */
export function everydayOptions<C extends CommandUnknownOpts>(command: C): C {
  const verbose = new Option("-V, --verbose <level>", "Verbosity of the output")
    .choices(VERBOSITY_LEVELS)
    .default("info" as Verbosity);
  setOptionType(verbose, "choice");
  command.addOption(verbose);
  // The reference client's own flags win: `-q` stays `--query` where a command has one.
  const quietShort = command.options.some((option) => option.short === "-q") ? "" : "-q, ";
  command.addOption(
    new Option(
      `${quietShort}--quiet`,
      `Print nothing but errors and the data asked for${
        quietShort === "" ? " (no short form here: -q is --query, as in kadi-apy)" : ""
      }`,
    ),
  );
  command.addOption(
    new Option(
      "--progress",
      "Report transfer progress as a plain line every few seconds when stderr is not a terminal",
    ),
  );
  command.hook("preAction", (_self, action) => applyEverydayOptions(action));
  return command;
}

/** Sets the run's verbosity and plain progress from the everyday options of `command`. */
function applyEverydayOptions(command: CommandUnknownOpts): void {
  const { quiet, verbose, progress } = command.opts() as Partial<ApyOptions>;
  const { output } = contextOf(command);
  output.verbosity = quiet === true ? "error" : verbose ?? "info";
  const source = command.getOptionValueSource("verbose");
  output.verbosityGiven = source !== undefined && source !== "default";
  output.plainProgress = progress === true;
}

/** The action of an {@linkcode apyCommand}. */
export type ApyAction<Args extends unknown[], Opts> = (
  manager: CLIRepoManager,
  options: Opts & ApyOptions,
  ...args: Args
) => void | Promise<void>;

/** Options of {@linkcode apyCommand}. */
export interface ApyCommandOptions<Opts> {
  /**
   * Whether this run talks to the server. When it returns `false` (e.g. a dry run that only
   * reads a local file) the settings are not resolved, so no config file, host or PAT is needed;
   * the action must then not use the manager's transport. @default {() => true}
   */
  needsServer?: (options: Opts & ApyOptions) => boolean;
}

/**
 * Adds `-I/--instance` and `-V/--verbose` to `command` and sets its action: the action receives
 * a manager whose settings are already resolved (config errors surface before any work), the
 * parsed options and the positional arguments. Errors are printed as one `Error: …` line on
 * stderr (the response body too at `-V debug`), with exit code 1; no stack trace, no token.
 *
 * @example Usage
 * ```ts
 * import { apyCommand, createProgram, Output } from "@repo/apy/cli/kit";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * const lines: string[] = [];
 * const output = new Output({ stdout: (text) => lines.push(text), stderr: () => {} });
 * const managerOptions = { host: server.url, pat: server.pat };
 * const program = await createProgram({ version: "1.0.0", output, managerOptions });
 * apyCommand(program.command("server-version"), async (manager) => {
 *   manager.output.data((await manager.info()).version);
 * });
 * await program.parseAsync(["server-version"], { from: "user" });
 * assert.deepStrictEqual(lines, ["1.13.0\n"]);
 * ```
 */
export function apyCommand<
  Args extends unknown[],
  Opts extends { [key: string]: unknown },
  Global extends { [key: string]: unknown },
>(
  command: Command<Args, Opts, Global>,
  action: ApyAction<Args, Opts>,
  apyOptions: ApyCommandOptions<Opts> = {},
): Command<Args, Opts & ApyOptions, Global> {
  const target: CommandUnknownOpts = command;
  target.addOption(
    new Option(
      "-I, --instance <name>",
      "Name of the config instance to use (default: the default instance)",
    ),
  );
  everydayOptions(target);
  target.action(async (...all: unknown[]) => {
    const self = all[all.length - 1] as CommandUnknownOpts;
    const options = self.opts() as Opts & ApyOptions;
    const args = all.slice(0, -2) as Args;
    const context = contextOf(self);
    const { output } = context;
    const dry = options["dryRun"] === true;
    // Imported here, not at the top: building the command tree (help, start-up) needs no library.
    const { CLIRepoManager } = await import("./cli_manager.ts");
    const manager = new CLIRepoManager({
      ...context.managerOptions,
      ...(options.instance === undefined ? {} : { instance: options.instance }),
      output,
    });
    if (dry) dryManagers.add(manager);
    let instance = options.instance;
    let sources: ConnectionSettings["sources"];
    try {
      if (apyOptions.needsServer?.(options) ?? true) {
        const settings = await manager.settings();
        instance = settings.instance ?? instance;
        sources = settings.sources;
      }
      await action(manager, options, ...args);
    } catch (error) {
      if (error instanceof ExitError) throw error;
      throw new ExitError(
        reportError(error, output, {
          signal: manager.signal,
          instance,
          sources,
          command: context.command,
        }),
      );
    } finally {
      await manager.close();
    }
  });
  // The options were added above; with `Opts` generic, extra-typings' inference of `addOption`
  // stays an unresolved conditional type, so the compiler is told the result (a narrowing it
  // checks: the same command with more options).
  return command as Command<Args, Opts & ApyOptions, Global>;
}
