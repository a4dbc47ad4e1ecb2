// The transport's idle timeout: it fires only when no bytes moved in either direction for the
// whole timeout, so a long upload or download never fails while data flows.
import { ConnectionError, TimeoutError } from "./errors.ts";
import type { ReadWatch } from "./_body.ts";

/** The clock an {@linkcode IdleTimer} reads and sets timers on; replaceable in tests. */
export interface IdleClock {
  now(): number;
  set(callback: () => void, ms: number): number;
  clear(id: number): void;
  /** Whether the timer keeps the process alive. */
  hold(id: number, held: boolean): void;
}

/** The real clock: `performance.now()` and the runtime's timers. */
export const REAL_CLOCK: IdleClock = {
  now: () => performance.now(),
  set: (callback, ms) => Number(setTimeout(callback, ms)),
  clear: (id) => clearTimeout(id),
  hold: (id, held) => held ? Deno.refTimer(id) : Deno.unrefTimer(id),
};

/**
 * A timer that aborts a request after `timeoutMs` without activity. Activity only notes the time:
 * one timer runs per request and, when it fires early, waits for the rest of the timeout after
 * the last activity. Every request touches it several times (and a big transfer once per piece
 * sent or read), so clearing and starting a timer each time would cost more than the request's
 * other bookkeeping.
 */
export class IdleTimer implements Disposable {
  readonly controller: AbortController = new AbortController();
  readonly timeoutMs: number;
  #clock: IdleClock;
  #timer: number | undefined;
  #last = 0;
  #paused = false;
  #stopped = false;
  #fired = false;

  constructor(timeoutMs: number, clock: IdleClock = REAL_CLOCK) {
    this.timeoutMs = timeoutMs;
    this.#clock = clock;
    this.touch();
  }

  /** Whether the timeout passed (and the request was aborted). */
  get fired(): boolean {
    return this.#fired;
  }

