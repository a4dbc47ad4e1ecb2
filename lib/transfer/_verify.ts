/**
 * End-to-end verification of uploads: the checksum the server reports for a stored file is
 * compared with the one of the bytes that were sent, in the server's form (plain MD5 for a direct
 * upload, MD5 of the chunk MD5s plus `-<count>` for a chunked one).
 *
 * @module
 */

import { type FileJson, UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";
import { Checksum, checksumKind } from "./_chunks.ts";
import { lstatOrUndefined } from "./_paths.ts";
import { type ResolvedSource, resolveSource } from "./_source.ts";
import { InputError } from "../errors.ts";
import { UploadError } from "./errors.ts";

/** What was sent: its size and its checksum in every form the server may report. */
export interface SentData {
  /** Bytes. */
  size: number;
  /** Checksums in the server's forms (lower-case); any one of them is a match. */
  checksums: string[];
}

/**
 * Whether the server's file has the name, size and checksum of the data sent.
 *
 * @param file The file on the server.
 * @param sent Size and checksums of the data.
 * @returns True for the same content.
 */
export function sameContent(file: FileJson, sent: SentData): boolean {
  const checksum = file.checksum?.trim().toLowerCase();
  return file.size === sent.size && checksum !== undefined && checksum !== "" &&
    sent.checksums.includes(checksum);
}

/**
 * Returns the file when the server stored exactly the data sent; otherwise throws.
 *
 * @param file The file the server reported.
 * @param sent Size and checksums of the data sent.
 * @returns The file.
 * @throws {UploadError} With `mismatch` when the size or checksum differ.
 */
export function verifyUploaded(file: FileJson, sent: SentData): FileJson {
  if (sameContent(file, sent)) return file;
  const what = file.size !== sent.size
    ? `${file.size} bytes instead of ${sent.size}`
    : `checksum ${file.checksum ?? "(none)"} instead of ${sent.checksums[0]}`;
  throw new UploadError(
    `The server stored other data for '${file.name}' than was sent (${what}): the file in the record is damaged; upload it again with force to replace it`,
    {
      mismatch: { file, expectedSize: sent.size, expectedChecksums: [...sent.checksums] },
    },
  );
}

/**
 * Whether a file already in the record holds exactly the content of a local source: same size,
 * and the source's checksum in the server's form equals the file's. Reads the source once, only
 * when the sizes agree; a source that cannot be read again (a stream) or a checksum of an unknown
 * form never matches.
 *
 * @param file The file on the server.
 * @param source The local data.
 * @param signal Stops the reading (a big file takes a while): rejects with its reason.
 * @returns True for the same content.
 */
export async function holdsSource(
  file: FileJson,
  source: ResolvedSource,
  signal?: AbortSignal,
): Promise<boolean> {
  if (file.size !== source.size) return false;
  const sent = await sourceChecksums(source, file.checksum, signal);
  return sent !== undefined && sameContent(file, sent);
}

/**
 * Whether the local file at `path` holds exactly the content of the record's `file` (see
 * {@linkcode holdsSource}): a regular file (not a link) of the same size whose checksum in the
 * server's form is the file's. Uploads skip such a file; downloads find it already here.
 *
 * @param path A local path.
 * @param file The record's file.
 * @param signal Stops the reading: rejects with its reason.
 * @returns True for the same content; false for anything else, a missing path included.
 */
export async function localFileHolds(
  path: string,
  file: FileJson,
  signal?: AbortSignal,
): Promise<boolean> {
  const info = await lstatOrUndefined(path);
  if (info === undefined || !info.isFile || info.size !== file.size) return false;
  const source = await resolveSource(path);
  try {
    return await holdsSource(file, source, signal);
  } finally {
    await source.close();
  }
}

/**
 * Computes the checksum of a source in the form of an existing server checksum. Reads the whole
 * source once.
 *
 * @param source A re-readable source.
 * @param serverChecksum The checksum the server reports for its file.
 * @param signal Checked before each chunk is hashed.
 * @returns Size and checksums, or `undefined` when the server's form is unknown.
 */
async function sourceChecksums(
  source: ResolvedSource,
  serverChecksum: string | null | undefined,
  signal?: AbortSignal,
): Promise<SentData | undefined> {
  const kind = checksumKind(serverChecksum, source.size);
  if (kind === undefined || !source.rereadable) return undefined;
  const checksum = new Checksum(kind);
  for await (const chunk of source.chunks(UPLOAD_CHUNK_SIZE, () => true)) {
    try {
      signal?.throwIfAborted();
      checksum.update(chunk.bytes);
    } finally {
      chunk.release();
    }
  }
  const { size, candidates } = checksum.result();
  return { size, checksums: candidates };
}

/**
 * A lookup of the record's file of a name that answers `undefined` when there is none (or when
 * the target cannot look files up).
 *
 * @param record Anything with `getFileByName` (a record resource).
 * @returns The lookup.
 */
export function fileFinder(
  record: { getFileByName?(name: string): Promise<FileJson> },
): (name: string) => Promise<FileJson | undefined> {
  return async (name) => {
    if (record.getFileByName === undefined) return undefined;
    try {
      return await record.getFileByName(name);
    } catch (error) {
      if (error instanceof InputError) return undefined;
      throw error;
    }
  };
}
