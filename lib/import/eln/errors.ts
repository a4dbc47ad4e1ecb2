/**
 * The error of a failed `.eln` import and the progress it reports.
 *
 * @module
 */

import { InputError, RepoApyError } from "../../errors.ts";

/**
 * An import failed after it had started creating: the message names the entity that failed and
 * why, and says that what the import had created was deleted and purged (or what could not be).
 *
 * @example Usage
 * ```ts
 * import { RepoApyError } from "@repo/apy";
 * import { ElnImportError } from "@repo/apy/import";
 * import assert from "node:assert";
 *
 * const error = new ElnImportError("Importing failed at the record 'A'", {
 *   entity: "the record 'A'",
 *   leftOver: [],
 * });
 * assert.ok(error instanceof RepoApyError);
 * assert.strictEqual(error.entity, "the record 'A'");
 * // Bytes that differ from the crate's SHA-256 are a ChecksumMismatchError (an InputError),
 * // found by the check that reads the archive before anything is created.
 * ```
 */
export class ElnImportError extends RepoApyError {
  /** The entity that failed, e.g. `the file 'data/a.csv' of the record 'Sample'`. */
  readonly entity: string;
  /** Resources that could not be deleted again (normally none). */
  readonly leftOver: readonly string[];
  /** Resources deleted again but still in the trash: purging them failed (normally none). */
  readonly trashed: readonly string[];
  /** How many resources the import had created before it failed (all deleted unless `leftOver`). */
  readonly created: number;

  /**
   * Creates the error.
   *
   * @param options The failing entity, what is left over (active, or in the trash), and the cause.
   */
  constructor(
    message: string,
    options: ErrorOptions & {
      entity: string;
      leftOver: readonly string[];
      trashed?: readonly string[];
      created?: number;
    },
  ) {
    super(message, { cause: options.cause });
    this.entity = options.entity;
    this.leftOver = options.leftOver;
    this.trashed = options.trashed ?? [];
    this.created = options.created ?? 0;
  }
}

/** Progress of an import, reported after each step and while a file is sent. */
export interface ElnProgress {
  /** What was just done: the collection or a record created, file bytes sent, a link created. */
  phase: "collection" | "record" | "file" | "link";
  /** Title, file name or link name of the entity. */
  name: string;
  /** Records created so far. */
  records: number;
  /** Files uploaded so far. */
  files: number;
  /** Bytes of files uploaded so far (including the file being sent). */
  bytes: number;
  /** Links created so far. */
  links: number;
  /** What the whole import creates. */
  totals: { records: number; files: number; bytes: number; links: number };
}

/**
 * The bytes of a file in the archive differ from the SHA-256 the crate declares for them
 * ({@linkcode ElnImportError} shows the import's errors).
 */
export class ChecksumMismatchError extends InputError {}
