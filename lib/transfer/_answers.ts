/**
 * The shapes of the server's file and upload answers, checked before anything is built from them
 * (a path from a file's name, a link from an upload's actions), as record answers are: a wrong
 * shape is a clear error naming what is missing, never `Cannot read properties of undefined`.
 *
 * @module
 */

import { RepoApyError } from "../errors.ts";
import type { FileJson, UploadJson } from "../http/protocol.ts";
import type { JsonObjectOptions } from "../http/transport.ts";

/** Keys every file answer has. */
const FILE_KEYS = { id: "string", name: "string", size: "number" } as const;

/** Keys every upload answer has. */
const UPLOAD_KEYS = {
  id: "string",
  name: "string",
  size: "number",
  upload_type: "string",
  state: "string",
  _links: "object",
  _actions: "object",
  _meta: "object",
} as const;

/** `jsonObject` options for an answer that is one file. */
export const FILE_ANSWER: JsonObjectOptions = { shape: FILE_KEYS };

/** `jsonObject` options for an answer that is one upload. */
export const UPLOAD_ANSWER: JsonObjectOptions = { shape: UPLOAD_KEYS };

/**
 * Checks a file the server sent inside another answer (a list item, a merge task's result).
 *
 * @param value The value from the answer.
 * @param where Where it came from, for the message (`the files of record 3`).
 * @throws {RepoApyError} When a key is missing or of another type.
 */
export function checkFile(value: unknown, where: string): FileJson {
  return checkKeys<FileJson>(value, FILE_KEYS, "a file", where);
}

/**
 * Checks an upload the server sent inside another answer.
 *
 * @param value The value from the answer.
 * @param where Where it came from, for the message.
 * @throws {RepoApyError} When a key is missing or of another type.
 */
export function checkUpload(value: unknown, where: string): UploadJson {
  return checkKeys<UploadJson>(value, UPLOAD_KEYS, "an upload", where);
}

function checkKeys<T>(
  value: unknown,
  keys: Readonly<Record<string, "string" | "number" | "object">>,
  what: string,
  where: string,
): T {
  const object = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
  for (const [key, type] of Object.entries(keys)) {
    const found = object?.[key];
    const ok = type === "object"
      ? typeof found === "object" && found !== null && !Array.isArray(found)
      : type === "number"
      ? typeof found === "number"
      : typeof found === "string";
    if (!ok) {
      throw new RepoApyError(
        `The server sent ${what} without '${key}' (${type}) in ${where}: check 'host' and ` +
          `'base_path', or whether a proxy answers in the server's place`,
      );
    }
  }
  return value as T;
}
