// One file of a record to disk: the target is resolved (server names sanitised, clashes renamed)
// and the data saved verified and resumable. Shared by downloadFile() and downloadFiles().

import type { FileJson } from "../http/protocol.ts";
import { fileDownloadPath } from "../http/paths.ts";
import type { PartListings } from "./_parts.ts";
import { checkFile } from "./_answers.ts";
import { freePath, plainTarget, presentPath } from "./_paths.ts";
import { localFileHolds } from "./_verify.ts";
import { writingFile } from "./_local_file.ts";
import { saveResponse } from "./_save.ts";
import type { ProgressCallback } from "./progress.ts";
import type { TransferTarget } from "./upload.ts";

/** How one file is saved. */
export interface SaveFileOptions {
  /** Target file, or a directory (ending in a separator, or existing). */
  path: string;
  /** Subfolder of the directory (the record identifier). */
  folder?: string | undefined;
  force?: boolean | undefined;
  keepPartial?: boolean | undefined;
  onProgress?: ProgressCallback | undefined;
  onWarning?: ((message: string) => void) | undefined;
  signal?: AbortSignal | undefined;
  /** Paths claimed by other files of the same operation. */
  claimed?: Set<string> | undefined;
  partListings?: PartListings | undefined;
  /**
   * Runs right before the temporary file is opened (`open`) and again right before it is renamed
   * onto the target (`place`): a sync checks the target's folders there; throwing stops the file.
   */
  guard?: ((stage: "open" | "place") => void | Promise<void>) | undefined;
  /**
   * Called instead of downloading when a local file already holds the file (same size and
   * checksum), under the target's name or a numbered one an earlier run chose.
   */
  onPresent?: ((path: string) => void) | undefined;
}

/**
 * Saves `file` of `record`, verified against its size and checksum. A local file that already
 * holds it (same size and checksum, at the target or, without `force`, a numbered name of it) is
 * kept as it is and nothing is downloaded: running the same download again fetches nothing twice
 * and duplicates nothing.
 *
 * @param record The record.
 * @param file The file's metadata.
 * @param options Target and policies.
 * @returns The path written (or found holding the file).
 */
export async function saveFile(
  record: TransferTarget,
  file: FileJson,
  options: SaveFileOptions,
): Promise<string> {
  checkFile(file, `the files of record ${record.id}`);
  const claimed = options.claimed ?? new Set<string>();
  const plain = await plainTarget(options.path, file.name, {
    folder: options.folder,
    onWarning: options.onWarning,
  });
  const present = await presentPath(
    plain,
    claimed,
    (path) => localFileHolds(path, file, options.signal),
    options.force === true,
  );
  if (present !== undefined) {
    options.onPresent?.(present);
    return present;
  }
  // With force an existing file is overwritten, but never one this operation claimed already.
  const target = await freePath(plain, claimed, options.force === true);
  const link = file._links?.download ?? fileDownloadPath(record.id, file.id);
  const guard = options.guard;
  await guard?.("open");
  return await writingFile(target, () =>
    saveResponse(record.transport, link, target, {
      beforePlace: guard && (() => guard("place")),
      size: file.size,
      checksum: file.checksum,
      resumeKey: `${file.id}\n${file.size}\n${file.checksum ?? ""}`,
      keepPartial: options.keepPartial,
      force: options.force,
      claimed,
      partListings: options.partListings,
      onProgress: options.onProgress,
      signal: options.signal,
    }));
}
