/**
 * How a watcher tells failures apart: those that end it (a refused token, a record gone), those
 * that wait until the file changes (the server refuses the file), and the rest, which are retried
 * with backoff (the server or the network is gone). Shared by the folder and collection watchers.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { RequestError } from "../http/errors.ts";

/** The first {@linkcode RequestError} in an error's chain of causes. */
function requestError(error: unknown): RequestError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof RequestError) return e;
  }
  return undefined;
}

/**
 * A failure that sending the same file again will not cure until the file changes: the server
 * refuses it (bad name, too large, over the quota), or the file cannot be read.
 */
export function isPermanent(error: unknown): boolean {
  const status = requestError(error)?.status;
  if (status !== undefined) return [400, 413, 415, 422].includes(status);
  return error instanceof InputError;
}

/**
 * A failure that ends the watcher: the token is refused or lacks the permission, or (`listing`:
 * for the first sync's listing) the record is gone.
 */
export function isFatal(error: unknown, listing = false): boolean {
  const status = requestError(error)?.status;
  return status === 401 || status === 403 || (listing && status === 404);
}

/** An error's message. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
