/**
 * Where a download or export lands: a directory gets a default file name (optionally inside a
 * folder named after the resource), and an existing file is kept, the new one renamed
 * `<stem>_<n><ext>` with `n` from 2, unless `force` allows overwriting it. Every name from the
 * server goes through {@linkcode safeFileName} here, and nowhere else.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { InputError } from "../errors.ts";
import { safeFileName } from "../utils/file_name.ts";

/** Options of {@linkcode resolveTarget}. */
export interface ResolveTargetOptions {
  /** Subfolder of the directory to write into (the resource identifier, from the server). */
  folder?: string | undefined;
  /** Overwrite an existing file instead of choosing a new name. */
  force?: boolean | undefined;
  /**
   * Paths already claimed by this operation (several files in flight): never chosen again, not
   * even with `force`. The chosen path is added.
   */
  taken?: Set<string> | undefined;
  /** Receives a warning when the name had to be shortened. */
  onWarning?: ((message: string) => void) | undefined;
}

/**
 * Resolves the file to write. `path` is a directory when it exists as one, ends with a path
 * separator, or `folder` is given; the directory (and folder) are created when missing. The
 * default name and the folder come from the server and are sanitised; a file path given by the
 * caller is used as it is.
 *
 * @param path A file or directory path.
 * @param defaultName File name used inside a directory.
 */
export async function resolveTarget(
  path: string,
  defaultName: string,
  options: ResolveTargetOptions = {},
): Promise<string> {
  const target = await plainTarget(path, defaultName, options);
  // With force an existing file is overwritten, but never one this operation claimed already.
  return await freePath(target, options.taken ?? new Set<string>(), options.force === true);
}

/**
 * The file {@linkcode resolveTarget} starts from, before a free name is looked for: the
 * sanitised default name in the directory, or the file path itself. Creates the directory.
 *
 * @param path A file or directory path.
 * @param defaultName File name used inside a directory.
 * @param options Subfolder and the warning callback.
 * @returns The target without a numbered suffix.
 */
export async function plainTarget(
  path: string,
  defaultName: string,
  options: Pick<ResolveTargetOptions, "folder" | "onWarning"> = {},
): Promise<string> {
  const isDir = options.folder !== undefined || /[\\/]$/.test(path) || await isDirectory(path);
  if (!isDir) {
    // A file path in a directory that does not exist yet: create the directory, as for a
    // directory path, instead of failing when the temporary file is opened.
    await Deno.mkdir(dirname(path), { recursive: true });
    return path;
  }
  const dir = options.folder === undefined ? path : join(path, safeFileName(options.folder));
  await Deno.mkdir(dir, { recursive: true });
  const name = safeFileName(defaultName);
  if (name !== safeFileName(defaultName, { maxBytes: Infinity })) {
    options.onWarning?.(
      `The name '${defaultName}' is too long for the local file system: saved as '${name}'`,
    );
  }
  return join(dir, name);
}

/**
 * The first of `path`, `<stem>_2<ext>`, ... (existing ones, up to the first free name) that
 * `holds` says already holds the data, and that this operation has not claimed, now claimed
 * (added to `taken`); `undefined` when none does. A rerun then finds what an earlier run wrote,
 * under whichever name it got.
 *
 * @param path The target without a numbered suffix.
 * @param taken Paths claimed by this operation (never returned); the path returned is added.
 * @param holds Whether an existing file holds the data.
 * @param plainOnly Look at `path` only (a download that replaces the target).
 * @returns The path holding the data, or `undefined`.
 */
export async function presentPath(
  path: string,
  taken: Set<string>,
  holds: (candidate: string) => Promise<boolean>,
  plainOnly = false,
): Promise<string | undefined> {
  for (let n = 1; n <= (plainOnly ? 1 : MAX_NUMBERED_NAMES); n++) {
    const candidate = numbered(path, n);
    if (!await pathExists(candidate)) return undefined;
    // Checked again after the (asynchronous) look: another file of the operation may have
    // claimed the name meanwhile.
    if (!taken.has(candidate) && await holds(candidate) && !taken.has(candidate)) {
      taken.add(candidate);
      return candidate;
    }
  }
  return undefined;
}

/** `path` itself for 1, else `<stem>_<n><ext>` (the stem shortened when the name gets long). */
function numbered(path: string, n: number): string {
  return n === 1 ? path : join(dirname(path), safeFileName(basename(path), { suffix: `_${n}` }));
}

/**
 * The path itself when free, else `<stem>_<n><ext>` with the smallest free `n` from 2 (the stem
 * is shortened when the name would get too long).
 *
 * @param taken Paths claimed already (treated as existing); the chosen path is added.
 * @param overwrite Existing files count as free (only `taken` paths are skipped).
 * @returns A path that does not exist yet (or, with `overwrite`, is not taken).
 * @throws {InputError} When `<stem>_2` to `<stem>_10000` are all taken (a bounded search).
 */
export async function freePath(
  path: string,
  taken: Set<string> = new Set(),
  overwrite = false,
): Promise<string> {
  for (let n = 1; n <= MAX_NUMBERED_NAMES; n++) {
    const candidate = numbered(path, n);
    if (taken.has(candidate) || (!overwrite && await pathExists(candidate))) continue;
    // Claimed with no await between the last check and the claim: concurrent downloads of the
    // same operation (names that shorten to the same text) never choose the same path.
    if (taken.has(candidate)) continue;
    taken.add(candidate);
    return candidate;
  }
  throw new InputError(
    `No free file name for '${basename(path)}' in '${
      dirname(path)
    }': ${MAX_NUMBERED_NAMES} numbered names are taken; ` +
      "download into an empty folder",
  );
}

/** How many numbered names {@linkcode freePath} tries before it gives up. */
const MAX_NUMBERED_NAMES = 10_000;

/**
 * `path` marked as a directory for {@linkcode resolveTarget} (one trailing separator).
 *
 * @returns The path ending in `/`.
 */
export function asDirectory(path: string): string {
  return `${path.replace(/[\\/]+$/, "")}/`;
}

/**
 * `name` with `.<extension>` added unless it ends with it already.
 *
 * @param extension The extension without the dot.
 */
export function withExtension(name: string, extension: string): string {
  return name.endsWith(`.${extension}`) ? name : `${name}.${extension}`;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Whether anything (a file, a folder, a link) is at `path`. */
export async function pathExists(path: string): Promise<boolean> {
  return await lstatOrUndefined(path) !== undefined;
}

/** What `lstat` says of `path`; `undefined` when nothing is there. */
export async function lstatOrUndefined(path: string): Promise<Deno.FileInfo | undefined> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
