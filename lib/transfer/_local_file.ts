/**
 * Turns an OS error about a transfer's local file into a {@linkcode LocalFileError} naming the
 * file the caller asked for, so nobody has to read a path out of the OS's message.
 *
 * @module
 */

import { LocalFileError } from "./errors.ts";

/** OS errors about a file or folder (not the network's). */
const FILE_ERRORS = [
  Deno.errors.NotFound,
  Deno.errors.PermissionDenied,
  Deno.errors.NotCapable,
  Deno.errors.AlreadyExists,
  Deno.errors.IsADirectory,
  Deno.errors.NotADirectory,
  Deno.errors.FilesystemLoop,
];

/**
 * Runs `work`, which writes `path` (through a temporary file); a file system error becomes a
 * {@linkcode LocalFileError} for `path`.
 *
 * @param path The target as the caller named it.
 * @returns What `work` returns.
 */
export async function writingFile<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (FILE_ERRORS.some((type) => error instanceof type)) {
      throw new LocalFileError(path, error as Error);
    }
    throw error;
  }
}
