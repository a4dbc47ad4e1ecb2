// Turns whatever a CLI run threw into one stderr line (no stack trace, no token) and an exit code.

import { CommanderError } from "@commander-js/extra-typings";
import {
  ConnectionError,
  RepoApyError,
  RequestError,
  TimeoutError,
  TlsError,
} from "../http/errors.ts";
import type { Output } from "./output.ts";

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Ends the run with an exit code; whatever needed printing was printed already. */
export class ExitError extends Error {
  /** The process exit code. */
  readonly exitCode: number;

  constructor(exitCode: number, message = `exit ${exitCode}`) {
    super(message);
    this.name = "ExitError";
    this.exitCode = exitCode;
  }
}

/** Prints `error` (if not printed yet) and returns the exit code for it. */
export function reportError(error: unknown, output: Output): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof CommanderError) {
    // Commander printed its message already; help and version exit 0, the rest is wrong usage.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof RepoApyError) {
    output.error(`Error: ${error.message.trim()}`);
    if (error instanceof RequestError && output.isVerbose("debug") && error.body !== undefined) {
      output.debug(`Response body: ${JSON.stringify(error.body, null, 2)}`);
    }
    const hint = hintFor(error);
    if (hint !== undefined) output.error(`Hint: ${hint}`);
    return EXIT.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.error(`Error: ${message.split("\n")[0]}`);
  return EXIT.failure;
}

function hintFor(error: RepoApyError): string | undefined {
  if (error instanceof TlsError) {
    if (/verify|ca_bundle/.test(error.message)) return undefined;
    return `set 'ca_bundle = "/path/to/ca.pem"' for the instance in the config file, or ` +
      `'verify = false' (unsafe: disables certificate checks)`;
  }
  if (error instanceof ConnectionError && !(error instanceof TimeoutError)) {
    if (/could not connect/i.test(error.message)) return undefined;
    return `could not connect to ${error.host}: check the host ('repo-apy config show-instances') ` +
      `and your network`;
  }
  return undefined;
}
