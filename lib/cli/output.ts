/**
 * The one place the CLI prints: data lines on stdout, diagnostics on stderr filtered by the
 * verbosity, prompts, `--json` output and a TTY-only progress bar.
 *
 * @module
 */

import { formatBytes } from "../http/format_bytes.ts";
import { LOG_LEVELS, type Logger, type LogLevel } from "../http/log.ts";
import { EXIT, ExitError } from "./_errors.ts";
import { progressLine } from "./_progress_line.ts";
import { terminalLine, wrapWords } from "./_terminal_text.ts";

// The byte formatter is the library's own (its error messages use it too); `./cli/kit` keeps the name.
export { formatBytes, type FormatBytesOptions } from "../http/format_bytes.ts";

/** Verbosity levels of the CLI (`-V/--verbose`), from quietest to loudest. */
export const VERBOSITY_LEVELS: typeof LOG_LEVELS = LOG_LEVELS;

/** One verbosity level (`-V/--verbose`). */
export type Verbosity = LogLevel;

/** Where an {@linkcode Output} writes; defaults to the process's stdout and stderr. */
export interface OutputStreams {
  /** Receives text for stdout. */
  stdout?: ((text: string) => void) | undefined;
  /** Receives text for stderr. */
  stderr?: ((text: string) => void) | undefined;
  /** Whether stderr is a terminal (enables the progress bar). Default: asks Deno. */
  stderrIsTerminal?: boolean | undefined;
}

/**
 * Prints for the CLI. Data goes to stdout at every verbosity: {@linkcode Output.data} as it is,
 * {@linkcode Output.text} made safe for the terminal, {@linkcode Output.json}. Messages go to
 * stderr at their verbosity ({@linkcode Output.info}, `warning`, `error`, `debug`), each as one
 * safe line. A secret registered with {@linkcode Output.addSecret} (the PAT) is printed as `***`.
 *
 * @example Data and messages (no permission needed)
 * ```ts
 * import { Output } from "@repo/apy/cli/kit";
 * import assert from "node:assert";
 *
 * const out: string[] = [];
 * const err: string[] = [];
 * const output = new Output({
 *   stdout: (text) => out.push(text),
 *   stderr: (text) => err.push(text),
 *   stderrIsTerminal: false,
 * });
 * output.addSecret("pat_0123456789");
 * output.data("42");
 * output.text("token pat_0123456789");
 * output.json({ id: 7 });
 * output.writeOut("repo-apy 1.0.0\n"); // help, version: as it is
 * output.info("Created\nrecord 7");
 * output.debug("hidden at the default verbosity");
 * output.verbosity = "warning"; // -V warning
 * assert.strictEqual(output.isVerbose("info"), false);
 * output.info("hidden now");
 * output.warning("slow server");
 * output.logger().error("gone"); // the library's messages, through the same filter
 * output.prompt("Delete? [y/N] ");
 * output.endPrompt(); // Ctrl-C at the question: its line is ended
 * assert.strictEqual(output.stderrIsTerminal(), false);
 * assert.deepStrictEqual(out, ["42\n", "token ***\n", '{\n  "id": 7\n}\n', "repo-apy 1.0.0\n"]);
 * assert.deepStrictEqual(err, [
 *   "Created?record 7\n",
 *   "Warning: slow server\n",
 *   "gone\n",
 *   "Delete? [y/N] ",
 *   "\n",
 * ]);
 * ```
 *
 * @example A status line (the progress bar) with messages above it
 * ```ts
 * import { Output } from "@repo/apy/cli/kit";
 * import assert from "node:assert";
 *
 * const err: string[] = [];
 * const output = new Output({ stderr: (text) => err.push(text), stderrIsTerminal: true });
 * output.statusLine("up [#---] 25%");
 * output.fileLine("Uploaded 'a.txt'"); // nothing on a terminal without -V: the bar says it
 * output.error("Failed 'b.txt'");
 * output.writeErr("error: missing argument\n");
 * output.statusLine(undefined);
 * assert.deepStrictEqual(err, [
 *   "\rup [#---] 25%\x1b[K",
 *   "\r\x1b[2KFailed 'b.txt'\nup [#---] 25%\x1b[K",
 *   "\r\x1b[2Kerror: missing argument\nup [#---] 25%\x1b[K",
 *   "\r\x1b[2K",
 * ]);
 * ```
 */
