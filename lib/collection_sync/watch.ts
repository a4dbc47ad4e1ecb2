/**
 * Keeping a collection folder flowing into a collection while it is written, the instrument PC's
 * uploader for a folder of record folders (`collections sync --from DIR --watch`):
 * {@linkcode watchCollection}. It never deletes anything.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { InputError } from "../errors.ts";
import { retryDelay, sleep } from "../http/retry.ts";
import type { Transport } from "../http/transport.ts";
import { RepoCollection } from "../model/collection.ts";
import { RepoRecord } from "../model/record.ts";
import { openResource } from "../resources/resource.ts";
import { takeWatchLock } from "../transfer/_watch_lock.ts";
import { isFatal, message } from "../transfer/_watch_errors.ts";
import {
  type WatchClock,
  type WatchEvent,
  type WatchEventBase,
  watchFolder,
  type WatchOptions,
  watchSetup,
} from "../transfer/watch.ts";
import { isRecordFile } from "./_shared.ts";
import { allRecords, readLayout } from "./layout.ts";
import { COLLECTION_FILE, RECORD_FILE } from "./metadata.ts";
import { syncUp } from "./up.ts";
import type {
  CollectionSelector,
  CollectionSyncOptions,
  RecordSyncOutcome,
  SyncConnection,
} from "./types.ts";

/** Options of {@linkcode watchCollection}. */
export interface CollectionWatchOptions
  extends Omit<WatchOptions, "ignore" | "sendSlot" | "concurrency"> {
  /** Files sent at once, over all record folders. @default {4} */
  concurrency?: number | undefined;
  /** Called when a record was looked up or created and its metadata made like its folder's. */
  onRecord?: ((outcome: RecordSyncOutcome) => void) | undefined;
}

const REAL_CLOCK: WatchClock = { now: () => performance.now(), sleep };

/** Backoff while the server or network is gone, and of records that could not be synced. */
const BACKOFF = { minDelayMs: 1_000, maxDelayMs: 60_000 };

/** A record folder the watcher knows. */
interface FolderState {
  /** Its path on disk. */
  path: string;
  /** The state of its `.record.json` as last seen (`size:mtime`, or `none`). */
  meta: string;
  /** Clock time after the look that first saw that state. */
  since: number;
  /** The `.record.json` state last synced into the record (`undefined`: never). */
  synced: string | undefined;
  /** Failed syncs in a row, and when to try again. */
  attempt: number;
  retryAt: number;
  /** Stops its folder watcher (`undefined`: none runs). */
  stop: AbortController | undefined;
  /** The record its watcher sends into. */
  id: number | undefined;
}

/** The state of a `.record.json`: size and modification time, or `none`. */
async function metaKey(path: string): Promise<string> {
  const info = await Deno.stat(join(path, RECORD_FILE)).catch(() => undefined);
  return info === undefined ? "none" : `${info.size}:${info.mtime?.getTime() ?? "-"}`;
}

/** A count of send slots shared by the folder watchers; a waiter leaves when its signal aborts. */
function sendSlots(count: number): (signal: AbortSignal | undefined) => Promise<() => void> {
  let free = count;
  const waiters: (() => void)[] = [];
  const release = () => {
    const next = waiters.shift();
    if (next === undefined) free++;
    else next();
  };
  const once = () => {
    let done = false;
    return () => {
      if (!done) release();
      done = true;
    };
  };
  return (signal) => {
    if (free > 0) {
      free--;
      return Promise.resolve(once());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", leave);
        resolve(once());
      };
      const leave = () => {
        const index = waiters.indexOf(grant);
        if (index !== -1) waiters.splice(index, 1);
        reject(signal?.reason);
      };
      waiters.push(grant);
      signal?.addEventListener("abort", leave, { once: true });
    });
  };
}

