/**
 * Errors of file transfers: a failed upload ({@linkcode UploadError}) and a download whose data
 * does not match what the server announced ({@linkcode IntegrityError}). Both derive from
 * {@linkcode RepoApyError}.
 *
 * @module
 */

import { RepoApyError } from "../errors.ts";
import type { FileJson, UploadJson, UploadTaskJson } from "../http/protocol.ts";

/** What the server stored, compared with what was sent (an upload that failed verification). */
export interface UploadMismatch {
  /** The file as the server stored it. */
  file: FileJson;
  /** Bytes sent. */
  expectedSize: number;
  /** Checksums of the bytes sent, in the server's form (any one of them is a match). */
  expectedChecksums: string[];
}

/** What an interrupted or failed chunked upload left on the server for resuming. */
export interface UploadLeft {
  /** Id of the upload on the server. */
  uploadId: string;
  /** Chunks the server holds. */
  chunks: number;
  /** Chunks the upload consists of. */
  chunkCount: number;
  /** Bytes the server holds. */
  bytes: number;
}

/** Data an {@linkcode UploadError} carries. */
export interface UploadErrorInit extends ErrorOptions {
  /** The server-side upload, when one was created. */
  upload?: UploadJson;
  /** The merge task's state, when the upload was finished. */
  task?: UploadTaskJson;
  /** Whether running the same upload again continues where this one stopped. */
  resumable?: boolean;
  /** The server stored other bytes than were sent. */
  mismatch?: UploadMismatch;
  /** What is left on the server for resuming. */
  left?: UploadLeft;
  /** The upload was cancelled through its signal (the reason is the `cause`). */
  aborted?: boolean;
}

/**
 * An upload failed after the server had accepted it: sending data, finishing or merging.
 *
 * @example The transfer errors
 * ```ts
 * import {
 *   FilesExistError,
 *   IncompleteDownloadError,
 *   IntegrityError,
 *   LocalFileError,
 *   RepoManager,
 *   UploadError,
 *   UploadFilesError,
 * } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "a");
 * await record.uploadFiles(dir);
 * await Deno.writeTextFile(`${dir}/a.txt`, "b"); // other content under the same name
 * // Refused before anything is sent: FilesExistError names the files (`force` replaces them).
 * await assert.rejects(
 *   record.uploadFiles(dir),
 *   (error) => error instanceof FilesExistError && error.names[0] === "a.txt",
 * );
 * await Deno.remove(dir, { recursive: true });
 * // The others say what was left where: UploadError (`resumable`, `left` on the server),
 * // UploadFilesError (`done` before the file at `path` failed), IntegrityError (the data differs
 * // from what the server announced; nothing kept), IncompleteDownloadError (`partials` kept for
 * // resuming), LocalFileError (the file system refused `path`).
 * ```
 */
export class UploadError extends RepoApyError {
  /** The server-side upload, when one was created. */
  readonly upload: UploadJson | undefined;
  /** The merge task's state, when the upload was finished. */
  readonly task: UploadTaskJson | undefined;
  /** Whether the server kept the upload so the same upload, run again, resumes it. */
  readonly resumable: boolean;
  /** Set when the server stored other bytes than were sent: its file and the expected checksum. */
  readonly mismatch: UploadMismatch | undefined;
  /** What the server keeps for resuming (a chunked upload that stopped before it was finished). */
  readonly left: UploadLeft | undefined;
  /** Whether the upload stopped because its signal was aborted (the reason is the `cause`). */
  readonly aborted: boolean;

  /** Creates the error. */
  constructor(message: string, init: UploadErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.upload = init.upload;
    this.task = init.task;
    this.resumable = init.resumable ?? false;
    this.mismatch = init.mismatch;
    this.left = init.left;
    this.aborted = init.aborted ?? false;
  }
}

/**
 * Files of a multi-file upload already exist in the record (and `force` is off); nothing was
 * uploaded. `names` lists them. {@linkcode UploadError} shows the transfer errors.
 */
