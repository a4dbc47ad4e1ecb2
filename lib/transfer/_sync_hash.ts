// Local checksums for sync, in the form the server reports for a file (plain MD5, or the chunk
// MD5 composite), and the hash cache that makes a no-op re-sync of a big folder cheap. The
// checksum itself is the engine's (`Checksum` of `_chunks.ts`): this module only feeds it files.

import { dirname, join } from "node:path";
import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { Checksum, checksumKind } from "./_chunks.ts";
import { tempPathFor } from "./_atomic_file.ts";

/** Name of the hash cache, a hidden file at the top of the synced folder. */
export const HASH_CACHE_NAME = ".repo-apy-sync-cache.json";

/** Files up to this size are read in one call. */
const WHOLE_READ_BYTES = 1 << 20;

/** The checksum forms the server uses. */
export type ChecksumKind = "md5" | "composite";

/**
 * The form of a server checksum, or `undefined` when it cannot be compared.
 *
 * @param checksum The server's checksum.
 * @param size The file's size.
 * @returns The form.
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
 * @param path The file.
 * @param kind The server's form.
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

/**
 * Checksums of local files keyed by relative name, size and modification time; an entry is
 * used only when both size and time are unchanged. Stored as JSON in {@linkcode HASH_CACHE_NAME}
 * at the top of the folder; a cache that cannot be read or written is simply not used.
 */
export class HashCache {
  #path: string;
  #entries: Map<string, CacheEntry>;
  #changed = false;

  private constructor(path: string, entries: Map<string, CacheEntry>) {
    this.#path = path;
    this.#entries = entries;
  }

  /**
   * Loads the cache of a folder (empty when there is none or it is unreadable).
   *
   * @param dir The synced folder.
   * @returns The cache.
   */
  static async load(dir: string): Promise<HashCache> {
    const path = join(dir, HASH_CACHE_NAME);
    const entries = new Map<string, CacheEntry>();
    try {
      const json = JSON.parse(await Deno.readTextFile(path)) as {
        version?: number;
        entries?: Record<string, CacheEntry>;
      };
      if (json.version === 1 && json.entries !== null && typeof json.entries === "object") {
        for (const [name, entry] of Object.entries(json.entries)) {
          if (typeof entry?.s === "number" && typeof entry.m === "number" && entry.c) {
            entries.set(name, entry);
          }
        }
      }
    } catch {
      // No cache yet, or a damaged one: every file is hashed.
    }
    return new HashCache(path, entries);
  }

  /** A cache that neither reads nor writes anything. */
  static none(): HashCache {
    return new HashCache("", new Map());
  }

  /**
   * The cached candidates of a file, when its size and time are unchanged.
   *
   * @returns The candidates, or `undefined`.
   */
  get(name: string, size: number, mtime: number | undefined, kind: ChecksumKind) {
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

  /** Drops the entries of names not in `keep` (files deleted or gone). */
  retain(keep: Set<string>): void {
    for (const name of this.#entries.keys()) {
      if (!keep.has(name)) {
        this.#entries.delete(name);
        this.#changed = true;
      }
    }
  }

  /** Writes the cache atomically when it changed; failures are ignored (it is only a cache). */
  async save(): Promise<void> {
    if (this.#path === "" || !this.#changed) return;
    const temp = tempPathFor(this.#path);
    try {
      await Deno.mkdir(dirname(this.#path), { recursive: true });
      await Deno.writeTextFile(
        temp,
        JSON.stringify({ version: 1, entries: Object.fromEntries(this.#entries) }),
      );
      await Deno.rename(temp, this.#path);
      this.#changed = false;
    } catch {
      await Deno.remove(temp).catch(() => {});
    }
  }
}
