// What the watcher tests share: a clock stepped by the test (no sleeps) and an event matcher.
import type { WatchClock, WatchEvent } from "../../lib/transfer/watch.ts";

/** A clock that moves only when the test says so. */
export class StepClock implements WatchClock {
  #now = 0;
  #timers: { at: number; resolve: () => void }[] = [];

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = { at: this.#now + ms, resolve };
      this.#timers.push(timer);
      signal.addEventListener("abort", () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal.reason);
      }, { once: true });
    });
  }

  advance(ms: number): void {
    this.#now += ms;
    const due = this.#timers.filter((timer) => timer.at <= this.#now);
    this.#timers = this.#timers.filter((timer) => timer.at > this.#now);
    for (const timer of due) timer.resolve();
  }
}

/** Matches an event of `type` (and of the file `name`, when given). */
export const is = (type: WatchEvent["type"], name?: string) => (event: WatchEvent) =>
  event.type === type && (name === undefined || ("name" in event && event.name === name));
