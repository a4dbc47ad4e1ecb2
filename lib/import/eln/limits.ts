/**
 * The limits an `.eln` archive must keep before anything is imported from it.
 *
 * @module
 */

/** Bounds checked on the archive's central directory and again while its entries are read. */
export interface ElnLimits {
  /** Largest sum of the entries' decompressed sizes, in bytes. @default {1099511627776} (1 TiB) */
  maxTotalBytes: number;
  /** Largest decompressed size of one entry, in bytes. @default {274877906944} (256 GiB) */
  maxEntryBytes: number;
  /**
   * Largest ratio of decompressed to compressed size of an entry, checked for entries larger
   * than `ratioFloorBytes`. @default {200}
   */
  maxRatio: number;
  /** Entries up to this decompressed size are not checked for their ratio. @default {1048576} */
  ratioFloorBytes: number;
  /** Largest `ro-crate-metadata.json` (and repository JSON export), in bytes. @default {33554432} */
  maxMetadataBytes: number;
  /** Most entries in the archive. @default {100000} */
  maxEntries: number;
  /** Most path segments of an entry name (the root folder included). @default {32} */
  maxDepth: number;
}

/**
 * The default limits: generous for real crates (a 2 GB data file is fine), tight enough that a
 * zip bomb or an oversized metadata file is refused before anything is created.
 */
export const DEFAULT_ELN_LIMITS: Readonly<ElnLimits> = Object.freeze({
  maxTotalBytes: 2 ** 40,
  maxEntryBytes: 2 ** 38,
  maxRatio: 200,
  ratioFloorBytes: 2 ** 20,
  maxMetadataBytes: 32 * 2 ** 20,
  maxEntries: 100_000,
  maxDepth: 32,
});
