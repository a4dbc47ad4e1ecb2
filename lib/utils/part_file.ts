/**
 * Names of the temporary files of downloads and exports: `.<name>.<8 hex>.part` beside the
 * target (written by `lib/transfer`; here so that callers can map them back without loading it).
 *
 * @module
 */

import { basename } from "node:path";

/** Name of a temporary download file; the first group is the (possibly shortened) target name. */
export const PART_FILE_NAME: RegExp = /^\.(.+)\.[0-9a-f]{8}\.part$/;

/**
 * The target a temporary download file belongs to, or `undefined` when `path` is not a temporary
 * file. A very long target name is shortened in the temporary name; the result then has the
 * shortened name.
 *
 * @example Usage
 * ```ts
 * import { partFileTarget } from "./part_file.ts";
 * import assert from "node:assert";
 *
 * assert.strictEqual(partFileTarget("/data/.run1.h5.d63c2534.part"), "/data/run1.h5");
 * assert.strictEqual(partFileTarget("/data/run1.h5"), undefined);
 * ```
 *
 * @param path A file's path.
 * @returns The target's path, or `undefined`.
 */
export function partFileTarget(path: string): string | undefined {
  const name = basename(path);
  const stem = PART_FILE_NAME.exec(name)?.[1];
  return stem === undefined ? undefined : `${path.slice(0, path.length - name.length)}${stem}`;
}
