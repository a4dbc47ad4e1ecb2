// The checksum pre-pass of an `.eln` import: every file the plan uploads and for which the crate
// declares a SHA-256 is streamed once through the hash before the first request that creates
// anything, so a wrong checksum is refused with nothing created. Memory stays bounded (the
// entry is read in chunks and dropped); the cost is reading those entries twice (see
// docs/decisions.md, ELN section).

import { type ElnArchive, entryError } from "./_archive.ts";
import type { ElnPlan } from "./plan.ts";

/**
 * Hashes every planned file with a declared SHA-256 and throws the archive's
 * `ChecksumMismatchError` (an `InputError`) at the first mismatch.
 *
 * @returns The number of files verified.
 */
export async function verifyChecksums(
  plan: ElnPlan,
  archive: ElnArchive,
  signal?: AbortSignal,
): Promise<number> {
  let verified = 0;
  for (const record of plan.records) {
    for (const file of record.files) {
      if (file.sha256 === undefined) continue;
      signal?.throwIfAborted();
      const entry = archive.files.get(file.path)!;
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
