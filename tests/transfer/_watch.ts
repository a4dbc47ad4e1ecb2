// What the watcher tests share: a clock stepped by the test (no sleeps), a running watcher whose
// events the test awaits, an event matcher, and the count of uploads the server saw.
import type { TestServer } from "../../lib/testing/mod.ts";
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

/** A running watcher (record or collection) whose events the test awaits, stepping its clock. */
export class EventWatcher implements AsyncDisposable {
  readonly events: WatchEvent[] = [];
  readonly controller: AbortController = new AbortController();
  readonly clock: StepClock = new StepClock();
  readonly done: Promise<void>;
  #read = 0;
  #notify: () => void = () => {};

  /** Starts the watcher `start` makes with the test's signal and clock. */
  constructor(start: (signal: AbortSignal, clock: StepClock) => AsyncIterable<WatchEvent>) {
    this.done = (async () => {
      for await (const event of start(this.controller.signal, this.clock)) {
        this.events.push(event);
        this.#notify();
      }
      this.#notify();
    })();
  }

  /**
   * The next event not read yet that matches (earlier ones are passed over); while none came, the
   * clock moves on by `stepMs` (at most `steps` times) after a short real pause that lets the
   * watcher get to its sleep.
   */
  async next(match: (event: WatchEvent) => boolean, stepMs = 0, steps = 60): Promise<WatchEvent> {
    for (let step = 0;; step++) {
      while (this.#read < this.events.length) {
        const event = this.events[this.#read++]!;
        if (match(event)) return event;
      }
      let ended = false;
      this.done.then(() => ended = true, () => ended = true);
      const woken = new Promise<void>((resolve) => this.#notify = resolve);
      const pause = stepMs > 0 ? [new Promise((resolve) => setTimeout(resolve, 30))] : [];
      await Promise.race([woken, this.done, ...pause]);
      if (ended && this.#read >= this.events.length) {
        await this.done;
        throw new Error(`the watcher ended; events: ${JSON.stringify(this.events)}`);
      }
      if (this.#read >= this.events.length && stepMs > 0) {
        if (step >= steps) throw new Error(`no such event; events: ${JSON.stringify(this.events)}`);
        this.clock.advance(stepMs);
      }
    }
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.controller.abort();
    await this.done.catch(() => {});
  }
}

/** Uploads the server was asked to start (from `from` on in its log). */
export function uploadsOf(server: TestServer, from = 0): number {
  return server.log.slice(from).filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
}
