/**
 * `readBoundedText`: reads a text file given on the command line or to an importer, refusing a
 * missing path, a folder or a file larger than a cap before reading it.
 *
 * @module
 */

import { readBoundedText as readBoundedBody } from "../http/_body.ts";
import { InputError } from "../errors.ts";
import { statLocalPath } from "../utils/local_path.ts";

/**
 * Reads a text file after checking that it exists, is a file and is not larger than `maxBytes`.
 *
 * @example Usage
 * ```ts
 * import { InputError } from "@repo/apy";
 * import { readBoundedText } from "./read_bounded_text.ts";
 * import assert from "node:assert";
 *
 * const path = await Deno.makeTempFile(); // --allow-read (and --allow-write here) for it
 * await Deno.writeTextFile(path, "0123456789");
 * assert.strictEqual(await readBoundedText(path, 16 * 1024 * 1024), "0123456789");
 * await assert.rejects(readBoundedText(path, 4), InputError); // too large
 * await Deno.remove(path);
 * ```
 *
 * @throws {InputError} For a missing path, a path that is not a file, or a file too large.
 */
export async function readBoundedText(path: string, maxBytes: number): Promise<string> {
  const info = await statLocalPath(path);
  if (!info.isFile) throw new InputError(`'${path}' is not a file: give the path of a file`);
  if (info.size > maxBytes) {
    throw new InputError(`'${path}' has ${info.size} bytes, more than the ${maxBytes} read`);
  }
  // The size is checked again while reading: the file may have grown since, or been replaced.
  using file = await Deno.open(path, { read: true });
  const read = await readBoundedBody(file.readable, maxBytes);
  if (read.truncated) {
    throw new InputError(
      `'${path}' grew past ${maxBytes} bytes while it was read: give a file of at most ` +
        `${maxBytes} bytes that does not change`,
    );
  }
  return read.text;
}
