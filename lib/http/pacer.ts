/**
 * {@linkcode Pacer}: one pace for every request of the process to one host, after rclone's
 * `lib/pacer`. A 429 answer pauses every request that starts afterwards (not only the one that got
 * it), and spaces request starts apart until answers succeed again.
 *
 * @module
 */

import { sleep as realSleep } from "./retry.ts";

/** Options of a {@linkcode Pacer}; the clock and sleep are replaceable for tests. */
export interface PacerOptions {
  /**
   * Longest spacing between two request starts after 429 answers, in milliseconds.
   *
   * @default {2000}
   */
  maxIntervalMs?: number;
  /**
   * Largest random part added to a pause, as a fraction of the pause (`0.5`: up to 50 % longer),
   * so that clients told the same `Retry-After` do not come back at the same instant.
   *
   * @default {0.5}
   */
  jitter?: number;
  /** Current time in milliseconds. @default {performance.now} */
  now?: () => number;
  /** Waits for a time unless the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random number in [0, 1). @default {Math.random} */
  random?: () => number;
}

const FIRST_INTERVAL_MS = 50;

/**
 * Paces request starts: pauses after 429 answers, shared by every request that uses it.
 *
 * @example A 429 pauses the next start (injected clock, no real sleep)
 * ```ts
 * import { Pacer } from "@repo/apy/http";
 * import assert from "node:assert";
 *
 * let now = 0;
 * const pacer = new Pacer({
 *   now: () => now,
 *   sleep: (ms) => Promise.resolve(void (now += ms)),
 *   random: () => 0,
 * });
 * pacer.limited(pacer.jittered(1000)); // a 429 that asked for one second; no jitter here
 * assert.strictEqual(await pacer.wait(), 1000);
 * pacer.succeeded(); // an answer that was not 429: starts are spaced less again
 * ```
 */
export class Pacer {
  #resumeAt = 0;
  #nextStart = 0;
  #interval = 0;
  #maxInterval: number;
  #jitter: number;
  #now: () => number;
  #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  #random: () => number;

  /**
   * Creates a pacer.
   *
   * @param options Spacing bound, jitter, clock.
   */
  constructor(options: PacerOptions = {}) {
    this.#maxInterval = options.maxIntervalMs ?? 2000;
    this.#jitter = options.jitter ?? 0.5;
    if (!(this.#maxInterval >= 0) || !(this.#jitter >= 0)) {
      throw new RangeError(
        `Cannot pace requests as 'maxIntervalMs' and 'jitter' must not be negative: current ` +
          `values are ${this.#maxInterval} and ${this.#jitter}`,
      );
    }
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? realSleep;
    this.#random = options.random ?? Math.random;
  }

  /**
   * Waits until a request may start: after any pause, and spaced from the previous start.
   *
   * @param signal Aborts the wait.
   * @returns How long it waited, in milliseconds.
   */
  async wait(signal?: AbortSignal): Promise<number> {
    const started = this.#now();
    for (;;) {
      const now = this.#now();
      const at = Math.max(this.#resumeAt, this.#nextStart);
      if (at <= now) {
        this.#nextStart = now + this.#interval;
        return now - started;
      }
      await this.#sleep(at - now, signal);
    }
  }

  /**
   * Adds the random part to a pause the server asked for, without applying it.
   *
   * @param delayMs The server's `Retry-After`, or the computed backoff.
   * @returns The pause with jitter, in milliseconds.
   */
  jittered(delayMs: number): number {
    return Math.round(delayMs * (1 + this.#random() * this.#jitter));
  }

  /**
   * Records a 429 answer: every request waits `pauseMs` from now, and starts are spaced further
   * apart.
   *
   * @param pauseMs The pause (with jitter, see {@linkcode Pacer.jittered}).
   */
  limited(pauseMs: number): void {
    this.#resumeAt = Math.max(this.#resumeAt, this.#now() + pauseMs);
    this.#interval = Math.min(this.#maxInterval, Math.max(FIRST_INTERVAL_MS, this.#interval * 2));
  }

  /** Records an answer that was not 429: the spacing of starts shrinks again. */
  succeeded(): void {
    this.#interval = this.#interval / 2 < FIRST_INTERVAL_MS / 4 ? 0 : this.#interval / 2;
  }
}

const pacers = new Map<string, Pacer>();

/**
 * The pacer of one host (origin), shared by every transport of the process that talks to it,
 * unless a transport is given its own: a 429 from one repository pauses all requests to it, and
 * none to another.
 *
 * @example Usage
 * ```ts
 * import { hostPacer } from "./pacer.ts";
 * console.log(hostPacer("https://repo.example") === hostPacer("https://repo.example")); // true
 * ```
 *
 * @param origin Scheme, host and port, e.g. `https://repo.example`.
 * @returns The host's pacer.
 */
export function hostPacer(origin: string): Pacer {
  let pacer = pacers.get(origin);
  if (pacer === undefined) {
    pacer = new Pacer();
    pacers.set(origin, pacer);
  }
  return pacer;
}
