/**
 * {@linkcode CLIRepoManager}: the {@linkcode RepoManager} the CLI commands get, tied to the CLI's
 * output and verbosity.
 *
 * @module
 */

import type { ConnectionSettings } from "../config/settings.ts";
import { RepoManager, type RepoManagerOptions } from "../manager/repo_manager.ts";
import { Output, type Verbosity } from "./output.ts";

/** Options of a {@linkcode CLIRepoManager}. */
export interface CLIRepoManagerOptions extends RepoManagerOptions {
  /** Where messages go; default: the process's stdout/stderr. */
  output?: Output;
  /** Verbosity to set on the output. Default: the output's current one (`info` for a new one). */
  verbose?: Verbosity;
}

/** A manager for CLI commands: library diagnostics and config warnings go to the CLI output. */
export class CLIRepoManager extends RepoManager {
  /** Where this manager's messages go. */
  readonly output: Output;
  /** Cancels the command (Ctrl-C): pass it to transfers so they can leave resumable data. */
  readonly signal: AbortSignal | undefined;

  /**
   * Creates the manager; nothing is read or sent yet.
   *
   * @example Usage
   * ```ts
   * import { CLIRepoManager } from "./cli_manager.ts";
   * import { startServer } from "../testing/mod.ts";
   * await using server = await startServer();
   * await using manager = new CLIRepoManager({ host: server.url, pat: server.pat, verbose: "error" });
   * console.log(typeof (await manager.info()).version); // "string"
   * ```
   *
   * @param options Manager options plus `output` and `verbose`.
   */
  constructor(options: CLIRepoManagerOptions = {}) {
    const { output = new Output(), verbose, ...rest } = options;
    if (verbose !== undefined) output.verbosity = verbose;
    super({
      ...rest,
      log: rest.log ?? output.logger(),
      warn: rest.warn ?? ((message: string) => output.warning(message)),
    });
    this.output = output;
    this.signal = rest.signal;
  }

  /**
   * The resolved settings; the PAT is registered with the output so it is never printed.
   *
   * @returns The settings.
   */
  override async settings(): Promise<ConnectionSettings> {
    const settings = await super.settings();
    this.output.addSecret(settings.pat);
    return settings;
  }

  /**
   * Whether a message of `level` is printed.
   *
   * @param level The message's level.
   * @returns `true` when printed at the current verbosity.
   */
  isVerbose(level: Verbosity): boolean {
    return this.output.isVerbose(level);
  }

  /**
   * Prints a result message on stdout (silenced by `-V warning` and `-V error`).
   *
   * @param message The message.
   */
  printInfo(message: string): void {
    this.output.info(message);
  }

  /**
   * Prints a warning on stderr (silenced by `-V error`).
   *
   * @param message The message.
   */
  printWarning(message: string): void {
    this.output.warning(message);
  }

  /**
   * Prints an error on stderr.
   *
   * @param message The message.
   */
  printError(message: string): void {
    this.output.error(message);
  }

  /**
   * Prints a debug message on stderr (only with `-V debug`).
   *
   * @param message The message.
   */
  printDebug(message: string): void {
    this.output.debug(message);
  }

  /**
   * Prints a data line on stdout whatever the verbosity.
   *
   * @param line The line.
   */
  echo(line: string): void {
    this.output.data(line);
  }
}
