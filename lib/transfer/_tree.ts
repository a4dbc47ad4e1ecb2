/**
 * Folder trees on both sides of a transfer: walking a local folder into relative names with `/`
 * separators (the names files get in a record), and mapping a record's names back to paths
 * under a target folder, every component through the one sanitiser and no folder on the way a
 * symbolic link, so no name from the server leads outside the target.
 *
 * @module
 */

import { join } from "node:path";
import { InputError } from "../errors.ts";
import { safeFileName } from "../utils/file_name.ts";
import { runPool } from "./_pool.ts";

/** One file found by {@linkcode walkTree}. */
export interface TreeFile {
  /** Path on disk. */
  path: string;
  /** Path relative to the walked folder, with `/` separators (the name in the record). */
  name: string;
  /** Size in bytes. */
  size: number;
  /** Last modification, in ms since the epoch (`undefined` where the file system has none). */
  mtime: number | undefined;
}

/** Options of {@linkcode walkTree}. */
export interface WalkTreeOptions {
  /** Keep only files whose relative name passes. */
  wanted?: (name: string) => boolean;
  /** Follow symbolic links to files and folders (a link back to an ancestor is left out). */
  followSymlinks?: boolean;
  /** Receives what was left out: symbolic links not followed, loops. */
  onWarning?: ((message: string) => void) | undefined;
  /** Leave out these entries (relative names). */
  skip?: (name: string) => boolean;
  /**
   * Receives each entry the walk could not read, with why: a folder that cannot be listed, an
   * entry whose information cannot be read (permissions, I/O errors, gone while listed), a
   * followed link whose target is missing, a special file (FIFO, socket, device). Without it,
   * such entries are left out silently (a subfolder that cannot be listed throws).
   */
  onUnreadable?: ((name: string, reason: string) => void) | undefined;
  /** Receives the relative name of each folder walked into. */
  onFolder?: ((name: string) => void) | undefined;
  /** Receives the relative name of each symbolic link left out (not followed, or a loop). */
  onLink?: ((name: string) => void) | undefined;
}

/** Longest file name the server accepts, in characters. */
export const MAX_SERVER_NAME_LENGTH = 256;

/**
 * File system calls in flight while listing a folder. Every entry is statted asynchronously, this
 * many at a time: one way for a local disk and a network file system alike (where a stat waits
 * for a round trip, so one at a time would cost the entries times that round trip).
 */
export const STAT_CONCURRENCY = 16;

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** Why an entry could not be read, in the user's terms. */
function unreadableReason(error: Error, link: boolean): string {
  if (link && error instanceof Deno.errors.NotFound) {
    return "its symbolic link leads to nothing (a target that is gone, or a drive or share not mounted)";
  }
  if (error instanceof Deno.errors.NotFound) return "it disappeared while the folder was read";
  if (error instanceof Deno.errors.PermissionDenied) {
    return "it cannot be read (permission denied): give read access to it";
  }
  if (error instanceof Deno.errors.NotCapable) {
    return "this process may not read it (Deno's --allow-read/--deny-read): allow reading it";
  }
  return `it cannot be read (${error.message})`;
}

/**
 * Lists every file under `root`, subfolders included, sorted by relative name. Symbolic links
 * are left out (one warning with their count) unless `followSymlinks`; then a link that leads
 * back to a folder being walked is left out with a warning, so a loop ends.
 *
 * @returns The files, in name order.
 */
export async function walkTree(root: string, options: WalkTreeOptions = {}): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  const unreadable = options.onUnreadable;
  let links = 0;
  const walk = async (dir: string, prefix: string, ancestors: Set<string>) => {
    const entries: Deno.DirEntry[] = [];
    try {
      for await (const entry of Deno.readDir(dir)) entries.push(entry);
    } catch (error) {
      if (prefix === "" || unreadable === undefined) throw error;
      unreadable(prefix.slice(0, -1), unreadableReason(asError(error), false));
      return;
    }
    const folders: { path: string; name: string; real: string }[] = [];
    const visit = async (entry: Deno.DirEntry) => {
      const name = `${prefix}${entry.name}`;
      if (options.skip?.(name)) return;
      const wanted = options.wanted?.(name) ?? true;
      const path = join(dir, entry.name);
      const follow = entry.isSymlink && options.followSymlinks === true;
      const info = await (follow ? Deno.stat(path) : Deno.lstat(path)).catch(asError);
      if (info instanceof Error) {
        // A file left out by the globs is not needed; anything else may hold wanted files.
        if (unreadable !== undefined && !(entry.isFile && !wanted)) {
          unreadable(name, unreadableReason(info, follow));
        } else if (entry.isSymlink) links++;
        return;
      }
      if (info.isSymlink) {
        links++;
        options.onLink?.(name);
        return;
      }
      if (info.isDirectory) {
        let real = "";
        if (options.followSymlinks) {
          try {
            real = await Deno.realPath(path);
          } catch (error) {
            if (unreadable === undefined) throw error;
            unreadable(name, unreadableReason(asError(error), follow));
            return;
          }
        }
        folders.push({ path, name, real });
        options.onFolder?.(name);
      } else if (!wanted) return;
      else if (info.isFile) {
        files.push({ path, name, size: info.size, mtime: info.mtime?.getTime() });
      } else {
        unreadable?.(
          name,
          "it is not a regular file (a FIFO, socket or device): replace it with a file, or leave it out with an exclude pattern",
        );
      }
    };
    await runPool(STAT_CONCURRENCY, entries, visit);
    for (const folder of folders.sort((a, b) => compareNames(a.name, b.name))) {
      if (options.followSymlinks) {
        if (ancestors.has(folder.real)) {
          options.onWarning?.(
            `Left out '${folder.name}': it leads back to a folder above it (a symbolic link loop)`,
          );
          options.onLink?.(folder.name);
          continue;
        }
        await walk(folder.path, `${folder.name}/`, new Set([...ancestors, folder.real]));
      } else await walk(folder.path, `${folder.name}/`, ancestors);
    }
  };
  const real = options.followSymlinks ? await Deno.realPath(root) : "";
  await walk(root, "", new Set([real]));
  if (links > 0 && !options.followSymlinks) {
    options.onWarning?.(
      `Left out ${links} symbolic link(s): add --follow-symlinks (followSymlinks) to follow them`,
    );
  }
  return files.sort((a, b) => compareNames(a.name, b.name));
}

