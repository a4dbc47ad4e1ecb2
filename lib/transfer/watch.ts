/**
 * Keeping a folder flowing into a record while it is written, the instrument PC's uploader:
 * {@linkcode watchFolder}. It never deletes anything.
 *
 * @module
 */

import { join, relative, sep } from "node:path";
import { InputError } from "../errors.ts";
import { retryDelay, sleep } from "../http/retry.ts";
import type { FileJson } from "../http/protocol.ts";
import { globFilter } from "../utils/glob.ts";
import { statLocalPath } from "../utils/local_path.ts";
import { type FileState, SettleTracker } from "./_settle.ts";
import { fileChecksums, kindOf } from "./_sync_hash.ts";
import { isFatal, isPermanent, message } from "./_watch_errors.ts";
import { type TreeFile, walkTree } from "./_tree.ts";
import { takeWatchLock } from "./_watch_lock.ts";
import { syncFolder, type SyncTarget } from "./sync.ts";
import { uploadFile } from "./upload.ts";

export { WatchLockedError, type WatchLockOwner } from "./_watch_lock.ts";

/** Default settle time: a file unchanged this long is complete. */
const DEFAULT_SETTLE_MS = 30_000;

/** Default time between two full rescans of the folder. */
const DEFAULT_RESCAN_MS = 300_000;