/** The identifier of the selected collection (the lock's key: known before it may exist). */
async function collectionIdentifier(
  transport: Transport,
  selector: CollectionSelector,
): Promise<string> {
  if ("identifier" in selector) return selector.identifier.trim().toLowerCase();
  const collection = await openResource(transport, RepoCollection, { id: selector.id });
  return (await collection.meta()).identifier;
}

/**
 * Keeps a collection folder flowing into a collection while it is written, as an async iterator
 * of the events of {@linkcode watchFolder}, their names relative to the collection folder
 * (`sample-1/run1.csv`).
 *
 * First the collection, its child collections and records, their metadata, membership and links
 * are made like the folder (as `syncCollection` does upward), without the files: each record
 * folder is then watched by `watchFolder`, whose first sync compares it with the record and sends
 * each file once it has settled (`.record.json` is never sent). Then it keeps running until
 * `signal` aborts: the collection folder is looked at again on file events of its first level and
 * every `rescanMs`; a new record folder becomes a record of the collection (looked up by
 * identifier or created, with its metadata) once its `.record.json` (if any) has settled, and is
 * then watched; a changed `.record.json` changes the record's metadata once it has settled. A
 * record folder removed is no longer watched (its record stays). The collection's own
 * `.collection.json` is read at the start only. Nothing is ever deleted or taken out of the
 * collection.
 *
 * Files are sent at most `concurrency` at once over all record folders. When the server or the
 * network is gone, sends and record syncs pause with capped exponential backoff (`error` events
 * with `retryInMs`) and resume; nothing is sent twice, and a restarted watcher catches up. A
 * second watcher of the same folder and collection (by identifier) refuses to start
 * (`WatchLockedError`, naming the first); the folder watchers take no locks of their own.
 *
 * Events: one `ready` once every record folder of the start was compared with its record (its
 * counts over all of them), then `waiting`, `stored`, `skipped`, `error` as `watchFolder`'s, and
 * one `stopped`; `watching` and `waiting` count over all record folders.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the folder, `--allow-write` and
 * `--allow-read` for the lock folder (`--allow-env=HOME` or `LOCALAPPDATA` to find it).
 *
 * @example Watching until Ctrl-C
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { watchCollection } from "@repo/apy/sync";
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const dir = await Deno.makeTempDir(); // --allow-read for it
 * await Deno.mkdir(`${dir}/sample-1`);
 * const locks = await Deno.makeTempDir(); // by default the user's cache folder
 * const controller = new AbortController(); // abort it from Deno.addSignalListener("SIGINT", …)
 * const events = watchCollection(manager, { identifier: "campaign" }, dir, {
 *   settleMs: 50,
 *   signal: controller.signal,
 *   lockDir: locks,
 * });
 * for await (const event of events) {
 *   if (event.type === "ready") await Deno.writeTextFile(`${dir}/sample-1/run1.csv`, "1,2\n");
 *   if (event.type === "stored") {
 *     console.log(event.name); // "sample-1/run1.csv"
 *     controller.abort(); // one file is enough for the example
 *   }
 * }
 * await Deno.remove(dir, { recursive: true });
 * await Deno.remove(locks, { recursive: true });
 * ```
 *
 * @param collection The collection: `{ identifier }` (created when missing) or `{ id }`.
 * @throws {InputError} For a missing folder, bad options, a wrong `.collection.json`.
 * @throws {WatchLockedError} When another watcher holds the folder and collection.
 * @throws The first sync's error in a `once` pass; a refused token or a deleted record always.
 */
export async function* watchCollection(
  connection: SyncConnection,
  collection: CollectionSelector,
  dir: string,
  options: CollectionWatchOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const { settleMs, rescanMs, concurrency, root } = await watchSetup(
    dir,
    options,
    "collection folder",
  );
  const { transport } = connection;
  const lock = await takeWatchLock(
    async () => ({
      folder: root,
      repository: (await transport.baseUrl()).href,
      collection: await collectionIdentifier(transport, collection),
    }),
    options.lockDir,
    options.onWarning,
  );
  const watch = new CollectionWatch(transport, collection, root, options, settleMs, rescanMs);
  try {
    yield* watch.run(sendSlots(concurrency), concurrency);
  } finally {
    await watch.close();
    await lock?.release();
  }
}

