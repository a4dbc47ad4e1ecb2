/**
 * The lock of a folder watcher: one watcher (or one settled sync run from cron) per folder,
 * repository and record, or per folder, repository and collection. The lock is the operating system's exclusive lock on a small file in the
 * user's cache folder, keyed by the folder's real path, the repository's API address and the
 * record; the system releases it when its process ends, however it ends, so a lock is never left
 * behind by a crash. Beside it, an owner file names the process that holds it (PID, host, start),
 * which a refused second watcher reports.
 *
 * @module
 */

import { join } from "node:path";
import { InputError, RepoApyError } from "../errors.ts";
import { userCacheDir } from "./_sync_hash.ts";

/** Who holds a watch lock, as its owner file says. */
export interface WatchLockOwner {
  /** Process id of the owner. */
  pid: number;
  /** Host name of the machine it runs on. */
  host: string;
  /** When it took the lock (ISO 8601). */
  since: string;
  /** The watched folder (real path). */
  folder: string;
  /** Id of the record (a record's watcher). */
  record?: number;
  /** Identifier of the collection (a collection's watcher). */
  collection?: string;
}

/**
 * Another watcher (or settled sync) holds the lock of the same folder and record: the second one
 * does not start.
 *
 * @example Usage
 * ```ts
 * import { WatchLockedError } from "@repo/apy";
 * const error = new WatchLockedError({
 *   pid: 4242, host: "lab-pc", since: "2026-01-01T00:00:00.000Z", folder: "/data", record: 7,
 * }, "/home/me/.cache/repo-apy/locks/x.lock");
 * console.log(error.message.includes("PID 4242 on lab-pc")); // true
 * ```
 */
export class WatchLockedError extends RepoApyError {
  /** The owner, as far as its owner file tells (`undefined` when it cannot be read). */
  readonly owner: WatchLockOwner | undefined;
  /** The lock file. */
  readonly lockPath: string;

  /**
   * Creates the error.
   *
   * @param owner The lock's owner, when known.
   */
  constructor(owner: WatchLockOwner | undefined, lockPath: string) {
    const who = owner === undefined
      ? "another process"
      : `PID ${owner.pid} on ${owner.host} (since ${owner.since})`;
    const into = owner?.collection === undefined
      ? "this record"
      : `the collection '${owner.collection}'`;
    super(
      `Another watcher already syncs '${
        owner?.folder ?? "this folder"
      }' into ${into}: ${who} holds the lock ${lockPath}; stop it first, or let it do the work`,
    );
    this.owner = owner;
    this.lockPath = lockPath;
  }
}

/** A held watch lock. */
export interface WatchLock {
  /** The lock file. */
  readonly path: string;
  /** The lock file and the owner file beside it (never sent when they lie in the folder). */
  readonly files: readonly string[];
  /** The owner file of an earlier holder that ended without releasing it (taken over). */
  readonly tookOver: WatchLockOwner | undefined;
  /** Releases the lock (idempotent). */
  release(): Promise<void>;
}

/**
 * What identifies a watch: the folder, the repository, and the record or (a collection's
 * watcher) the collection.
 */
export type WatchLockKey =
  & {
    /** The folder's real path. */
    folder: string;
    /** The repository's API base URL. */
    repository: string;
  }
  & (
    /** Id of the record. */
    | { record: number; collection?: undefined }
    /** Identifier of the collection (known before the collection may exist). */
    | { collection: string; record?: undefined }
  );

/**
 * The folder watch locks go in: `locks/` in the user's cache folder (see `userCacheDir`:
 * `$XDG_CACHE_HOME/repo-apy` or `~/.cache/repo-apy` on Linux, `~/Library/Caches/repo-apy` on
 * macOS, `%LOCALAPPDATA%\\repo-apy` on Windows), as the sync's hash cache.
 *
 * @returns The folder, or `undefined` when no cache folder is known (or its variables may not be
 *   read).
 */
export function defaultLockDir(): string | undefined {
  const cache = userCacheDir();
  return cache === undefined ? undefined : join(cache, "locks");
}