/** The clock of a watcher; tests pass their own to step time without sleeping. */
export interface WatchClock {
  /** Current time in milliseconds (monotonic). */
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** A record as {@linkcode watchFolder} needs it (a record from `manager.record()` is one). */
export interface WatchTarget extends SyncTarget {
  /** The record's file of a name; throws when there is none. */
  getFileByName(name: string): Promise<FileJson>;
}

/** Options of {@linkcode watchFolder}. */
export interface WatchOptions {
  /**
   * How long a file's size and modification time must stay unchanged before it is sent, in ms.
   * Longer than the longest pause of the instrument while it writes one file.
   * @default {30000}
   */
  settleMs?: number | undefined;
  /**
   * Time between two full rescans of the folder, in ms (network shares and some instruments
   * give no file events). @default {300000}
   */
  rescanMs?: number | undefined;
  /**
   * One pass only (a cron job): the first sync, one settle time, the files settled by then are
   * sent, the others are left for the next run. @default {false}
   */
  once?: boolean | undefined;
  /** Use the operating system's file events besides the rescans. @default {true} */
  fileEvents?: boolean | undefined;
  /** Only names (relative paths) matching this glob. @default {"*"} */
  pattern?: string | undefined;
  /** Leave out names matching this glob. */
  excludePattern?: string | undefined;
  /**
   * Names (relative paths) never sent nor counted, as `syncFolder`'s `ignore` (e.g. a metadata
   * file beside the record's files).
   */
  ignore?: ((name: string) => boolean) | undefined;
  /** Follow symbolic links in the folder. */
  followSymlinks?: boolean | undefined;
  /** Files sent at once. @default {4} */
  concurrency?: number | undefined;
  /**
   * Waits for a send slot shared with other watchers (several folders watched by one process
   * send at most so many files at once) and resolves to its release; a due file holds a slot
   * while it is looked at and sent.
   */
  sendSlot?: (signal: AbortSignal | undefined) => Promise<() => void>;
  /**
   * Folder of the lock that keeps a second watcher of the same folder and record from starting
   * ({@linkcode defaultLockDir} by default); `false`: no lock.
   */
  lockDir?: string | false | undefined;
  /** Stops the watcher: the file being sent is abandoned (a rerun continues it). */
  signal?: AbortSignal | undefined;
  /** The clock (tests). */
  clock?: WatchClock | undefined;
  /** Receives warnings (symbolic links left out, file events unavailable, a lock taken over). */
  onWarning?: ((message: string) => void) | undefined;
}

/** What every event of a watcher tells. */
export interface WatchEventBase {
  /** When it happened (ISO 8601). */
  time: string;
  /** Files of the folder the watcher knows (stored, equal, or waiting). */
  watching: number;
  /** Files waiting to settle or to be sent. */
  waiting: number;
}

/** An event of {@linkcode watchFolder}. */
export type WatchEvent =
  & WatchEventBase
  & (
    /** The first sync looked at the folder and the record: `equal` files were there already. */
    | { type: "ready"; files: number; equal: number }
    /** A new or changed file; it is sent once it settles. */
    | { type: "waiting"; name: string; size: number }
    /** A file is in the record, whole (`already`: it was there, from a send whose answer was lost). */
    | {
      type: "stored";
      name: string;
      size: number;
      action: "upload" | "replace";
      already?: boolean;
    }
    /** A file left out (gone before it settled, a name the record cannot take). */
    | { type: "skipped"; name: string; reason: string }
    /**
     * Something failed; with `retryInMs` it is tried again then (the server or the network is
     * gone), without it the file is tried again once it changes.
     */
    | { type: "error"; name?: string; message: string; retryInMs?: number }
    /** The watcher stopped (signal, or the end of a `once` pass); `waiting` files were not sent. */
    | { type: "stopped" }
  );

const REAL_CLOCK: WatchClock = { now: () => performance.now(), sleep };

/** Dirty paths held at most between two passes; more mean a full rescan. */
const MAX_DIRTY = 10_000;

/** Backoff of sends while the server or network is gone. */
const OUTAGE_BACKOFF = { minDelayMs: 1_000, maxDelayMs: 60_000 };

/**
 * The checked timing and limits of a watch (settle and rescan times, sends at once) and the real
 * path of its folder, shared by the record and the collection watcher.
 *
 * @throws {InputError} For a wrong option or a folder that is not one.
 */
export async function watchSetup(
  dir: string,
  options: Pick<WatchOptions, "settleMs" | "rescanMs" | "concurrency">,
  what: string,
): Promise<{ settleMs: number; rescanMs: number; concurrency: number; root: string }> {
  const {
    settleMs = DEFAULT_SETTLE_MS,
    rescanMs = DEFAULT_RESCAN_MS,
    concurrency = 4,
  } = options;
  if (!Number.isFinite(settleMs) || settleMs < 0) {
    throw new InputError(`settleMs must be a number of milliseconds ≥ 0, got ${settleMs}`);
  }
  if (!Number.isFinite(rescanMs) || rescanMs <= 0) {
    throw new InputError(`rescanMs must be a number of milliseconds > 0, got ${rescanMs}`);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InputError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  if (!(await statLocalPath(dir, { what: "folder" })).isDirectory) {
    throw new InputError(`'${dir}' is not a folder: give the ${what} to watch`);
  }
  return { settleMs, rescanMs, concurrency, root: await Deno.realPath(dir) };
}

/**
 * Keeps a folder flowing into a record while it is written, as an async iterator of events.
 *
 * First it syncs: the folder and the record's file list are compared (as
 * {@linkcode syncFolder} plans an upward sync), files already equal are left alone, and the others
 * wait to settle. Then it keeps running until `signal` aborts: a new or changed file (found by
 * the operating system's file events and a full rescan every `rescanMs`) is sent once its size and
 * modification time stayed unchanged for `settleMs`, and looked at once more just before, so a
 * file still being written is never stored; a file that changes while it is read is refused by
 * the upload and waits again. Files are replaced in place (a changed file keeps its id). Nothing
 * is ever deleted.
 *
 * When the server or the network is gone, sends pause with capped exponential backoff (`error`
 * events with `retryInMs`) and resume when it is back; a file whose send failed is compared with
 * the record's copy before it is sent again, so nothing arrives twice. A restarted watcher's
 * first sync catches up with what arrived meanwhile. A second watcher of the same folder and
 * record refuses to start ({@linkcode WatchLockedError}, naming the first).
 *
 * Memory holds one short entry per file of the folder (its name and state), never file data.
 *
 * Permissions: `--allow-net` to the host, `--allow-read` for the folder, `--allow-write` and
 * `--allow-read` for the lock folder (`--allow-env=HOME` or `LOCALAPPDATA` to find it).
 *
 * @example Watching until Ctrl-C
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { watchFolder } from "@repo/apy/sync";
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "instrument-1", create: true });
 * const dir = await Deno.makeTempDir(); // --allow-read for it
 * const locks = await Deno.makeTempDir(); // by default the user's cache folder
 * const controller = new AbortController(); // abort it from Deno.addSignalListener("SIGINT", …)
 * const stored: string[] = [];
 * const events = watchFolder(record, dir, {
 *   settleMs: 50,
 *   signal: controller.signal,
 *   lockDir: locks,
 * });
 * for await (const event of events) {
 *   if (event.type === "ready") await Deno.writeTextFile(`${dir}/run1.csv`, "1,2\n");
 *   if (event.type === "stored") {
 *     stored.push(event.name);
 *     controller.abort(); // one file is enough for the example
 *   }
 * }
 * console.log(stored); // ["run1.csv"]
 * await Deno.remove(dir, { recursive: true });
 * await Deno.remove(locks, { recursive: true });
 * ```
 *
 * @throws {InputError} For a missing folder or bad options.
 * @throws {WatchLockedError} When another watcher holds the folder and record.
 * @throws The first sync's error in a `once` pass; a refused token or a deleted record always.
 */
export async function* watchFolder(
  record: WatchTarget,
  dir: string,
  options: WatchOptions = {},
): AsyncGenerator<WatchEvent, void, undefined> {
  const { once = false, signal } = options;
  const { settleMs, rescanMs, concurrency, root } = await watchSetup(dir, options, "folder");
  const clock = options.clock ?? REAL_CLOCK;
  const lock = await takeWatchLock(
    async () => ({
      folder: root,
      repository: (await record.transport.baseUrl()).href,
      record: record.id,
    }),
    options.lockDir,
    options.onWarning,
  );
  const watch = new Watch(record, root, options, clock, settleMs, lock?.files ?? []);
  try {
    if (!once && options.fileEvents !== false) watch.startEvents();
    yield* watch.run(once, rescanMs, concurrency, signal);
  } finally {
    watch.close();
    await lock?.release();
  }
}

/** The state of one running watcher. */
class Watch {
  readonly #record: WatchTarget;
  readonly #root: string;
  readonly #options: WatchOptions;
  readonly #clock: WatchClock;
  readonly #tracker: SettleTracker;
  readonly #wanted: (name: string) => boolean;
  #watcher: Deno.FsWatcher | undefined;
  #dirty = new Set<string>();
  #overflow = false;
  #wake: () => void = () => {};
  #outage: { attempt: number; until: number } | undefined;
  readonly #settleMs: number;
  /** Clock time after the first sync's look at the folder. */
  #firstLook = 0;

  constructor(
    record: WatchTarget,
    root: string,
    options: WatchOptions,
    clock: WatchClock,
    settleMs: number,
    lockFiles: readonly string[],
  ) {
    this.#record = record;
    this.#root = root;
    this.#options = options;
    this.#clock = clock;
    this.#settleMs = settleMs;
    this.#tracker = new SettleTracker(settleMs);
    const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
    // The lock's own files, should the lock folder lie inside the watched one.
    const lockNames = new Set(
      lockFiles.map((path) => relative(root, path).split(sep).join("/")),
    );
    const ignore = options.ignore ?? (() => false);
    this.#wanted = (name) => wanted(name) && !lockNames.has(name) && !ignore(name);
  }

  #event<T extends { type: string }>(body: T): T & WatchEventBase {
    const { known, pending } = this.#tracker;
    return {
      time: new Date().toISOString(),
      watching: known.size + pending.size,
      waiting: pending.size,
      ...body,
    };
  }

  /** Starts reading the operating system's file events into the dirty set. */
  startEvents(): void {
    try {
      this.#watcher = Deno.watchFs(this.#root, { recursive: true });
    } catch (error) {
      this.#options.onWarning?.(
        `No file events for '${this.#root}' (${message(error)}): changes are found by rescans`,
      );
      return;
    }
    (async () => {
      for await (const event of this.#watcher!) {
        if (event.kind === "access") continue;
        for (const path of event.paths) this.#dirty.add(path);
        if (this.#dirty.size > MAX_DIRTY) {
          this.#overflow = true;
          this.#dirty.clear();
        }
        this.#wake();
      }
    })().catch((error) => {
      this.#options.onWarning?.(`File events stopped (${message(error)}): rescans go on`);
    });
  }

