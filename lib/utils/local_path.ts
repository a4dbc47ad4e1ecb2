/**
 * Local paths a user gave (a file to upload or import, a folder): the file system call, with
 * "nothing there" said in the user's terms (`No file at '<path>': check the path`, an
 * {@linkcode InputError}) instead of Deno's `NotFound`. Other errors (permissions, a broken disk)
 * pass unchanged. Uploads (`statUploadPath`, a file source) and imports (`readBoundedText`, an
 * .eln archive) use it.
 *
 * @example Usage
 * ```ts
 * import { statLocalPath } from "./local_path.ts";
 * const info = await statLocalPath("."); // --allow-read for the path
 * console.log(info.isDirectory); // true
 * ```
 *
 * @module
 */

import { InputError } from "../errors.ts";

/** How a missing path is said. */
export interface LocalPathOptions {
  /**
   * What should be at the path, as the message names it.
   *
   * @default {"file"}
   */
  what?: string;
  /**
   * What to do, after the colon.
   *
   * @default {"check the path"}
   */
  hint?: string;
}

/**
 * `Deno.stat(path)`, with an {@linkcode InputError} `No <what> at '<path>': <hint>` when nothing
 * is there.
 *
 * @param path The path the user gave.
 * @param options How a missing path is said.
 * @returns Its file information (a symbolic link is followed).
 * @throws {InputError} When nothing exists at `path`.
 */
export async function statLocalPath(
  path: string,
  options: LocalPathOptions = {},
): Promise<Deno.FileInfo> {
  return await callInUserTerms(() => Deno.stat(path), path, options);
}

/**
 * `Deno.open(path, { read: true })`, with an {@linkcode InputError} when nothing is there, as
 * {@linkcode statLocalPath}.
 *
 * @param path The path the user gave.
 * @param options How a missing path is said.
 * @returns The open file; the caller closes it.
 * @throws {InputError} When nothing exists at `path`.
 */
export async function openLocalFile(
  path: string,
  options: LocalPathOptions = {},
): Promise<Deno.FsFile> {
  return await callInUserTerms(() => Deno.open(path, { read: true }), path, options);
}

/**
 * `Deno.statSync(path)`, with an {@linkcode InputError} when nothing is there, as
 * {@linkcode statLocalPath}: for a path stat'ed once per upload, where the asynchronous call's
 * cost counts (a folder of small files).
 *
 * @param path The path the user gave.
 * @param options How a missing path is said.
 * @returns Its file information (a symbolic link is followed).
 * @throws {InputError} When nothing exists at `path`.
 */
export function statLocalPathSync(path: string, options: LocalPathOptions = {}): Deno.FileInfo {
  try {
    return Deno.statSync(path);
  } catch (error) {
    throw inUserTerms(error, path, options);
  }
}

async function callInUserTerms<T>(
  call: () => Promise<T>,
  path: string,
  options: LocalPathOptions,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw inUserTerms(error, path, options);
  }
}

/** A missing path as an {@linkcode InputError}; any other error as it is. */
function inUserTerms(
  error: unknown,
  path: string,
  { what = "file", hint = "check the path" }: LocalPathOptions,
): unknown {
  return error instanceof Deno.errors.NotFound
    ? new InputError(`No ${what} at '${path}': ${hint}`)
    : error;
}
