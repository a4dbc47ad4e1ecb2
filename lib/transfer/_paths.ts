/**
 * Where a download or export lands: a directory gets a default file name (optionally inside a
 * folder named after the resource), and an existing file is kept, the new one renamed
 * `<stem>_<n><ext>` with `n` from 2, unless `force` allows overwriting it.
 *
 * @module
 */

import { dirname, extname, join } from "node:path";

/** Options of {@linkcode resolveTarget}. */
export interface ResolveTargetOptions {
  /** Subfolder of the directory to write into (the resource identifier). */
  folder?: string | undefined;
  /** Overwrite an existing file instead of choosing a new name. */
  force?: boolean | undefined;
}

/**
 * Resolves the file to write. `path` is a directory when it exists as one, ends with a path
 * separator, or `folder` is given; the directory (and folder) are created when missing.
 *
 * @param path A file or directory path.
 * @param defaultName File name used inside a directory.
 * @param options Subfolder and overwrite policy.
 * @returns The file to write.
 */
export async function resolveTarget(
  path: string,
  defaultName: string,
  options: ResolveTargetOptions = {},
): Promise<string> {
  const isDir = options.folder !== undefined || /[\\/]$/.test(path) || await isDirectory(path);
  let target = path;
  if (isDir) {
    const dir = options.folder === undefined ? path : join(path, safeName(options.folder));
    await Deno.mkdir(dir, { recursive: true });
    target = join(dir, safeName(defaultName));
  } else {
    // A file path in a directory that does not exist yet: create the directory, as for a
    // directory path, instead of failing when the temporary file is opened.
    await Deno.mkdir(dirname(path), { recursive: true });
  }
  return options.force ? target : await freePath(target);
}

/**
 * Makes a server-provided name safe as a single path component.
 *
 * @param name The name.
 * @returns The name with path separators and control characters replaced by `_`.
 */
export function safeName(name: string): string {
  // deno-lint-ignore no-control-regex
  let cleaned = name.replace(/[\\/\x00-\x1f\x7f]/g, "_");
  if (Deno.build.os === "windows") {
    // Characters Windows refuses in names (`:` would even write an alternate data stream), and
    // trailing dots and spaces, which Windows drops.
    cleaned = cleaned.replace(/[<>:"|?*]/g, "_").replace(/[. ]+$/, (end) => "_".repeat(end.length));
  }
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "_" : cleaned;
}

/**
 * The path itself when free, else `<stem>_<n><ext>` with the smallest free `n` from 2.
 *
 * @param path The wanted path.
 * @returns A path that does not exist yet.
 */
export async function freePath(path: string): Promise<string> {
  if (!await exists(path)) return path;
  const ext = extname(path);
  const stem = path.slice(0, path.length - ext.length);
  for (let n = 2;; n++) {
    const candidate = `${stem}_${n}${ext}`;
    if (!await exists(candidate)) return candidate;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