export class Output {
  /** Current verbosity; messages above it are dropped. */
  verbosity: Verbosity = "info";
  /**
   * Whether `-V/--verbose` was given: on a terminal, a transfer's per-file lines are printed
   * only then (see {@linkcode Output.fileLine}).
   */
  verbosityGiven = false;
  /**
   * Whether progress is reported as plain lines when stderr is not a terminal (`--progress`);
   * on a terminal the bar is drawn either way.
   */
  plainProgress = false;
  #stdout: (text: string) => void;
  #stderr: (text: string) => void;
  #stderrIsTerminal: boolean | undefined;
  #secrets: string[] = [];
  #stdoutClosed = false;
  #statusLine: string | undefined;
  /** Whether the last text written was a question without its line end. */
  #openPrompt = false;

  /**
   * Creates the output. When the reader of the process's stdout goes away (`repo-apy … | head`),
   * the first write ends the run quietly with exit code 0; a closed stderr is ignored.
   */
  constructor(streams: OutputStreams = {}) {
    this.#stdout = streams.stdout ?? ((text) => {
      if (this.#stdoutClosed) return;
      if (!writeUnlessClosed(Deno.stdout, text)) {
        this.#stdoutClosed = true;
        throw new ExitError(EXIT.ok, "stdout was closed by its reader");
      }
    });
    this.#stderr = streams.stderr ?? ((text) => void writeUnlessClosed(Deno.stderr, text));
    this.#stderrIsTerminal = streams.stderrIsTerminal;
  }

  /**
   * Replaces a secret (the PAT) by `***` in everything printed from now on; a secret shorter
   * than 8 characters is ignored.
   */
  addSecret(secret: string): void {
    if (secret.length >= 8 && !this.#secrets.includes(secret)) this.#secrets.push(secret);
  }

  /**
   * Prints one file's line of a transfer of many (`Uploaded 'a.csv' (1.2 kB)`) on stderr. On a
   * terminal the bar and the summary say enough, so the line is printed only when
   * `-V/--verbose` was given; elsewhere (a log) at the `info` verbosity, like every message.
   */
  fileLine(message: string): void {
    if (this.stderrIsTerminal() && !this.verbosityGiven) return;
    this.info(message);
  }

  /** Whether a message of `level` is printed at the current verbosity. */
  isVerbose(level: Verbosity): boolean {
    return VERBOSITY_LEVELS.indexOf(level) <= VERBOSITY_LEVELS.indexOf(this.verbosity);
  }

  /** Prints a data line on stdout as it is, whatever the verbosity (ids, JSON, token lists). */
  data(line: string): void {
    this.writeOut(`${line}\n`);
  }

  /** Prints a value as indented JSON on stdout (`--json`). */
  json(value: unknown): void {
    this.data(JSON.stringify(value, null, 2));
  }

  /** Prints a line of data for people (a `show-info` field) on stdout, made safe like a message. */
  text(line: string): void {
    this.data(terminalLine(line));
  }

  /**
   * Prints a status message (`Created record 7`) on stderr unless the verbosity is `warning` or
   * `error`: stdout holds data only. The message is one line: control characters and line breaks
   * in it (from server text) are printed as `?`.
   */
  info(message: string): void {
    if (this.isVerbose("info")) this.writeErr(`${this.#rows(terminalLine(message))}\n`);
  }

  /** A message line broken at spaces to the terminal's width (on a terminal only). */
  #rows(line: string): string {
    return this.stderrIsTerminal() ? wrapWords(line, terminalColumns() - 1) : line;
  }

  /** Prints an error on stderr at every verbosity, as one safe line. */
  error(message: string): void {
    this.writeErr(`${this.#rows(terminalLine(message))}\n`);
  }

  /** Prints a warning on stderr unless the verbosity is `error`, as one safe line. */
  warning(message: string): void {
    if (this.isVerbose("warning")) {
      this.writeErr(`${this.#rows(`Warning: ${terminalLine(message)}`)}\n`);
    }
  }

  /**
   * Prints a debug message on stderr at `debug` verbosity; each line is made safe, the line
   * breaks are kept (indented JSON bodies).
   */
  debug(message: string): void {
    if (!this.isVerbose("debug")) return;
    this.writeErr(`${message.split("\n").map((line) => terminalLine(line)).join("\n")}\n`);
  }

  /** Prints a question on stderr without a line end, so stdout stays clean for data. */
  prompt(text: string): void {
    this.writeErr(text);
    this.#openPrompt = !text.endsWith("\n");
  }

  /** Ends the line of a question left unanswered (Ctrl-C at the prompt), if one is open. */
  endPrompt(): void {
    if (this.#openPrompt) this.writeErr("\n");
  }

  /** Writes text to stdout as it is (help, version), above the status line if one is drawn. */
  writeOut(text: string): void {
    if (this.#statusLine === undefined) {
      this.#stdout(this.#redact(text));
      return;
    }
    // stdout may be the same terminal: data goes above the bar too.
    this.#stderr("\r\x1b[2K");
    this.#stdout(this.#redact(text));
    this.#stderr(`${this.#statusLine}\x1b[K`);
  }

  /** Writes text to stderr as it is (usage errors), above the status line if one is drawn. */
  writeErr(text: string): void {
    this.#openPrompt = false;
    if (this.#statusLine === undefined) {
      this.#stderr(this.#redact(text));
      return;
    }
    // The bar's line is cleared, the message takes it, and the bar is drawn again below; text
    // without a line end (a prompt) stays, and the bar waits for its next redraw.
    const complete = text.endsWith("\n");
    this.#stderr(`\r\x1b[2K${this.#redact(text)}${complete ? `${this.#statusLine}\x1b[K` : ""}`);
    if (!complete) this.#statusLine = undefined;
  }

  /**
   * Draws `line` as the one status line (the progress bar) at the bottom of stderr, replacing the
   * one drawn before; `undefined` clears it. While it is shown, every message printed goes on
   * its own line above it, and the bar is drawn again below. For a terminal only; `line` is
   * already fitted to its width.
   */
  statusLine(line: string | undefined): void {
    if (line === undefined) {
      if (this.#statusLine !== undefined) this.#stderr("\r\x1b[2K");
      this.#statusLine = undefined;
      return;
    }
    this.#statusLine = this.#redact(line);
    this.#stderr(`\r${this.#statusLine}\x1b[K`);
  }

  /** A {@linkcode Logger} for the library: every level goes to stderr, filtered by the verbosity. */
  logger(): Logger {
    return {
      debug: (message) => this.debug(message),
      info: (message) => this.info(message),
      warning: (message) => this.warning(message),
      error: (message) => this.error(message),
    };
  }

  /** Whether stderr is a terminal (given to the constructor, else asked of Deno). */
  stderrIsTerminal(): boolean {
    return this.#stderrIsTerminal ?? Deno.stderr.isTerminal();
  }

  #redact(text: string): string {
    let result = text;
    for (const secret of this.#secrets) result = result.replaceAll(secret, "***");
    return result;
  }
}

/** A progress bar; every method is a no-op when nothing is shown. */
export interface Progress {
  /** Adds `amount` to the done count and redraws. */
  advance(amount: number): void;
  /**
   * Adds `amount` that was done before (a resumed transfer): it counts toward the done count,
   * not toward the rate.
   */
  skip(amount: number): void;
  /** Counts one more file done (with {@linkcode ProgressOptions.files}) and redraws. */
  fileDone(): void;
  /** Clears the bar's line (on a terminal) or prints a last line (plain progress). */
  done(): void;
}

/** Options of {@linkcode createProgress}. */
export interface ProgressOptions {
  /** Clock in milliseconds. @default {performance.now} */
  now?: (() => number) | undefined;
  /** Milliseconds between two plain progress lines. @default {5000} */
  interval?: number | undefined;
  /** Milliseconds between two redraws of the bar on a terminal. @default {100} */
  redraw?: number | undefined;
  /** Number of files of the transfer: the line shows `n/N files`. */
  files?: number | undefined;
  /**
   * The terminal's width, asked at every redraw (the bar follows a resize). Default: the width
   * of stderr's terminal, 80 when unknown.
   */
  columns?: (() => number) | undefined;
}

/**
 * Creates a progress display on stderr. On a terminal it is one line, redrawn in place at most
 * every 100 ms and never wider than the terminal (see {@linkcode ProgressOptions.columns}):
 * label, bar, files done of all, share, bytes of the total, rate and ETA, the least useful parts
 * dropped first on a narrow terminal. Messages printed meanwhile go above it (see
 * {@linkcode Output.statusLine}). When stderr is not a terminal and
 * {@linkcode Output.plainProgress} is set (`--progress`), it prints a plain line (bytes, rate,
 * ETA) every `interval` ms, so job logs show that a transfer is alive. Nothing is shown below the
 * `info` verbosity (`-q`). A `total` of 0 or less draws no percentage and no ETA.
 *
 * @example Usage
 * ```ts
 * import { createProgress, Output } from "./output.ts";
 * const progress = createProgress(100, "upload", new Output({ stderrIsTerminal: false }));
 * progress.advance(50); // prints nothing: stderr is not a terminal and --progress is off
 * progress.done();
 * ```
 */
export function createProgress(
  total: number,
  label: string,
  output: Output = new Output(),
  options: ProgressOptions = {},
): Progress {
  const { now = () => performance.now(), interval = 5000, redraw = 100, files } = options;
  const columns = options.columns ?? terminalColumns;
  const terminal = output.stderrIsTerminal();
  if ((!terminal && !output.plainProgress) || !output.isVerbose("info")) {
    return { advance() {}, skip() {}, fileDone() {}, done() {} };
  }
  let current = 0;
  let skipped = 0;
  let filesDone = 0;
  const started = now();
  let lastDraw = terminal ? Number.NEGATIVE_INFINITY : started;
  const stats = (time: number) => {
    const seconds = (time - started) / 1000;
    const rate = seconds > 0 ? (current - skipped) / seconds : 0;
    const amount = total > 0
      ? `${formatBytes(current)}/${formatBytes(total)}`
      : formatBytes(current);
    // Many small files take round trips more than bytes: the time left is the longer of what
    // the bytes and what the files still to go take at this run's pace.
    const byBytes = total > 0 && rate > 0 && current < total ? (total - current) / rate : 0;
    const byFiles = files !== undefined && filesDone > 0 && filesDone < files
      ? seconds / filesDone * (files - filesDone)
      : 0;
    const left = Math.max(byBytes, byFiles);
    const eta = left > 0 ? `ETA ${formatDuration(left)}` : "";
    return { amount, rate: rate > 0 ? `${formatBytes(rate)}/s` : "", eta, seconds };
  };
  const percentOf = () => total > 0 ? Math.floor(Math.min(1, current / total) * 100) : undefined;
  const filesText = () => files === undefined ? undefined : `${filesDone}/${files} files`;
  const draw = (force = false) => {
    const time = now();
    if (!force && time - lastDraw < (terminal ? redraw : interval)) return;
    lastDraw = time;
    const { amount, rate, eta } = stats(time);
    const percent = percentOf();
    if (!terminal) {
      const share = percent === undefined ? "" : ` (${percent}%)`;
      const count = files === undefined ? "" : `, ${filesText()}`;
      const details = [rate, eta].filter((part) => part !== "").map((part) => `, ${part}`);
      output.writeErr(`${terminalLine(label)}: ${amount}${share}${count}${details.join("")}\n`);
      return;
    }
    output.statusLine(progressLine(
      { label: terminalLine(label), percent, files: filesText(), amount, rate, eta },
      columns(),
    ));
  };
  return {
    advance(amount) {
      current += amount;
      draw(terminal && total > 0 && current >= total);
    },
    skip(amount) {
      current += amount;
      skipped += amount;
    },
    fileDone() {
      filesDone++;
      draw(terminal);
    },
    done() {
      if (terminal) {
        output.statusLine(undefined);
        return;
      }
      const { rate, seconds } = stats(now());
      output.writeErr(
        `${terminalLine(label)}: done, ${formatBytes(current)} in ${formatDuration(seconds)}${
          rate === "" ? "" : ` (${rate})`
        }\n`,
      );
    },
  };
}

/** The width of stderr's terminal; 80 when it has none. */
function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/**
 * Formats seconds as `45s`, `3m 05s` or `2h 03m`.
 *
 * @example Usage
 * ```ts
 * import { formatDuration } from "./output.ts";
 * console.log(formatDuration(185)); // "3m 05s"
 * ```
 */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m ${String(whole % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

const encoder = new TextEncoder();

/** Writes all of `text`; returns `false` when the reader closed the pipe (EPIPE). */
function writeUnlessClosed(stream: { writeSync(data: Uint8Array): number }, text: string): boolean {
  let data = encoder.encode(text);
  try {
    while (data.length > 0) data = data.subarray(stream.writeSync(data));
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) return false;
    throw error;
  }
  return true;
}
