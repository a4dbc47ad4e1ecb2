/**
 * {@linkcode runCli}: parses one command line against the `repo-apy` tree and turns the outcome
 * into an exit code, without ever exiting the process.
 *
 * @module
 */

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { RepoManagerOptions } from "../manager/repo_manager.ts";
import { normalizeUnderscoreFlags } from "./_argv.ts";
import { contextOf } from "./_context.ts";
import { reportError } from "./_errors.ts";
import { firstUnknownFlag } from "./_typos.ts";
import { subcommand } from "./_tree.ts";
import { Output } from "./output.ts";
import { loadProgram } from "./program.ts";
import { helpWidthOf } from "./_help_layout.ts";

export { withInterrupts } from "./_interrupts.ts";

/** Options of {@linkcode runCli}. */
export interface RunCliOptions {
  /** Version printed by `--version`. */
  version: string;
  /** Receives stdout text; default: the process's stdout. */
  stdout?: ((text: string) => void) | undefined;
  /** Receives stderr text; default: the process's stderr. */
  stderr?: ((text: string) => void) | undefined;
  /** Answers to prompts, one per line; default: read from stdin. */
  input?: readonly string[] | undefined;
  /** Extra options for every manager the commands create. */
  managerOptions?: Partial<RepoManagerOptions> | undefined;
  /**
   * Interrupts the command (Ctrl-C): its requests are cancelled, transfers keep what they can
   * resume, and the run ends with one line about what was left and exit code 130.
   */
  signal?: AbortSignal | undefined;
  /**
   * Columns `--help` is wrapped to; default: `COLUMNS` (when readable), else the terminal's
   * width, else 80; 80 when `stdout` is given (the help goes to the caller, not a terminal).
   * `Infinity` prints it unwrapped.
   */
  helpWidth?: number | undefined;
}

/**
 * Runs the CLI with `args` (without the program name) and returns the exit code. Kebab
 * spellings of underscore flags are accepted; errors become one `Error: …` line on stderr,
 * never a stack trace or the token.
 *
 * @example Usage
 * ```ts
 * import { runCli } from "./run.ts";
 * let text = "";
 * const code = await runCli(["--version"], { version: "1.2.3", stdout: (chunk) => text += chunk });
 * console.log(code, text); // 0 "1.2.3\n"
 * ```
 *
 * @returns 0 on success, 1 when the operation failed, 2 on wrong usage, 130 when interrupted.
 */
export async function runCli(args: readonly string[], options: RunCliOptions): Promise<number> {
  const output = new Output({
    stdout: options.stdout,
    stderr: options.stderr,
  });
  // `help records create` is `records create --help`: the tree is loaded for the named group.
  const helpPath = args[0] === "help" ? args.slice(1) : undefined;
  const program = await loadProgram(helpPath ?? args, {
    version: options.version,
    output,
    input: options.input,
    helpWidth: helpWidthOf(options),
    managerOptions: {
      ...options.managerOptions,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    },
  });
  try {
    const line = helpPath === undefined ? args : helpArgs(program, helpPath);
    const normalized = normalizeUnderscoreFlags(program, line);
    const unknown = firstUnknownFlag(program, normalized);
    if (unknown?.isCommand === true) {
      // Commander's own message with its "Did you mean …?", for the name as typed.
      unknown.command.args = [unknown.flag];
      commanderReport(unknown.command, "unknownCommand")();
    }
    if (unknown !== undefined) {
      // Commander would report a missing required option first; the typo is the real mistake.
      commanderReport(unknown.command, "unknownOption")(unknown.flag);
    }
    contextOf(program).command = [program.name(), ...normalized];
    await program.parseAsync(normalized, { from: "user" });
    return 0;
  } catch (error) {
    return reportError(error, output, {
      signal: options.signal,
      command: contextOf(program).command,
    });
  }
}

/**
 * The arguments of `help <path…>`: `<path…> --help`; a name that is no command is left for
 * Commander to report as an unknown command (exit 2).
 */
function helpArgs(root: CommandUnknownOpts, path: readonly string[]): readonly string[] {
  let command = root;
  for (const name of path) {
    const sub = subcommand(command, name);
    if (sub === undefined) return path;
    command = sub;
  }
  return [...path, "--help"];
}

/** Commander's reports of an unknown option or command: internal methods, not in its typings. */
interface CommanderReports {
  unknownOption(flag: string): never;
  unknownCommand(): never;
}

/**
 * Commander's internal `name` report of `command`, bound to it. Checked at run time, so a
 * Commander release that renames the method fails here loudly instead of going on silently.
 */
function commanderReport<K extends keyof CommanderReports>(
  command: CommandUnknownOpts,
  name: K,
): CommanderReports[K] {
  const method: unknown = Reflect.get(command, name);
  if (typeof method !== "function") {
    throw new TypeError(`commander no longer has Command.${name}(): update runCli`);
  }
  return method.bind(command) as CommanderReports[K];
}
