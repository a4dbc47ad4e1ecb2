/**
 * Errors of file transfers: a failed upload ({@linkcode UploadError}) and a download whose data
 * does not match what the server announced ({@linkcode IntegrityError}). Both derive from
 * {@linkcode RepoApyError}.
 *
 * @example Usage
 * ```ts
 * import { UploadError } from "./errors.ts";
 * import { RepoApyError } from "../http/errors.ts";
 * const error = new UploadError("The merge failed: upload the file again", { task: { state: "failure", error: "disk full" } });
 * console.log(error instanceof RepoApyError, error.task?.error); // true "disk full"
 * ```
 *
 * @module
 */

import { RepoApyError } from "../http/errors.ts";
import type { UploadJson, UploadTaskJson } from "../http/protocol.ts";

/** Data an {@linkcode UploadError} carries. */
export interface UploadErrorInit extends ErrorOptions {
  /** The server-side upload, when one was created. */
  upload?: UploadJson;
  /** The merge task's state, when the upload was finished. */
  task?: UploadTaskJson;
  /** Whether running the same upload again continues where this one stopped. */
  resumable?: boolean;
}

/** An upload failed after the server had accepted it: sending data, finishing or merging. */
export class UploadError extends RepoApyError {
  /** The server-side upload, when one was created. */
  readonly upload: UploadJson | undefined;
  /** The merge task's state, when the upload was finished. */
  readonly task: UploadTaskJson | undefined;
  /** Whether the server kept the upload so the same upload, run again, resumes it. */
  readonly resumable: boolean;

  /**
   * Creates the error.
   *
   * @param message What went wrong and what to do.
   * @param init The upload, the task, whether it is resumable, and the `cause`.
   */
  constructor(message: string, init: UploadErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.upload = init.upload;
    this.task = init.task;
    this.resumable = init.resumable ?? false;
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

/** Downloaded data does not match the size or checksum the server announced; nothing was kept. */
export class IntegrityError extends RepoApyError {
  /** Where the data was to be written. */
  readonly path: string;
  /** Expected and actual size and checksum. */
  readonly facts: IntegrityFacts;

  /**
   * Creates the error.
   *
   * @param path Where the data was to be written.
   * @param facts Expected and actual size and checksum.
   */
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
 */
export class IncompleteDownloadError extends RepoApyError {
  /** The partial files kept, one per interrupted file. */
  readonly partials: PartialFile[];

  /**
   * Creates the error.
   *
   * @param partials The partial files kept.
   * @param cause Why the download stopped.
   */
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
