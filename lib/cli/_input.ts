// Line input for prompts: stdin (a terminal or a pipe) or a fixed list of lines (tests).

import { InputError } from "../errors.ts";

/**
 * The longest line a prompt accepts from a pipe, in bytes (64 KiB: far more than a host or a
 * token); a longer line is an error instead of a buffer that grows without limit.
 */
export const MAX_LINE_BYTES = 64 * 1024;

/**
 * A question was cancelled (Ctrl-C while it waited for the answer): nothing was changed yet.
 * The CLI says so in one line and exits with 130.
 */
export class PromptCancelled extends Error {
  constructor(cause?: unknown) {
    super("Cancelled: nothing was changed", cause === undefined ? {} : { cause });
    this.name = "PromptCancelled";
  }
}

/** Reads answers to prompts. */
export interface LineInput {
  /** Next line without its line break, or `null` at end of input. `hidden` hides typing on a terminal. */
  readLine(options?: { hidden?: boolean }): Promise<string | null>;
  /** Whether a person types the answers (a terminal): only then are the questions printed. */
  isTerminal(): boolean;
}

/** Input answering prompts from a list of lines (like a pipe), then end of input. */
export function linesInput(lines: readonly string[]): LineInput {
  const queue = [...lines];
  return { readLine: () => Promise.resolve(queue.shift() ?? null), isTerminal: () => false };
}

/**
 * Input reading stdin; works with a terminal and with a pipe. When `signal` aborts (Ctrl-C,
 * SIGTERM) while a line is awaited, the read rejects at once with {@linkcode PromptCancelled}.
 */
export function stdinInput(signal?: AbortSignal): LineInput {
  const decoder = new TextDecoder();
  let buffer: Uint8Array = new Uint8Array(0);
  let ended = false;

  async function readPiped(): Promise<string | null> {
    while (true) {
      const newline = buffer.indexOf(0x0a);
      if (newline >= 0) {
        const line = decoder.decode(buffer.subarray(0, newline));
        buffer = buffer.slice(newline + 1);
        return line.endsWith("\r") ? line.slice(0, -1) : line;
      }
      if (newline < 0 && buffer.length > MAX_LINE_BYTES) {
        throw new InputError(
          `A line of the input is longer than ${MAX_LINE_BYTES} bytes: pipe one answer per line`,
        );
      }
      if (ended) {
        if (buffer.length === 0) return null;
        const rest = decoder.decode(buffer);
        buffer = new Uint8Array(0);
        return rest;
      }
      const chunk = new Uint8Array(4096);
      const read = await Deno.stdin.read(chunk);
      if (read === null) ended = true;
      else buffer = concat(buffer, chunk.subarray(0, read));
    }
  }

  async function readHidden(): Promise<string | null> {
    Deno.stdin.setRaw(true);
    const bytes: number[] = [];
    try {
      const chunk = new Uint8Array(64);
      while (true) {
        const read = await Deno.stdin.read(chunk);
        if (read === null) return bytes.length === 0 ? null : decoder.decode(new Uint8Array(bytes));
        if (bytes.length > MAX_LINE_BYTES) {
          throw new InputError(`The answer is longer than ${MAX_LINE_BYTES} bytes`);
        }
        for (const byte of chunk.subarray(0, read)) {
          if (byte === 0x0d || byte === 0x0a) return decoder.decode(new Uint8Array(bytes));
          // Raw mode: Ctrl-C arrives as a byte, not as SIGINT.
          if (byte === 0x03) throw new PromptCancelled();
          if (byte === 0x04 && bytes.length === 0) return null;
          if (byte === 0x7f || byte === 0x08) bytes.pop();
          else if (byte >= 0x20) bytes.push(byte);
        }
      }
    } finally {
      Deno.stdin.setRaw(false);
    }
  }

  return {
    isTerminal: () => Deno.stdin.isTerminal(),
    readLine(options = {}) {
      return cancellable(
        options.hidden === true && Deno.stdin.isTerminal() ? readHidden() : readPiped(),
        signal,
      );
    },
  };
}

/**
 * `reading`, or {@linkcode PromptCancelled} as soon as `signal` aborts: a read of stdin cannot be
 * cancelled, so it is left behind (the CLI exits right after an interrupt).
 */
function cancellable<T>(reading: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return reading;
  if (signal.aborted) {
    reading.catch(() => {});
    return Promise.reject(new PromptCancelled(signal.reason));
  }
  const { promise, reject } = Promise.withResolvers<never>();
  const onAbort = () => reject(new PromptCancelled(signal.reason));
  signal.addEventListener("abort", onAbort, { once: true });
  reading.catch(() => {});
  return Promise.race([reading, promise]).finally(() =>
    signal.removeEventListener("abort", onAbort)
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const result = new Uint8Array(a.length + b.length);
  result.set(a);
  result.set(b, a.length);
  return result;
}