  close(): void {
    try {
      this.#watcher?.close();
    } catch {
      // Already closed.
    }
  }

  async *run(
    once: boolean,
    rescanMs: number,
    concurrency: number,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<WatchEvent, void, undefined> {
    let synced = false;
    let lastRescan = 0;
    let onceEnd = 0;
    while (!signal?.aborted) {
      const now = this.#clock.now();
      const paused = this.#outage !== undefined && now < this.#outage.until;
      if (!synced) {
        if (!paused) {
          try {
            yield* this.#firstSync(signal);
            synced = true;
            lastRescan = this.#clock.now();
            onceEnd = this.#firstLook + this.#settleMs;
          } catch (error) {
            if (signal?.aborted) break;
            if (once || isFatal(error, true) || error instanceof InputError) throw error;
            yield this.#failed(error);
          }
        }
      } else if (!once && (this.#overflow || now - lastRescan >= rescanMs)) {
        this.#overflow = false;
        this.#dirty.clear();
        try {
          yield* this.#rescan();
        } catch (error) {
          // The folder cannot be read now (a network share gone): sends pause, rescans go on.
          if (signal?.aborted) break;
          yield this.#failed(error);
        }
        lastRescan = this.#clock.now();
      } else if (this.#dirty.size > 0) {
        yield* this.#lookAtDirty();
      }
      if (synced && !(this.#outage !== undefined && this.#clock.now() < this.#outage.until)) {
        const due = this.#tracker.due(this.#clock.now());
        for (let start = 0; start < due.length && !signal?.aborted; start += concurrency) {
          const batch = due.slice(start, start + concurrency);
          const events = await Promise.all(batch.map((name) => this.#inSlot(name, signal)));
          for (const list of events) yield* list;
          if (this.#outage !== undefined) break;
          // Changes that arrived meanwhile are looked at before the next batch.
          if (this.#dirty.size > 0) yield* this.#lookAtDirty();
        }
      }
      if (signal?.aborted) break;
      if (once && synced && this.#clock.now() >= onceEnd) break;
      await this.#waitForWork(once ? onceEnd : lastRescan + rescanMs, synced, signal);
    }
    yield this.#event({ type: "stopped" });
  }

  /** Sleeps until the next deadline, a file event, or the signal. */
  async #waitForWork(
    rescanAt: number,
    synced: boolean,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    if (this.#dirty.size > 0 || this.#overflow) return;
    const now = this.#clock.now();
    const pausedUntil = this.#outage !== undefined && this.#outage.until > now
      ? this.#outage.until
      : undefined;
    // Not synced yet and no pause: the first sync is tried again at once.
    if (!synced && pausedUntil === undefined) return;
    const deadlines = [rescanAt];
    // While sends pause, files due wait for the pause's end.
    const next = pausedUntil ?? this.#tracker.nextSettle();
    if (next !== undefined) deadlines.push(next);
    const wait = Math.max(0, Math.min(...deadlines) - now);
    const stop = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.#wake = resolve;
      signal?.addEventListener("abort", () => resolve(), { once: true, signal: stop.signal });
    });
    try {
      await Promise.race([this.#clock.sleep(wait, stop.signal).catch(() => {}), woken]);
    } finally {
      stop.abort();
      this.#wake = () => {};
    }
  }

  #failed(error: unknown, name?: string): WatchEvent {
    const attempt = (this.#outage?.attempt ?? 0) + 1;
    const retryInMs = retryDelay(error, attempt, OUTAGE_BACKOFF);
    this.#outage = { attempt, until: this.#clock.now() + retryInMs };
    return this.#event({
      type: "error",
      ...(name === undefined ? {} : { name }),
      message: message(error),
      retryInMs,
    });
  }

  /** Walks the folder; only the first walk warns (links left out), not every rescan. */
  #walk(warn: boolean): Promise<TreeFile[]> {
    return walkTree(this.#root, {
      wanted: this.#wanted,
      followSymlinks: this.#options.followSymlinks === true,
      onWarning: warn ? this.#options.onWarning : undefined,
    });
  }

  /** The first sync: what the record holds already is known, the rest waits to settle. */
  async *#firstSync(signal: AbortSignal | undefined): AsyncGenerator<WatchEvent> {
    // The folder is walked before the record is compared: a file changed in between has a state
    // unlike the one recorded, so it is looked at again rather than taken as equal.
    const walked = new Map((await this.#walk(true)).map((file) => [file.name, file]));
    const after = this.#clock.now();
    this.#firstLook = after;
    const { plan } = await syncFolder(this.#record, this.#root, {
      direction: "up",
      dryRun: true,
      pattern: this.#options.pattern,
      excludePattern: this.#options.excludePattern,
      ...(this.#options.followSymlinks ? { followSymlinks: true } : {}),
      ignore: this.#options.ignore,
      signal,
    });
    let equal = 0;
    const waiting: WatchEvent[] = [];
    for (const action of plan.actions) {
      const file = walked.get(action.local);
      if (file === undefined) continue;
      if (action.action === "skip" && file.size === action.size) {
        this.#tracker.stored(action.name, file);
        equal++;
      } else if (action.action === "upload" || action.action === "replace") {
        this.#tracker.look(action.name, file, after);
        this.#tracker.pending.get(action.name)!.onRecord = action.action === "replace";
        waiting.push(this.#event({ type: "waiting", name: action.name, size: file.size }));
      }
    }
    yield this.#event({ type: "ready", files: walked.size, equal });
    yield* waiting;
    for (const problem of plan.problems) {
      yield this.#event({ type: "skipped", name: problem.name, reason: problem.reason });
    }
  }

  /** A full rescan: every file looked at; files gone are forgotten (the record keeps them). */
  async *#rescan(): AsyncGenerator<WatchEvent> {
    const files = await this.#walk(false);
    const after = this.#clock.now();
    const present = new Set<string>();
    for (const file of files) {
      present.add(file.name);
      if (this.#tracker.look(file.name, file, after) === "new") {
        yield this.#event({ type: "waiting", name: file.name, size: file.size });
      }
    }
    for (const name of [...this.#tracker.known.keys(), ...this.#tracker.pending.keys()]) {
      if (!present.has(name)) yield* this.#gone(name);
    }
  }

  *#gone(name: string): Generator<WatchEvent> {
    if (this.#tracker.forget(name)) {
      yield this.#event({ type: "skipped", name, reason: "removed before it settled" });
    }
  }

  /** Looks at the paths file events named (a folder: everything in it). */
  async *#lookAtDirty(): AsyncGenerator<WatchEvent> {
    const paths = [...this.#dirty];
    this.#dirty.clear();
    for (const path of paths) {
      const rel = relative(this.#root, path);
      if (rel === "" || rel.startsWith("..")) continue;
      const name = rel.split(sep).join("/");
      const follow = this.#options.followSymlinks === true;
      const info = await (follow ? Deno.stat(path) : Deno.lstat(path)).catch(() => undefined);
      const after = this.#clock.now();
      if (info === undefined) {
        const { known, pending } = this.#tracker;
        if (known.has(name) || pending.has(name)) yield* this.#gone(name);
        else {
          // A folder removed: everything below it is gone.
          const prefix = `${name}/`;
          for (const file of [...known.keys(), ...pending.keys()]) {
            if (file.startsWith(prefix)) yield* this.#gone(file);
          }
        }
      } else if (info.isDirectory) {
        const files = await walkTree(path, {
          wanted: (inner) => this.#wanted(`${name}/${inner}`),
          followSymlinks: follow,
        }).catch(() => []);
        for (const file of files) {
          const full = `${name}/${file.name}`;
          if (this.#tracker.look(full, file, after) === "new") {
            yield this.#event({ type: "waiting", name: full, size: file.size });
          }
        }
      } else if (info.isFile && this.#wanted(name)) {
        const state = { size: info.size, mtime: info.mtime?.getTime() };
        if (this.#tracker.look(name, state, after) === "new") {
          yield this.#event({ type: "waiting", name, size: state.size });
        }
      }
    }
  }

  /** {@linkcode Watch.#store} within a shared send slot, when the options give slots. */
  async #inSlot(name: string, signal: AbortSignal | undefined): Promise<WatchEvent[]> {
    const slot = this.#options.sendSlot;
    if (slot === undefined) return await this.#store(name, signal);
    let release: () => void;
    try {
      release = await slot(signal);
    } catch (error) {
      if (signal?.aborted) return [];
      throw error;
    }
    try {
      return await this.#store(name, signal);
    } finally {
      release();
    }
  }

  /** Looks at a due file once more and sends it when it has settled. */
  async #store(name: string, signal: AbortSignal | undefined): Promise<WatchEvent[]> {
    const path = join(this.#root, ...name.split("/"));
    const entry = this.#tracker.pending.get(name);
    if (entry === undefined) return [];
    const look = async (): Promise<FileState | undefined> => {
      const info = await Deno.stat(path).catch(() => undefined);
      return info?.isFile ? { size: info.size, mtime: info.mtime?.getTime() } : undefined;
    };
    const before = this.#clock.now();
    const state = await look();
    if (state === undefined) return [...this.#gone(name)];
    if (!this.#tracker.isSettled(name, state, before)) {
      this.#tracker.look(name, state, this.#clock.now());
      return [this.#event({ type: "waiting", name, size: state.size })];
    }
    const action = entry.onRecord ? "replace" : "upload";
    try {
      if (entry.check && await this.#holds(name, path, state)) {
        this.#tracker.stored(name, state);
        this.#outage = undefined;
        return [this.#event({ type: "stored", name, size: state.size, action, already: true })];
      }
      await uploadFile(this.#record, path, {
        fileName: name,
        force: true,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) return [];
      const now = await look();
      if (now === undefined) return [...this.#gone(name)];
      if (now.size !== state.size || now.mtime !== state.mtime) {
        // It changed while it was read (the upload refused it): it waits again.
        this.#tracker.look(name, now, this.#clock.now());
        return [this.#event({ type: "waiting", name, size: now.size })];
      }
      if (isFatal(error)) throw error;
      if (isPermanent(error)) {
        entry.failed = true;
        return [this.#event({ type: "error", name, message: message(error) })];
      }
      entry.check = true;
      return [this.#failed(error, name)];
    }
    this.#outage = undefined;
    this.#tracker.stored(name, state);
    const stored: WatchEvent = this.#event({ type: "stored", name, size: state.size, action });
    const now = await look();
    if (now === undefined || (now.size === state.size && now.mtime === state.mtime)) {
      return [stored];
    }
    // Stored whole as it was read; it changed since and is sent again once it settles.
    this.#tracker.look(name, now, this.#clock.now());
    return [stored, this.#event({ type: "waiting", name, size: now.size })];
  }

  /** Whether the record's file of this name has the local file's size and checksum. */
  async #holds(name: string, path: string, state: FileState): Promise<boolean> {
    let file: FileJson;
    try {
      file = await this.#record.getFileByName(name);
    } catch (error) {
      if (error instanceof InputError) return false; // no file of that name
      throw error;
    }
    const kind = kindOf(file.checksum, file.size);
    if (file.size !== state.size || kind === undefined) return false;
    const local = await fileChecksums(path, kind);
    return local.size === state.size &&
      local.candidates.includes(file.checksum!.trim().toLowerCase());
  }
}