/** Reads an environment variable, or `undefined` when unset or not permitted. */
function env(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** This machine's name, as far as the permissions tell it. */
function hostName(): string {
  try {
    return Deno.hostname();
  } catch {
    // No --allow-sys: the environment or /etc/hostname, else a placeholder.
  }
  const named = env("HOSTNAME") ?? env("COMPUTERNAME");
  if (named !== undefined) return named;
  try {
    return Deno.readTextFileSync("/etc/hostname").trim() || "this host";
  } catch {
    return "this host";
  }
}

async function keyName(key: WatchLockKey): Promise<string> {
  const text = key.collection === undefined
    ? `${key.folder}\n${key.repository}\n${key.record}`
    : `${key.folder}\n${key.repository}\ncollection:${key.collection}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 16)]
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function readOwner(path: string): Promise<WatchLockOwner | undefined> {
  return Deno.readTextFile(path).then((text) => {
    const owner = JSON.parse(text) as Partial<WatchLockOwner>;
    return typeof owner.pid === "number" && typeof owner.host === "string"
      ? owner as WatchLockOwner
      : undefined;
  }).catch(() => undefined);
}

/**
 * Takes the lock of a watch, or throws {@linkcode WatchLockedError} naming its holder. An owner
 * file left by a holder that ended without releasing (killed, crashed) is taken over and
 * reported in `tookOver`.
 *
 * @param key Folder, repository and record.
 * @param dir The folder of lock files.
 */
export async function acquireWatchLock(key: WatchLockKey, dir: string): Promise<WatchLock> {
  await Deno.mkdir(dir, { recursive: true });
  const name = await keyName(key);
  const path = join(dir, `${name}.lock`);
  // The owner is written beside the lock file: on Windows a locked file cannot be read by others.
  const ownerPath = join(dir, `${name}.owner.json`);
  const file = await Deno.open(path, { read: true, write: true, create: true });
  let held = false;
  try {
    held = await file.tryLock(true);
    if (!held) throw new WatchLockedError(await readOwner(ownerPath), path);
    const earlier = await readOwner(ownerPath);
    const owner: WatchLockOwner = {
      pid: Deno.pid,
      host: hostName(),
      since: new Date().toISOString(),
      folder: key.folder,
      ...(key.collection === undefined ? { record: key.record } : { collection: key.collection }),
    };
    await Deno.writeTextFile(ownerPath, JSON.stringify(owner));
    let released = false;
    return {
      path,
      files: [path, ownerPath],
      tookOver: earlier,
      async release() {
        if (released) return;
        released = true;
        await Deno.remove(ownerPath).catch(() => {});
        await file.unlock().catch(() => {});
        file.close();
      },
    };
  } catch (error) {
    if (held) await file.unlock().catch(() => {});
    file.close();
    throw error;
  }
}

/**
 * Takes the lock of a watch in `lockDir` (`undefined`: {@linkcode defaultLockDir}; `false`: no
 * lock), and warns when it took over the lock of a watcher that ended without releasing it. The key
 * is asked for only once a lock folder is known (it may cost a request).
 *
 * @throws {InputError} When no lock folder is known.
 */
export async function takeWatchLock(
  key: () => Promise<WatchLockKey>,
  lockDir: string | false | undefined,
  onWarning: ((message: string) => void) | undefined,
): Promise<WatchLock | undefined> {
  const dir = lockDir === undefined ? defaultLockDir() : lockDir;
  if (dir === undefined) {
    throw new InputError(
      "No folder for the watch lock: set HOME (LOCALAPPDATA on Windows) or pass lockDir",
    );
  }
  if (dir === false) return undefined;
  const lock = await acquireWatchLock(await key(), dir);
  if (lock.tookOver !== undefined) {
    const { pid, host } = lock.tookOver;
    onWarning?.(
      `Took over the lock of an earlier watcher (PID ${pid} on ${host}) that ended without releasing it`,
    );
  }
  return lock;
}
