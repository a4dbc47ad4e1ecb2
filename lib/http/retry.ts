/**
 * The one retry policy of repo-apy: which failures are worth another attempt, and how long to
 * wait before it. Requests and upload chunks share it.
 *
 * @module
 */

import { ConnectionError, RequestError, TimeoutError, TlsError } from "./errors.ts";

/** Options of the retry policy. */
export interface RetryOptions {
  /**
   * Attempts at most, the first one included. A 429 answer is retried for as long as the total
   * wait allows, whatever this says (unless it is 1: no retries at all); a host that refuses
   * connections or has no address is tried twice at most.
   *
   * @default {5}
   */
  maxAttempts?: number;
  /**
   * Delay before the first retry in milliseconds; doubles with each attempt.
   *
   * @default {500}
   */
  minDelayMs?: number;
  /**
   * Largest computed delay between two attempts in milliseconds.
   *
   * @default {10000}
   */
  maxDelayMs?: number;
  /**
   * Longest total time spent waiting for retries of one request, `Retry-After` included.
   *
   * @default {300000}
   */
  maxTotalWaitMs?: number;
}

/** Retry options with every default filled in. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** Default retry options. */
export const DEFAULT_RETRY: ResolvedRetryOptions = {
  maxAttempts: 5,
  minDelayMs: 500,
  maxDelayMs: 10_000,
  maxTotalWaitMs: 300_000,
};

/** Status codes after which a safe request is tried again. */
export const RETRIABLE_STATUS: readonly number[] = [429, 502, 503, 504];

/**
 * Tells whether a failure may succeed when the same request is sent again.
 *
 * A 429 is always retriable (the server did not process the request), and so is a connection
 * that was never made (refused, unknown host: nothing was sent). Gateway errors (502, 503, 504)
 * and broken connections are retriable only for requests that are safe to repeat (`GET`, or the
 * `PUT` of an upload chunk by index). Timeouts and TLS failures are not retried: they won't change.
 *
 * @example Usage
 * ```ts
 * import { isRetriable } from "./retry.ts";
 * import { RequestError } from "./errors.ts";
 * const error = new RequestError({ status: 503, method: "POST", url: "https://repo.example" });
 * console.log(isRetriable(error, { idempotent: false })); // false
 * ```
 *
 * @param error The failure.
 * @param options `idempotent`: whether the request is safe to repeat.
 * @returns Whether another attempt may help.
 */
export function isRetriable(error: unknown, options: { idempotent: boolean }): boolean {
  if (error instanceof RequestError) {
    if (error.status === 429) return true;
    return options.idempotent && RETRIABLE_STATUS.includes(error.status);
  }
  if (error instanceof TimeoutError || error instanceof TlsError) return false;
  if (error instanceof ConnectionError && error.unreachable) return true;
  return options.idempotent && error instanceof ConnectionError;
}

/** Attempts of a host that refuses connections or has no address: one quick retry. */
export const UNREACHABLE_ATTEMPTS = 2;

/**
 * How many attempts a failure allows, the first one included: unbounded for 429 (only the total
 * wait bounds it), {@linkcode UNREACHABLE_ATTEMPTS} for an unreachable host, else `maxAttempts`;
 * a `maxAttempts` of 1 switches retries off for every failure.
 *
 * @example Usage
 * ```ts
 * import { attemptLimit } from "./retry.ts";
 * import { RequestError } from "./errors.ts";
 * const error = new RequestError({ status: 429, method: "PUT", url: "https://repo.example" });
 * console.log(attemptLimit(error, { maxAttempts: 5 })); // Infinity
 * ```
 *
 * @param error The failure.
 * @param options `maxAttempts`.
 * @returns The number of attempts.
 */
export function attemptLimit(error: unknown, options: RetryOptions = {}): number {
  const maxAttempts = options.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  // One attempt means no retries at all.
  if (maxAttempts <= 1) return maxAttempts;
  if (error instanceof RequestError && error.status === 429) return Infinity;
  if (error instanceof ConnectionError && error.unreachable) return UNREACHABLE_ATTEMPTS;
  return maxAttempts;
}

/**
 * Computes how long to wait before the next attempt: the server's `Retry-After` if it sent one,
 * otherwise capped exponential backoff with jitter.
 *
 * @example Usage
 * ```ts
 * import { retryDelay } from "./retry.ts";
 * const delay = retryDelay(new Error("reset"), 3, { minDelayMs: 100, maxDelayMs: 1000 });
 * console.log(delay >= 200 && delay <= 400); // true
 * ```
 *
 * @param error The failure that is retried.
 * @param attempt Number of the attempt that failed (1 for the first).
 * @param options Backoff bounds.
 * @returns The delay in milliseconds.
 */
export function retryDelay(error: unknown, attempt: number, options: RetryOptions = {}): number {
  if (error instanceof RequestError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  const { minDelayMs, maxDelayMs } = { ...DEFAULT_RETRY, ...options };
  if (error instanceof RequestError && error.status === 429) {
    // No Retry-After: back off from one second, doubling (the pacer adds the jitter).
    return Math.min(Math.max(maxDelayMs, 1000), 1000 * 2 ** Math.min(attempt - 1, 10));
  }
  const exponential = Math.min(maxDelayMs, minDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential / 2 + Math.random() * exponential / 2);
}

/**
 * Waits for the given time, or rejects as soon as the signal aborts.
 *
 * @example Usage
 * ```ts
 * import { sleep } from "./retry.ts";
 * await sleep(1);
 * ```
 *
 * @param ms Milliseconds to wait.
 * @param signal Aborts the wait.
 * @returns A promise that resolves after the delay.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