/** The state of one running collection watcher. */
class CollectionWatch {
  readonly #transport: Transport;
  readonly #selector: CollectionSelector;
  readonly #root: string;
  readonly #options: CollectionWatchOptions;
  readonly #clock: WatchClock;
  readonly #settleMs: number;
  readonly #rescanMs: number;
  readonly #once: boolean;
  /** Stops every folder watcher (the caller's signal, or the end). */
  readonly #stop = new AbortController();
  readonly #folders = new Map<string, FolderState>();
  /** Events of the folder watchers not yet passed on, with their record folder. */
  readonly #queue: [string, WatchEvent][] = [];
  /** Each folder watcher's last counts. */
  readonly #counts = new Map<string, { watching: number; waiting: number }>();
  readonly #pumps = new Set<Promise<void>>();
  /** Folders whose first `ready` is awaited for the collection's, and its sums. */
  readonly #starting = new Set<string>();
  readonly #ready = { files: 0, equal: 0 };
  #firstDone = false;
  /** Events of the folder watchers that came before the collection's `ready`. */
  readonly #held: WatchEvent[] = [];
  #readyTold = false;
  #failure: { error: unknown } | undefined;
  #dirty = false;
  #wake: () => void = () => {};
  #outage: { attempt: number; until: number } | undefined;
  #watcher: Deno.FsWatcher | undefined;
  /** Warnings and folder problems already told (a rescan does not repeat them). */
  readonly #told = new Set<string>();
  #sendSlot: ((signal: AbortSignal | undefined) => Promise<() => void>) | undefined;
  #concurrency = 1;

