/**
 * The logger interface the library reports through. The library never prints; the CLI passes a
 * logger that honours its verbosity.
 *
 * @example Usage
 * ```ts
 * import { silentLogger } from "./log.ts";
 * silentLogger.debug("not printed");
 * ```
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
