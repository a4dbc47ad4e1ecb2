/**
 * The logger interface the library reports through. The library never prints; the CLI passes a
 * logger that honours its verbosity.
 *
 * @module
 */

/** Receives the library's diagnostics. */
export interface Logger {
  /** Details of requests and retries. */
  debug(message: string): void;
  /** Progress worth telling. */
  info(message: string): void;
  /** Something unusual that did not stop the operation. */
  warning(message: string): void;
  /** A failure. */
  error(message: string): void;
}

/** A logger that drops every message: the library default. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warning() {},
  error() {},
};

/** A verbosity level. */
export type LogLevel = "error" | "warning" | "info" | "debug";

/** Verbosity levels, from the quietest to the loudest. */
export const LOG_LEVELS = [
  "error",
  "warning",
  "info",
  "debug",
] as const satisfies readonly LogLevel[];

/**
 * A logger that writes messages of `level` and above to stderr: what `new RepoManager({ verbose })`
 * uses when no `log` is given. Writing to stderr needs no permission.
 *
 * @example Usage
 * ```ts
 * import { stderrLogger } from "./log.ts";
 * const log = stderrLogger("error");
 * log.info("not printed");
 * ```
 *
 * @param level The loudest level that is printed (`info` prints info, warnings and errors).
 * @returns The logger.
 */
export function stderrLogger(level: LogLevel): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const encoder = new TextEncoder();
  const write = (at: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(at) <= threshold) Deno.stderr.writeSync(encoder.encode(`${message}\n`));
  };
  return {
    debug: (message) => write("debug", message),
    info: (message) => write("info", message),
    warning: (message) => write("warning", message),
    error: (message) => write("error", message),
  };
}
