// Turns whatever a CLI run threw into one stderr line (no stack trace, no token) and an exit code.

import { CommanderError, type CommandUnknownOpts, type Option } from "@commander-js/extra-typings";
import { InputError, RepoApyError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";
import {
  IncompleteDownloadError,
  LocalFileError,
  UploadError,
  UploadFilesError,
} from "../transfer/errors.ts";
import { PromptCancelled } from "./_input.ts";
import { errorLine, type MessageContext, nextStep, osErrorLine } from "./_messages.ts";

/** Exit codes of the CLI: 130 is an interrupt (Ctrl-C, SIGTERM), as shells report it. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

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

/**
 * A mistake in how a command was called (a missing or conflicting option): exit code 2, like
 * Commander's own usage errors. Commands throw it for usage checks done in their action, except
 * where the Python client has the same command and exits 1 there: then an `InputError` (exit 1),
 * as its exit code wins.
 */
export class UsageError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * Makes a missing required option of `command` a failure (exit 1) instead of wrong usage (exit 2),
 * where the Python client exits 1 for it (`create` without `-i`): its exit code wins. The option
 * stays required in `--help` and `--xmlhelp`.
 */
export function missingOptionFails<C extends CommandUnknownOpts>(command: C): C {
  // Commander's hook for a missing mandatory option (not in its typings): it throws, never returns.
  const hooks = command as unknown as { missingMandatoryOptionValue(option: Option): never };
  hooks.missingMandatoryOptionValue = (option) => {
    const flags = [option.short, option.long].filter((flag) => flag !== undefined).join("/");
    throw new InputError(`Please give ${flags}: it is required (add --help for usage)`);
  };
  return command;
}

/**
 * What {@linkcode reportError} needs of the CLI's output: `Output` (`output.ts`, which imports this
 * module for `EXIT` and `ExitError`) has all four.
 */
export interface ErrorOutput {
  /** Ends a question's line after Ctrl-C. */
  endPrompt(): void;
  /** Prints one error line. */
  error(message: string): void;
  /** Whether messages of this level are shown. */
  isVerbose(level: "debug"): boolean;
  /** Prints a debug line. */
  debug(message: string): void;
}

/** Options of {@linkcode reportError}. */
export interface ReportOptions extends MessageContext {
  /** The run's interrupt signal: when aborted, the error is reported as an interrupt. */
  signal?: AbortSignal | undefined;
  /** The run's command line (program name first): the interrupt line names it. */
  command?: readonly string[] | undefined;
}

/**
 * Prints `error` (if not printed yet) and returns the exit code for it; after an interrupt
 * (`signal` aborted) one line says what was left and how to continue, and the code is 130.
 */
export function reportError(
  error: unknown,
  output: ErrorOutput,
  options: ReportOptions = {},
): number {
  const { signal } = options;
  if (error instanceof ExitError) return error.exitCode;
  if (error instanceof PromptCancelled) {
    // Ctrl-C at a question: on a line of its own after the question's `^C`.
    output.endPrompt();
    output.error(error.message);
    return EXIT.interrupted;
  }
  if (signal?.aborted && !(error instanceof CommanderError)) {
    output.error(interruptMessage(error, options.command));
    return EXIT.interrupted;
  }
  if (error instanceof CommanderError) {
    // Commander printed its message already; help and version exit 0, the rest is wrong usage.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const osLine = osErrorLine(error);
  if (error instanceof RepoApyError) {
    // The next step (a token to store, a scope to add) stays on the error's one line.
    const step = nextStep(error, options);
    const line = step === undefined
      ? errorLine(error, options)
      : `${errorLine(error, options).replace(/\.$/, "")}: ${step}`;
    // Multi-line messages (an example after the reason) keep their lines, in CLI terms.
    const [, ...rest] = error.message.trim().split("\n");
    // A local file the OS refused is said from the OS error's class; so is a library message that
    // only passes on Deno's own OS text.
    const raw = error instanceof LocalFileError ||
      /\(os error \d+\)|NotCapable/.test(error.message);
    output.error(`Error: ${(raw ? osLine : undefined) ?? line}`);
    // Each line is printed (and made safe) on its own.
    for (const restLine of rest) output.error(restLine);
    if (error instanceof RequestError && output.isVerbose("debug") && error.body !== undefined) {
      output.debug(`Response body: ${JSON.stringify(error.body, null, 2)}`);
    }
    return error instanceof UsageError ? EXIT.usage : EXIT.failure;
  }
  const message = error instanceof Error ? error.message : String(error);
  output.error(`Error: ${osLine ?? message.split("\n")[0] ?? ""}`);
  return EXIT.failure;
}

/**
 * What an interrupted command left behind, and how to continue, in one line: the partial
 * download kept, the upload the server keeps, the files already in the record; otherwise only
 * what is true of every command (what completed stays), never a claim about partial files. With
 * the run's `command` line, it ends with that command, quoted for a POSIX shell.
 */
export function interruptMessage(error: unknown, command?: readonly string[]): string {
  const line = interruptLine(error);
  return command === undefined || command.length === 0
    ? line
    : `${line}: ${command.map(shellWord).join(" ")}`;
}

/** A word as a POSIX shell reads it back: plain, or in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * An interrupted command's error with what it had completed (`3 of 12 files were downloaded`),
 * which the interrupt line says first.
 */
export class CompletedBeforeInterrupt extends Error {
  /** What was complete when the interrupt came. */
  readonly completed: string;

  constructor(completed: string, cause: unknown) {
    super(completed, { cause });
    this.name = "CompletedBeforeInterrupt";
    this.completed = completed;
  }
}

/** {@linkcode interruptMessage} without the command. */
function interruptLine(error: unknown): string {
  const completed = find(error, CompletedBeforeInterrupt)?.completed;
  const download = find(error, IncompleteDownloadError);
  if (download !== undefined) {
    const { partials } = download;
    const first = partials[0]!;
    const what = partials.length === 1
      ? `the partial file '${first.partPath}' (${first.bytes}${
        first.total === undefined ? "" : ` of ${first.total}`
      } bytes) was kept`
      : `${partials.length} partial files were kept beside their targets`;
    return `Interrupted: ${
      completed === undefined ? "" : `${completed}; `
    }${what}; run the same command again to resume the download`;
  }
  if (completed !== undefined) {
    return `Interrupted: ${completed}; run the same command again to finish the job`;
  }
  const upload = find(error, UploadError);
  const files = find(error, UploadFilesError);
  const folder = files === undefined
    ? ""
    : `; ${files.done.uploaded.length + files.done.skipped.length} file(s) are in the record`;
  const rerun = files === undefined
    ? "run the same command again to resume it"
    : "run the same command again to continue (files already in the record are skipped)";
  if (upload?.resumable === true && upload.upload !== undefined) {
    // `left` (what the server holds, when the upload layer reports it) beats the upload's state
    // as last seen.
    const { name, chunk_count: count, chunks } = upload.upload;
    return `Interrupted: the upload of '${name}' stays on the server (${
      upload.left?.chunks ?? chunks?.length ?? 0
    } of ${upload.left?.chunkCount ?? count} chunks)${folder}; ${rerun}`;
  }
  if (files !== undefined) return `Interrupted: ${folder.slice(2)}; ${rerun}`;
  return "Interrupted before the command finished: what it completed is kept; run the same " +
    "command again to finish the job";
}

function find<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth++) {
    if (current instanceof type) return current;
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}
