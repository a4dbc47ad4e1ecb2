// Local checksums for sync, in the form the server reports for a file (plain MD5, or the chunk
// MD5 composite), and the hash cache that makes a no-op re-sync of a big folder cheap. The
// checksum itself is the engine's (`Checksum` of `_chunks.ts`): this module only feeds it files.
// The cache is sync state, not the user's data: it lives in the user's cache folder, one file per
// host, record and synced folder, never in the synced folder itself.

import { dirname, join } from "node:path";
import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { Checksum, checksumKind } from "./_chunks.ts";
import { tempPathFor } from "./_atomic_file.ts";
import { lstatOrUndefined } from "./_paths.ts";
import { hex } from "../utils/_hex.ts";

/** Files up to this size are read in one call. */
const WHOLE_READ_BYTES = 1 << 20;

/** The checksum forms the server uses. */
export type ChecksumKind = "md5" | "composite";

/**
 * The form of a server checksum, or `undefined` when it cannot be compared.
 */
export function kindOf(
  checksum: string | null | undefined,
  size: number,
): ChecksumKind | undefined {
  return checksumKind(checksum, size);
}

/**
 * The checksum candidates of a local file in one form (any one equal to the server's is a match).
 *
 * @returns Size read and candidates (lower-case).
 */
export async function fileChecksums(
  path: string,
  kind: ChecksumKind,
): Promise<{ size: number; candidates: string[] }> {
  const checksum = new Checksum(kind);
  using file = await Deno.open(path);
  const { size } = await file.stat();
  if (size <= WHOLE_READ_BYTES) {
    checksum.update(await Deno.readFile(path));
  } else {
    const buffer = new Uint8Array(Math.min(UPLOAD_CHUNK_SIZE, 4 << 20));
    while (true) {
      const read = await file.read(buffer);
      if (read === null) break;
      checksum.update(buffer.subarray(0, read));
    }
  }
  return checksum.result();
}

interface CacheEntry {
  /** Size in bytes. */
  s: number;
  /** Modification time in ms. */
  m: number;
  /** Checksum candidates by form. */
  c: Partial<Record<ChecksumKind, string[]>>;
}

/** Largest cache file read (about a million files); a larger one is ignored with a warning. */
export const MAX_CACHE_BYTES = 128 << 20;

/** Version of the cache file's format. */
const CACHE_VERSION = 2;

/** What a cache file belongs to: it is used only for the same host, record and folder. */
export interface CacheOwner {
  /** The API base URL. */
  host: string;
  /** The record's id. */
  record: number;
  /** The synced folder's real path. */
  folder: string;
}

/**
 * The user's cache folder for repo-apy: `$XDG_CACHE_HOME/repo-apy` (else `~/.cache/repo-apy`) on
 * Linux and other Unix systems, `~/Library/Caches/repo-apy` on macOS, `%LOCALAPPDATA%\repo-apy` on
 * Windows; `undefined` when the environment does not say (or may not be read: a variable without
 * `--allow-env` is taken as unset, never asked for).
 *
 * @returns The folder, or `undefined`.
 */
export function userCacheDir(): string | undefined {
  const env = (variable: string): string | undefined => {
    // Only a variable granted already is read: asking on a terminal would stop the run.
    if (Deno.permissions.querySync({ name: "env", variable }).state !== "granted") return undefined;
    const value = Deno.env.get(variable);
    return value === undefined || value === "" ? undefined : value;
  };
  const home = env("HOME");
  let base: string | undefined;
  if (Deno.build.os === "windows") base = env("LOCALAPPDATA");
  else if (Deno.build.os === "darwin") base = home && join(home, "Library", "Caches");
  else base = env("XDG_CACHE_HOME") ?? (home && join(home, ".cache"));
  return base === undefined ? undefined : join(base, "repo-apy");
}

/**
 * The cache file of one sync: `<cacheDir>/sync/<sha-256 of host, record and folder>.json`.
 *
 * @param cacheDir The cache folder (see {@linkcode userCacheDir}).
 * @param owner Host, record and real folder path.
 */
