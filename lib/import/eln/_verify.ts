// The pre-pass of an `.eln` import: every compressed file the plan uploads, and every file for
// which the crate declares a SHA-256, is read once before the first request that creates
// anything, its bytes counted against the size the central directory declares and hashed where a
// SHA-256 is declared; so a lying size or a wrong checksum is refused with nothing created. A
// stored file without a SHA-256 is not read: its data is its declared size (checked on the
// directory). Memory stays bounded (an entry is read in chunks and dropped); the cost is reading
// those entries twice (see docs/perf/eln.md).

import { type ElnArchive, entryError } from "./_archive.ts";
import type { ElnPlan } from "./plan.ts";

/**
 * Reads every planned compressed file or file with a SHA-256, checking its size (an `InputError`) and its declared SHA-256 (the
 * archive's `ChecksumMismatchError`, an `InputError`); throws at the first that fails.
 *
 * @returns The number of files whose SHA-256 was verified.
 */
export async function verifyChecksums(
  plan: ElnPlan,
  archive: ElnArchive,
  signal?: AbortSignal,
): Promise<number> {
  let verified = 0;
  for (const record of plan.records) {
    for (const file of record.files) {
      const entry = archive.files.get(file.path)!;
      if (file.sha256 === undefined) {
        if (!entry.stored) await archive.checkSize(entry, signal);
        continue;
      }
      signal?.throwIfAborted();
      const stream = archive.stream(entry, { sha256: file.sha256, ...(signal ? { signal } : {}) });
      try {
        for await (const _chunk of stream) {
          // Only the hash (and the size checks) of the archive's stream matter here.
        }
      } catch (error) {
        throw entryError(entry, error, signal);
      }
      verified++;
    }
  }
  return verified;
}