/**
 * Throws before anything is sent when names are longer than the server accepts.
 *
 * @throws {InputError} Listing every name that is too long.
 */
export function checkNameLengths(names: Iterable<string>): void {
  const long = [...names].filter((name) => [...name].length > MAX_SERVER_NAME_LENGTH);
  if (long.length === 0) return;
  const list = long.map((name) => `'${name}'`).join(", ");
  throw new InputError(
    `${long.length} file name(s) are longer than the server's ${MAX_SERVER_NAME_LENGTH} characters: ${list}; nothing was sent: shorten or move these files, or leave them out with an exclude pattern`,
  );
}

/**
 * The folders of a relative `/`-separated path, outermost first (`a/b/c` → `a`, `a/b`).
 */
export function parentsOf(name: string): string[] {
  const parents: string[] = [];
  for (let end = name.indexOf("/"); end !== -1; end = name.indexOf("/", end + 1)) {
    parents.push(name.slice(0, end));
  }
  return parents;
}

/** Orders names by UTF-16 code units, as the listings are compared. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The local path, relative to the target folder with `/` separators, that a server name maps
 * to: split at `/`, each component through {@linkcode safeFileName} (so `..`, `.`, empty
 * components, an absolute path's leading `/`, reserved Windows names and control characters all
 * stay inside the target). With `flat`, the whole name is one component (`/` becomes `_`).
 *
 * @param name The name as the server sent it.
 * @param maxBytes Longest component in UTF-8 bytes (longer ones are shortened).
 */
export function localName(name: string, flat = false, maxBytes?: number): string {
  const options = { maxBytes };
  return flat
    ? safeFileName(name, options)
    : name.split("/").map((part) => safeFileName(part, options)).join("/");
}

/** A folder on a file's way is a file or a symbolic link: the file is not written. */
export class PathBlockedError extends InputError {
  /**
   * @param message What is in the way.
   */
  constructor(message: string) {
    super(message);
    this.name = "PathBlockedError";
  }
}

/**
 * Creates the folders of a relative path under `root`, one component at a time, refusing any
 * that exists as something other than a folder (a file, or a symbolic link that could lead
 * outside the target).
 *
 * @param root The target folder (exists).
 * @param relative The file's relative path from {@linkcode localName}.
 * @param folders Folders this run found or made already (a download of many files in one
 *   folder then looks at it once); filled in.
 * @throws {PathBlockedError} When a component on the way is a file or a symbolic link.
 */
export async function makeParents(
  root: string,
  relative: string,
  folders?: Set<string>,
): Promise<string> {
  const parts = relative.split("/");
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = join(dir, part);
    if (folders?.has(dir)) continue;
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.lstat(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (info === undefined) {
      try {
        await Deno.mkdir(dir);
        folders?.add(dir);
        continue;
      } catch (error) {
        // Another file of the same download created it meanwhile.
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
        info = await Deno.lstat(dir);
      }
    }
    if (!info.isDirectory) {
      throw new PathBlockedError(
        `Cannot write '${relative}': '${dir}' is ${
          info.isSymlink ? "a symbolic link" : "a file"
        }, not a folder; nothing was written there`,
      );
    }
    folders?.add(dir);
  }
  return join(dir, parts.at(-1)!);
}

/**
 * Checks, right before a write, that every folder from `root` to a file's place is a folder and
 * none a symbolic link (one may have been swapped in since the folders were made). There is no
 * `openat` here: a swap between this check and the open or rename that follows it is not caught.
 *
 * @param relative The file's relative path, `/` separated.
 * @throws {PathBlockedError} When a component is missing, a file or a symbolic link.
 */
export async function checkParents(root: string, relative: string): Promise<void> {
  let dir = root;
  for (const part of relative.split("/").slice(0, -1)) {
    dir = join(dir, part);
    let info: Deno.FileInfo | undefined;
    try {
      info = await Deno.lstat(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (info?.isDirectory !== true) {
      throw new PathBlockedError(
        `Cannot write '${relative}': '${dir}' is ${
          info === undefined ? "gone" : info.isSymlink ? "a symbolic link" : "a file"
        }, not a folder (it changed during the run); nothing was written there`,
      );
    }
  }
}