export class FilesExistError extends RepoApyError {
  /** Names of the files that exist already. */
  readonly names: string[];

  /** Creates the error. */
  constructor(names: string[], message: string) {
    super(message);
    this.names = names;
  }
}

/** What a multi-file upload did before it stopped. */
export interface UploadFilesDone {
  /** Files uploaded (created or replaced). */
  uploaded: FileJson[];
  /** Files left out because the record already had them with the same content. */
  skipped: FileJson[];
}

/**
 * A multi-file upload stopped: `done` lists what was uploaded or skipped before, `path` names the
 * file that failed, and the `cause` is its error. Running it again with `skipExisting` continues.
 * {@linkcode UploadError} shows the transfer errors.
 */
export class UploadFilesError extends RepoApyError {
  /** What was uploaded or skipped before the failure. */
  readonly done: UploadFilesDone;
  /** The local file whose upload failed (none when it was cancelled between files). */
  readonly path: string | undefined;

  /** Creates the error. */
  constructor(message: string, path: string | undefined, done: UploadFilesDone, cause: unknown) {
    super(message, { cause });
    this.path = path;
    this.done = done;
  }
}

/** What a download was expected to be, and what arrived. */
export interface IntegrityFacts {
  /** Size announced by the server. */
  expectedSize?: number | undefined;
  /** Checksum announced by the server. */
  expectedChecksum?: string | null | undefined;
  /** Bytes received. */
  size: number;
  /** Checksum of the bytes received, in the server's form. */
  checksum?: string | undefined;
}

/**
 * Downloaded data does not match the size or checksum the server announced; nothing was kept.
 * {@linkcode UploadError} shows the transfer errors.
 */
export class IntegrityError extends RepoApyError {
  /** Where the data was to be written. */
  readonly path: string;
  /** Expected and actual size and checksum. */
  readonly facts: IntegrityFacts;

  /** Creates the error. */
  constructor(path: string, facts: IntegrityFacts) {
    const what = facts.expectedSize !== undefined && facts.expectedSize !== facts.size
      ? `expected ${facts.expectedSize} bytes, got ${facts.size}`
      : `expected checksum ${facts.expectedChecksum}, got ${facts.checksum}`;
    super(
      `The download to '${path}' is incomplete or corrupt (${what}); nothing was written: try again`,
    );
    this.path = path;
    this.facts = facts;
  }
}

/** A partial file a download left behind for resuming. */
export interface PartialFile {
  /** Where the data was to be written. */
  path: string;
  /** The temporary file holding the data received so far. */
  partPath: string;
  /** Bytes received so far. */
  bytes: number;
  /** The file's size, when known. */
  total: number | undefined;
}

/**
 * A download stopped early (aborted, or the connection broke) and its partial data was kept
 * (option `keepPartial`): the same download, run again, resumes it. The original failure is the
 * `cause`.
 * {@linkcode UploadError} shows the transfer errors.
 */
export class IncompleteDownloadError extends RepoApyError {
  /** The partial files kept, one per interrupted file. */
  readonly partials: PartialFile[];

  /** Creates the error. */
  constructor(partials: PartialFile[], cause: unknown) {
    const what = partials.length === 1
      ? `'${partials[0]!.partPath}'`
      : `${partials.length} partial files`;
    super(
      `The download stopped early; the data received so far was kept in ${what}: run the same ` +
        `download again to resume it`,
      { cause },
    );
    this.partials = partials;
  }
}

/**
 * The file system refused a local file of a transfer (no permission, a missing folder, a file
 * where a folder should be). `path` is the file the caller asked for (a download's target, never
 * its temporary `.part` file); the OS error is the `cause`.
 * {@linkcode UploadError} shows the transfer errors.
 */
export class LocalFileError extends RepoApyError {
  /** The local file the operation was writing or reading, as the caller named it. */
  readonly path: string;

  /** Creates the error. */
  constructor(path: string, cause: Error) {
    super(`Cannot write or read the file '${path}': ${cause.message}`, { cause });
    this.path = path;
  }
}