  /** Bytes moved: the timeout starts again. */
  touch(): void {
    // Late activity (a piece written after the request failed) must not start it again.
    if (this.#stopped) return;
    this.#last = this.#clock.now();
    if (this.#timer === undefined) {
      this.#paused = false;
      this.#timer = this.#clock.set(() => this.#check(), this.timeoutMs);
    } else if (this.#paused) {
      this.#paused = false;
      this.#clock.hold(this.#timer, true);
    }
  }

  /**
   * Nothing is pending until the next {@linkcode IdleTimer.touch}: the timeout does not count,
   * and the timer no longer keeps the process alive.
   */
  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    if (this.#timer !== undefined) this.#clock.hold(this.#timer, false);
  }

  /** Stops the timer for good (the request is over). */
  stop(): void {
    this.#stopped = true;
    this.#paused = true;
    if (this.#timer !== undefined) this.#clock.clear(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    this.#timer = undefined;
    if (this.#paused) return;
    const idle = this.#clock.now() - this.#last;
    if (idle < this.timeoutMs) {
      this.#timer = this.#clock.set(() => this.#check(), this.timeoutMs - idle);
      return;
    }
    this.#fired = true;
    this.controller.abort();
  }

  [Symbol.dispose](): void {
    this.stop();
  }
}

/**
 * The idle timer around the reads of an answer body: the timeout counts only while a read
 * waits, a failed read is the caller's abort reason (its signal aborted), a
 * {@linkcode TimeoutError} (the timeout passed) or a broken connection, and the timer stops when
 * reading is over.
 */
export function watchReads(timer: IdleTimer, host: string, signal?: AbortSignal): ReadWatch {
  return {
    before: () => timer.touch(),
    after: () => timer.pause(),
    failed: (cause) => {
      timer.stop();
      if (signal?.aborted) return signal.reason;
      return timer.fired ? new TimeoutError(host, timer.timeoutMs) : new ConnectionError(
        host,
        `The connection to ${host} broke while reading the answer: try again`,
        { cause },
      );
    },
    end: () => timer.stop(),
  };
}

/** Assumed slowest sending rate of a byte body whose progress fetch does not show (bytes/s). */
export const MIN_SEND_RATE = 65_536;

/**
 * Sends with Deno's fetch while counting the body as activity: a stream's reads touch the timer;
 * a byte body keeps its Content-Length, so its progress is invisible, and it counts as moving
 * for as long as sending it at {@linkcode MIN_SEND_RATE} takes.
 */
export async function sendWatched(
  send: (body: BodyInit | null) => Promise<Response>,
  body: BodyInit | null,
  touch: () => void,
): Promise<Response> {
  if (body instanceof ReadableStream) return await send(touchingStream(body, touch));
  const size = body instanceof Blob
    ? body.size
    : ArrayBuffer.isView(body) || body instanceof ArrayBuffer
    ? body.byteLength
    : 0;
  if (size < 1_048_576) return await send(body);
  const moving = keepMoving(touch, size);
  try {
    return await send(body);
  } finally {
    moving.stop();
  }
}

/** How often {@linkcode keepMoving} notes activity: well within the shortest useful timeout. */
const TICK_MS = 100;

/**
 * Counts `bytes` as moving for as long as a receiver at {@linkcode MIN_SEND_RATE} takes to read
 * them: the activity of data whose progress cannot be seen (a byte body inside fetch, or what the
 * network buffers still hold after the last write). `stop()` ends it early.
 *
 * @param touch The idle timer's activity callback.
 * @param bytes Bytes whose reading is not seen.
 * @returns The handle to stop it.
 */
export function keepMoving(touch: () => void, bytes: number): { stop(): void } {
  const until = performance.now() + bytes / MIN_SEND_RATE * 1000;
  const ticker = setInterval(() => {
    if (performance.now() < until) touch();
    else clearInterval(ticker);
  }, TICK_MS);
  Deno.unrefTimer(ticker);
  return { stop: () => clearInterval(ticker) };
}

function touchingStream(
  source: ReadableStream<Uint8Array>,
  touch: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      touch();
      const { done, value } = await reader.read();
      touch();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

const READ_SIZE = 65_536;

type BodyReader =
  | { byob: ReadableStreamBYOBReader; plain?: undefined }
  | { byob?: undefined; plain: ReadableStreamDefaultReader<Uint8Array> };

function openReader(source: ReadableStream<Uint8Array>): BodyReader {
  try {
    return { byob: source.getReader({ mode: "byob" }) };
  } catch {
    return { plain: source.getReader() };
  }
}

/**
 * Rejects with the signal's reason once it aborts (never without a signal); `stop` removes the
 * listener.
 */
function abortion(signal: AbortSignal | undefined): { promise: Promise<never>; stop(): void } {
  if (signal === undefined) return { promise: new Promise<never>(() => {}), stop() {} };
  const { promise, reject } = Promise.withResolvers<never>();
  promise.catch(() => {}); // raced against each read; unread when no read waits
  const onAbort = () => reject(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { promise, stop: () => signal.removeEventListener("abort", onAbort) };
}

/**
 * Wraps a response so that every read of its body counts as activity, a pause longer than the
 * timeout aborts it with {@linkcode TimeoutError}, and the caller's `signal` ends it at once
 * with the signal's reason: a read waiting for data, or data already buffered, never outlives
 * an abort.
 */
export function guardBody(
  response: Response,
  timer: IdleTimer,
  host: string,
  signal?: AbortSignal,
): Response {
  const source = response.body;
  if (source === null) {
    timer.stop();
    return response;
  }
  const reader = openReader(source);
  const watch = watchReads(timer, host, signal);
  const aborted = abortion(signal);
  const settle = <T>(read: Promise<T>): Promise<T> =>
    signal === undefined ? read : Promise.race([read, aborted.promise]);
  // A byte stream, so consumers can read into their own reused buffer (BYOB) and a multi-GB
  // download creates no garbage per chunk; the timer runs only while a read waits.
  timer.pause();
  const body = new ReadableStream({
    type: "bytes",
    async pull(controller) {
      timer.touch();
      const end = () => {
        timer.stop();
        aborted.stop();
        controller.close();
      };
      try {
        if (signal?.aborted) throw signal.reason;
        const request = controller.byobRequest;
        const view = request?.view;
        if (request && view && reader.byob) {
          const target = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          const { done, value } = await settle(reader.byob.read(target));
          if (done) end();
          if (value) request.respondWithNewView(value);
          else request.respond(0);
          return;
        }
        const { done, value } = await settle(
          reader.byob ? reader.byob.read(new Uint8Array(READ_SIZE)) : reader.plain.read(),
        );
        if (done) {
          end();
          // A reader waiting with its own buffer (BYOB) learns of the end only this way.
          controller.byobRequest?.respond(0);
        } else if (value.byteLength > 0) controller.enqueue(value);
      } catch (error) {
        aborted.stop();
        controller.error(watch.failed(error));
        // The connection is not read to its end: an aborted read leaves it to be closed.
        (reader.byob ?? reader.plain).cancel(error).catch(() => {});
      } finally {
        timer.pause();
      }
    },
    cancel(reason) {
      timer.stop();
      aborted.stop();
      return (reader.byob ?? reader.plain).cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