export async function syncCachePath(cacheDir: string, owner: CacheOwner): Promise<string> {
  const key = JSON.stringify([owner.host, owner.record, owner.folder]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  return join(cacheDir, "sync", `${hex(new Uint8Array(digest))}.json`);
}

/** A checksum candidate as the cache may hold it (hex, with a composite's `-N`). */
const CANDIDATE = /^[0-9a-f]{32}(-\d{1,9})?$/;

function validEntry(entry: unknown): entry is CacheEntry {
  if (entry === null || typeof entry !== "object") return false;
  const { s, m, c } = entry as Record<string, unknown>;
  if (!Number.isSafeInteger(s) || typeof m !== "number" || !Number.isFinite(m)) return false;
  if (c === null || typeof c !== "object" || Array.isArray(c)) return false;
  for (const [kind, list] of Object.entries(c)) {
    if (kind !== "md5" && kind !== "composite") return false;
    if (!Array.isArray(list) || list.length > 8) return false;
    if (!list.every((item) => typeof item === "string" && CANDIDATE.test(item))) return false;
  }
  return true;
}

/**
 * Reads a cache file: a regular file of at most {@linkcode MAX_CACHE_BYTES}, read with that
 * bound (a file that grows while read is not trusted). `undefined` when there is none.
 */
async function readBounded(path: string): Promise<string | undefined> {
  const info = await lstatOrUndefined(path);
  if (info === undefined) return undefined;
  if (!info.isFile) throw new Error("it is not a regular file");
  if (info.size > MAX_CACHE_BYTES) throw new Error(`it is larger than ${MAX_CACHE_BYTES} bytes`);
  using file = await Deno.open(path);
  // Opened by name after the check: the open file must still be a regular file of bounded size.
  const opened = await file.stat();
  if (!opened.isFile || opened.size > MAX_CACHE_BYTES) {
    throw new Error("it changed while it was opened");
  }
  const buffer = new Uint8Array(opened.size + 1);
  let length = 0;
  while (length < buffer.byteLength) {
    const read = await file.read(buffer.subarray(length));
    if (read === null) break;
    length += read;
  }
  if (length > opened.size) throw new Error("it grew while it was read");
  return new TextDecoder().decode(buffer.subarray(0, length));
}

/**
 * Checksums of local files keyed by relative name, size and modification time; an entry is
 * used only when both size and time are unchanged. Stored as JSON in the user's cache folder
 * (see {@linkcode syncCachePath}), with the host, record and folder it belongs to; a cache that is
 * missing, damaged, too large, not a regular file or another's is not used (with a warning when
 * it exists), and one that cannot be written is simply not kept.
 */
export class HashCache {
  #path: string;
  #owner: CacheOwner | undefined;
  #entries: Map<string, CacheEntry>;
  #changed = false;

  private constructor(
    path: string,
    owner: CacheOwner | undefined,
    entries: Map<string, CacheEntry>,
  ) {
    this.#path = path;
    this.#owner = owner;
    this.#entries = entries;
  }

  /**
   * Loads the cache of a sync (empty when there is none or it cannot be used).
   *
   * @param path The cache file ({@linkcode syncCachePath}).
   * @param owner Host, record and folder it must belong to.
   * @param onWarning Receives why an existing cache file is not used.
   */
  static async load(
    path: string,
    owner: CacheOwner,
    onWarning?: (message: string) => void,
  ): Promise<HashCache> {
    const entries = new Map<string, CacheEntry>();
    const ignore = (why: string) => {
      onWarning?.(`Ignored the sync cache '${path}': ${why}; every file is checksummed again`);
      entries.clear();
    };
    let text: string | undefined;
    try {
      text = await readBounded(path);
    } catch (error) {
      ignore(error instanceof Error ? error.message : String(error));
    }
    if (text === undefined) return new HashCache(path, owner, entries);
    try {
      const json = JSON.parse(text) as Record<string, unknown> | null;
      if (json === null || typeof json !== "object" || json.version !== CACHE_VERSION) {
        ignore("it is not a cache of this version");
      } else if (
        json.host !== owner.host || json.record !== owner.record || json.folder !== owner.folder
      ) {
        ignore("it belongs to another host, record or folder");
      } else if (json.entries === null || typeof json.entries !== "object") {
        ignore("it holds no entries");
      } else {
        for (const [name, entry] of Object.entries(json.entries)) {
          if (!validEntry(entry)) {
            ignore(`its entry of '${name}' is damaged`);
            break;
          }
          entries.set(name, entry);
        }
      }
    } catch {
      ignore("it is not valid JSON");
    }
    // A cache that was ignored is replaced at the end of the run.
    const cache = new HashCache(path, owner, entries);
    cache.#changed = entries.size === 0;
    return cache;
  }

  /** A cache that neither reads nor writes anything. */
  static none(): HashCache {
    return new HashCache("", undefined, new Map());
  }

  /**
   * The cached candidates of a file, when its size and time are unchanged.
   *
   * @returns The candidates, or `undefined`.
   */
  get(
    name: string,
    size: number,
    mtime: number | undefined,
    kind: ChecksumKind,
  ): readonly string[] | undefined {
    const entry = this.#entries.get(name);
    if (entry === undefined || mtime === undefined || entry.s !== size || entry.m !== mtime) {
      return undefined;
    }
    return entry.c[kind];
  }

  /** Records the candidates of a file of this size and time. */
  set(
    name: string,
    size: number,
    mtime: number | undefined,
    kind: ChecksumKind,
    candidates: string[],
  ): void {
    if (this.#path === "" || mtime === undefined) return;
    const entry = this.#entries.get(name);
    const same = entry !== undefined && entry.s === size && entry.m === mtime;
    this.#entries.set(name, {
      s: size,
      m: mtime,
      c: { ...(same ? entry.c : {}), [kind]: candidates },
    });
    this.#changed = true;
  }

  /**
   * Drops the entries of files that are gone: names the run looked at (`wanted`) that are not
   * in `present`. Entries outside the run's globs stay.
   */
  prune(present: ReadonlySet<string>, wanted: (name: string) => boolean): void {
    for (const name of this.#entries.keys()) {
      if (wanted(name) && !present.has(name)) {
        this.#entries.delete(name);
        this.#changed = true;
      }
    }
  }

  /** Writes the cache atomically when it changed; failures are ignored (it is only a cache). */
  async save(): Promise<void> {
    if (this.#path === "" || !this.#changed || this.#owner === undefined) return;
    const temp = tempPathFor(this.#path);
    try {
      await Deno.mkdir(dirname(this.#path), { recursive: true, mode: 0o700 });
      await Deno.writeTextFile(
        temp,
        JSON.stringify({
          version: CACHE_VERSION,
          ...this.#owner,
          entries: Object.fromEntries(this.#entries),
        }),
        { mode: 0o600 },
      );
      await Deno.rename(temp, this.#path);
      this.#changed = false;
    } catch {
      await Deno.remove(temp).catch(() => {});
    }
  }
}
