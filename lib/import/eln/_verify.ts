// The pre-pass of an `.eln` import: every file the plan uploads is streamed once before the
// first request that creates anything, its bytes counted against the size the central directory
// declares and, where the crate declares a SHA-256, hashed; so a lying size or a wrong checksum is
// refused with nothing created. Memory stays bounded (the entry is read in chunks and dropped);
// the cost is reading every entry twice (see docs/decisions.md, ELN section).

import { type ElnArchive, entryError } from "./_archive.ts";
import type { ElnPlan } from "./plan.ts";

/**
 * Reads every planned file, checking its size (an `InputError`) and its declared SHA-256 (the
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
      signal?.throwIfAborted();
      const entry = archive.files.get(file.path)!;
      const stream = archive.stream(entry, {
        ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
        ...(signal ? { signal } : {}),
      });
      try {
        for await (const _chunk of stream) {
          // Only the hash (and the size checks) of the archive's stream matter here.
        }
      } catch (error) {
        throw entryError(entry, error, signal);
      }
      if (file.sha256 !== undefined) verified++;
    }
  }
  return verified;
}