  constructor(
    transport: Transport,
    selector: CollectionSelector,
    root: string,
    options: CollectionWatchOptions,
    settleMs: number,
    rescanMs: number,
  ) {
    this.#transport = transport;
    this.#selector = selector;
    this.#root = root;
    this.#options = options;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#settleMs = settleMs;
    this.#rescanMs = rescanMs;
    this.#once = options.once === true;
    const outer = options.signal;
    if (outer?.aborted) this.#stop.abort(outer.reason);
    outer?.addEventListener("abort", () => this.#stop.abort(outer.reason), {
      once: true,
      signal: this.#stop.signal,
    });
  }

  #event<T extends { type: string }>(body: T): T & WatchEventBase {
    let watching = 0;
    let waiting = 0;
    for (const counts of this.#counts.values()) {
      watching += counts.watching;
      waiting += counts.waiting;
    }
    // A folder watcher's event keeps its time; its counts become the sums over all folders.
    return { time: new Date().toISOString(), ...body, watching, waiting };
  }

  /** A warning told once (readLayout repeats its warnings on every look). */
  #warn = (text: string): void => {
    if (this.#told.has(text)) return;
    this.#told.add(text);
    this.#options.onWarning?.(text);
  };

  /** What syncUp gets: upward, the globs and links option, the signal, the warnings. */
  #syncOptions(): CollectionSyncOptions {
    const options = this.#options;
    return {
      direction: "up",
      concurrency: this.#concurrency,
      pattern: options.pattern,
      excludePattern: options.excludePattern,
      followSymlinks: options.followSymlinks,
      signal: this.#stop.signal,
      onWarning: this.#warn,
    };
  }

  /** Starts reading the first level's file events (new record folders, `.record.json`). */
  #startEvents(): void {
    try {
      this.#watcher = Deno.watchFs(this.#root, { recursive: true });
    } catch (error) {
      this.#options.onWarning?.(
        `No file events for '${this.#root}' (${
          message(error)
        }): new record folders are found by rescans`,
      );
      return;
    }
    (async () => {
      for await (const event of this.#watcher!) {
        if (event.kind === "access") continue;
        const relevant = event.paths.some((path) => {
          const parts = relative(this.#root, path).split(sep);
          const name = parts.at(-1);
          return parts.length === 1 || name === RECORD_FILE || name === COLLECTION_FILE;
        });
        if (!relevant) continue;
        this.#dirty = true;
        this.#wake();
      }
    })().catch((error) => {
      this.#options.onWarning?.(`File events stopped (${message(error)}): rescans go on`);
    });
  }

  async close(): Promise<void> {
    this.#stop.abort();
    try {
      this.#watcher?.close();
    } catch {
      // Already closed.
    }
    await Promise.all([...this.#pumps]);
  }

  async *run(
    sendSlot: (signal: AbortSignal | undefined) => Promise<() => void>,
    concurrency: number,
  ): AsyncGenerator<WatchEvent, void, undefined> {
    this.#sendSlot = sendSlot;
    this.#concurrency = concurrency;
    const signal = this.#stop.signal;
    if (!this.#once && this.#options.fileEvents !== false) this.#startEvents();
    let started = false;
    let lastRescan = 0;
    while (!signal.aborted) {
      this.#rethrow();
      const now = this.#clock.now();
      if (!started) {
        if (this.#outage === undefined || now >= this.#outage.until) {
          try {
            yield* this.#firstPass();
            this.#outage = undefined;
            started = true;
            lastRescan = this.#clock.now();
          } catch (error) {
            if (signal.aborted) break;
            if (this.#once || isFatal(error, true) || error instanceof InputError) throw error;
            yield this.#failed(error);
          }
        }
      } else if (!this.#once) {
        if (this.#dirty || now - lastRescan >= this.#rescanMs) {
          this.#dirty = false;
          try {
            await this.#look();
            this.#outage = undefined;
          } catch (error) {
            // The folder cannot be read now (a network share gone): the watchers go on.
            if (signal.aborted) break;
            yield this.#failed(error);
          }
          if (now - lastRescan >= this.#rescanMs) lastRescan = this.#clock.now();
        }
        yield* this.#syncDue();
      }
      yield* this.#drain();
      yield* this.#maybeReady(); // a start's folder removed before its first look
      this.#rethrow();
      if (signal.aborted) break;
      if (this.#once && started && this.#pumps.size === 0) break;
      await this.#waitForWork(started ? lastRescan + this.#rescanMs : undefined);
    }
    this.#stop.abort();
    await Promise.all([...this.#pumps]);
    yield* this.#drain();
    yield this.#event({ type: "stopped" });
  }

  /** A folder watcher ended with an error that ends them all (a refused token). */
  #rethrow(): void {
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  #failed(error: unknown): WatchEvent {
    const attempt = (this.#outage?.attempt ?? 0) + 1;
    const retryInMs = retryDelay(error, attempt, BACKOFF);
    this.#outage = { attempt, until: this.#clock.now() + retryInMs };
    return this.#event({ type: "error", message: message(error), retryInMs });
  }

  /** Sleeps until the next deadline, an event of a folder watcher or the folder, or the end. */
  async #waitForWork(rescanAt: number | undefined): Promise<void> {
    if (this.#queue.length > 0 || this.#dirty || this.#failure !== undefined) return;
    const now = this.#clock.now();
    const deadlines: number[] = [];
    if (rescanAt !== undefined && !this.#once) deadlines.push(rescanAt);
    if (rescanAt === undefined && this.#outage !== undefined) deadlines.push(this.#outage.until);
    // A once pass syncs no record folder after the start: their deadlines would only spin.
    for (const state of this.#once || rescanAt === undefined ? [] : this.#folders.values()) {
      if (state.synced !== state.meta) {
        deadlines.push(Math.max(state.since + this.#settleMs, state.retryAt));
      }
    }
    const stop = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
      this.#stop.signal.addEventListener("abort", () => resolve(), {
        once: true,
        signal: stop.signal,
      });
    });
    const waits: Promise<void>[] = [woken];
    if (deadlines.length > 0) {
      const wait = Math.max(0, Math.min(...deadlines) - now);
      waits.push(this.#clock.sleep(wait, stop.signal).catch(() => {}));
    }
    try {
      await Promise.race(waits);
    } finally {
      stop.abort();
      this.#wake = () => {};
    }
  }

  /** The start: every record folder's record made like it, then watched. */
  async *#firstPass(): AsyncGenerator<WatchEvent> {
    const keys = await this.#look();
    const result = await syncUp(this.#transport, this.#selector, this.#root, this.#syncOptions(), {
      metadataOnly: true,
    });
    this.#tellProblems(result.problems);
    for (const outcome of result.records) {
      const state = this.#folders.get(outcome.folder);
      if (state === undefined) continue;
      yield* this.#synced(outcome.folder, state, outcome, keys.get(outcome.folder) ?? state.meta);
    }
    // A record folder whose record could not be made is tried again later; the collection's
    // `ready` comes once each watched folder was compared with its record.
    this.#firstDone = true;
    yield* this.#maybeReady();
  }

  /** Layout problems (a folder that cannot be a record), each told once. */
  #tellProblems(problems: readonly { folder: string; reason: string }[]): void {
    for (const problem of problems) {
      this.#warn(`Cannot sync '${problem.folder || "."}': ${problem.reason}`);
    }
  }

  /**
   * Looks at the collection folder: new record folders are added (their `.record.json` starts to
   * settle), changed `.record.json` states noted, record folders gone stop being watched.
   *
   * @returns The `.record.json` state of each record folder.
   */
  async #look(): Promise<Map<string, string>> {
    const layout = await readLayout(this.#root, {
      followSymlinks: this.#options.followSymlinks === true,
    });
    for (const warning of layout.warnings) this.#warn(warning);
    this.#tellProblems(layout.problems);
    const keys = new Map<string, string>();
    for (const record of allRecords(layout.root)) {
      const key = await metaKey(record.path);
      const after = this.#clock.now();
      keys.set(record.folder, key);
      const state = this.#folders.get(record.folder);
      if (state === undefined) {
        this.#folders.set(record.folder, {
          path: record.path,
          meta: key,
          since: after,
          synced: undefined,
          attempt: 0,
          retryAt: 0,
          stop: undefined,
          id: undefined,
        });
      } else if (state.meta !== key) {
        state.meta = key;
        state.since = after;
      }
    }
    for (const [folder, state] of this.#folders) {
      if (keys.has(folder)) continue;
      // Gone (moved or removed): its watcher stops; its record stays as it is.
      state.stop?.abort();
      this.#folders.delete(folder);
      this.#counts.delete(folder);
      this.#starting.delete(folder);
    }
    return keys;
  }

  /** Syncs the record folders whose `.record.json` changed (or that are new) and has settled. */
  async *#syncDue(): AsyncGenerator<WatchEvent> {
    const now = this.#clock.now();
    const due = [...this.#folders].filter(([, state]) =>
      state.synced !== state.meta && now - state.since >= this.#settleMs && now >= state.retryAt
    ).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    for (const [folder, state] of due) {
      if (this.#stop.signal.aborted) return;
      const key = state.meta;
      let outcome: RecordSyncOutcome | undefined;
      try {
        const result = await syncUp(
          this.#transport,
          this.#selector,
          this.#root,
          this.#syncOptions(),
          { only: folder, metadataOnly: true },
        );
        outcome = result.records.find((record) => record.folder === folder);
        const problems = result.problems.filter((problem) => problem.folder === folder);
        if (outcome === undefined) {
          // Not a record folder as it is now (a wrong `.record.json`): tried when it changes.
          state.synced = key;
          for (const problem of problems) {
            yield this.#event({ type: "error", name: folder, message: problem.reason });
          }
          continue;
        }
      } catch (error) {
        if (this.#stop.signal.aborted) return;
        if (isFatal(error, true)) throw error;
        yield this.#retryLater(folder, state, message(error));
        continue;
      }
      yield* this.#synced(folder, state, outcome, key);
    }
  }

  /** A record folder's sync failed: it is tried again after a backoff. */
  #retryLater(folder: string, state: FolderState, text: string): WatchEvent {
    state.attempt++;
    const retryInMs = retryDelay(undefined, state.attempt, {
      ...BACKOFF,
      maxDelayMs: Math.min(BACKOFF.maxDelayMs, this.#rescanMs),
    });
    state.retryAt = this.#clock.now() + retryInMs;
    return this.#event({ type: "error", name: folder, message: text, retryInMs });
  }

  /** After a record folder's sync: its outcome told, its watcher started once the record is. */
  async *#synced(
    folder: string,
    state: FolderState,
    outcome: RecordSyncOutcome,
    key: string,
  ): AsyncGenerator<WatchEvent> {
    this.#options.onRecord?.(outcome);
    if (outcome.id !== undefined && outcome.id !== state.id) {
      // A new record folder, or its `.record.json` names another record now.
      state.stop?.abort();
      this.#startFolder(folder, state, outcome.id);
    }
    if (outcome.complete) {
      state.synced = key;
      state.attempt = 0;
      state.retryAt = 0;
      return;
    }
    yield this.#retryLater(folder, state, outcome.problems.join("; "));
  }

  /** Starts the watcher of one record folder; its events go into the queue. */
  #startFolder(folder: string, state: FolderState, id: number): void {
    const stop = new AbortController();
    state.stop = stop;
    state.id = id;
    const signal = AbortSignal.any([stop.signal, this.#stop.signal]);
    const options = this.#options;
    const events = watchFolder(new RepoRecord(this.#transport, id), state.path, {
      settleMs: options.settleMs,
      rescanMs: options.rescanMs,
      pattern: options.pattern,
      excludePattern: options.excludePattern,
      followSymlinks: options.followSymlinks,
      fileEvents: options.fileEvents,
      clock: options.clock,
      once: this.#once,
      concurrency: this.#concurrency,
      lockDir: false,
      ignore: isRecordFile,
      sendSlot: this.#sendSlot!,
      signal,
      onWarning: this.#warn,
    });
    if (!this.#readyTold) this.#starting.add(folder);
    const pump: Promise<void> = (async () => {
      for await (const event of events) {
        this.#queue.push([folder, event]);
        this.#wake();
      }
    })().catch((error) => {
      if (!signal.aborted) this.#failure ??= { error };
    }).finally(() => {
      this.#pumps.delete(pump);
      this.#wake();
    });
    this.#pumps.add(pump);
  }

  /** The collection's `ready` (the sums of its folder watchers'), once all of the start's were. */
  *#maybeReady(): Generator<WatchEvent> {
    if (!this.#firstDone || this.#readyTold || this.#starting.size > 0) return;
    this.#readyTold = true;
    yield this.#event({ type: "ready", ...this.#ready });
    for (const event of this.#held.splice(0)) yield this.#event(event);
  }

  /** Passes the folder watchers' events on, named relative to the collection folder. */
  *#drain(): Generator<WatchEvent> {
    while (this.#queue.length > 0) {
      const [folder, event] = this.#queue.shift()!;
      if (this.#folders.has(folder)) {
        this.#counts.set(folder, { watching: event.watching, waiting: event.waiting });
      }
      if (event.type === "stopped") continue;
      if (event.type === "ready") {
        // Only the start's folders make the collection's `ready`; later ones pass silently.
        if (!this.#starting.delete(folder)) continue;
        this.#ready.files += event.files;
        this.#ready.equal += event.equal;
        yield* this.#maybeReady();
        continue;
      }
      const named = "name" in event && event.name !== undefined
        ? { ...event, name: `${folder}/${event.name}` }
        : { ...event, name: folder };
      // Until the collection's `ready`, events wait behind it (the records form's order).
      if (this.#readyTold) yield this.#event(named);
      else this.#held.push(named);
    }
  }
}
