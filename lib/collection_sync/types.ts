/**
 * The options and results of {@linkcode syncCollection} (in `sync_collection.ts`).
 *
 * @module
 */

import type { Transport } from "../http/transport.ts";
import type { SyncDirection, SyncResult } from "../transfer/sync.ts";
import type { Shard } from "./shard.ts";

/** What a collection sync talks through: a `RepoManager` (or anything holding a transport). */
export interface SyncConnection {
  /** The transport requests go through. */
  readonly transport: Transport;
}

/** The collection a sync works on: by id (it must exist) or identifier (created upward). */
export type CollectionSelector = { id: number } | { identifier: string };

/** Options of {@linkcode syncCollection}. */
export interface CollectionSyncOptions {
  /** `up`: folder → collection (`--from`); `down`: collection → folder (`--to`). */
  direction: SyncDirection;
  /** Only plan: nothing is created, changed, transferred, written or deleted. */
  dryRun?: boolean | undefined;
  /**
   * Inside each record, remove what the source lacks from the target side (as `records sync
   * --delete`); upward, records whose folder is gone leave the collection (never deleted).
   */
  delete?: boolean | undefined;
  /**
   * With `delete`: delete even when a record's source has no files, and take records out of a
   * collection whose folder holds no record folders (an unmounted share looks empty, so by default
   * an empty source deletes and removes nothing).
   */
  allowEmptySource?: boolean | undefined;
  /** With `delete`: when more files than this would be deleted over the run, delete none. */
  maxDelete?: number | undefined;
  /**
   * Downward only: replaced and deleted local files are moved into this folder, under each
   * record's folder path, instead of being removed. It must not overlap the synced folder.
   */
  backupDir?: string | undefined;
  /** Only file names (relative paths in each record) matching this glob. @default {"*"} */
  pattern?: string | undefined;
  /** Leave out file names matching this glob. */
  excludePattern?: string | undefined;
  /** Follow symbolic links (upward). */
  followSymlinks?: boolean | undefined;
  /** Requests in flight at once, over records and their files. @default {16} */
  concurrency?: number | undefined;
  /**
   * Identifier of a template whose extras every record's extras must fit (upward); checked for
   * all records before anything is sent: when any record fails, nothing is created or sent.
   */
  template?: string | undefined;
  /** Only the records of this shard (by a stable hash of their folder's path). */
  shard?: Shard | undefined;
  /** Keep local checksums in each record folder's sync cache. @default {true} */
  hashCache?: boolean | undefined;
  /** Cancels the run; a rerun continues it. */
  signal?: AbortSignal | undefined;
  /** Called when a record is done (or failed), in the order they finish. */
  onRecord?: ((outcome: RecordSyncOutcome) => void) | undefined;
  /** Receives warnings (entries left out, links not made). */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * Asked once, after a planning pass and before anything changes, when the run deletes files;
   * false stops the sync with nothing changed.
   */
  confirmDelete?: ((deletions: CollectionDeleteSummary) => boolean | Promise<boolean>) | undefined;
}

/** The file deletions a run would make, over all its records. */
export interface CollectionDeleteSummary {
  /** Files to delete. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Records (folders) they are in. */
  records: number;
  /** The direction (`up`: record files, which cannot be restored; `down`: local files). */
  direction: SyncDirection;
}

/** What a sync did (or, for a dry run, would do) with one record. */
export interface RecordSyncOutcome {
  /** The record's folder, relative to the collection folder (`sample-1`, `campaign/sample-1`). */
  folder: string;
  /** The record's identifier. */
  identifier: string;
  /** Its id; `undefined` when a dry run would create it. */
  id: number | undefined;
  /** Whether the record was (would be) created. */
  created: boolean;
  /** Metadata fields changed (upward). */
  changed: string[];
  /** Whether it was (would be) added to its collection. */
  added: boolean;
  /** Links made (upward), as `name → identifier`. */
  linked: string[];
  /** Whether its `.record.json` was (would be) written (downward). */
  wrote: boolean;
  /** The sync of its files (a dry run's holds only the plan). */
  files: SyncResult | undefined;
  /** What went wrong with this record, in the user's terms. */
  problems: string[];
  /** Whether it is now as its source says. */
  complete: boolean;
}

/** What a sync did with one collection of the tree (the root, or a child collection). */
export interface CollectionSyncOutcome {
  /** Its folder, relative to the collection folder (`""` for the root). */
  folder: string;
  /** Its identifier. */
  identifier: string;
  /** Its id; `undefined` when a dry run would create it. */
  id: number | undefined;
  /** Whether it was (would be) created. */
  created: boolean;
  /** Metadata fields changed (upward). */
  changed: string[];
  /** Whether it was (would be) made a child of its parent. */
  attached: boolean;
  /** Identifiers of records removed (to be removed) from it (upward, with `delete`). */
  removed: string[];
  /** Whether its `.collection.json` was (would be) written (downward). */
  wrote: boolean;
}

/** A part of the run that could not be done, and why. */
export interface CollectionSyncProblem {
  /** The folder it concerns, relative to the collection folder (`""`: the collection's). */
  folder: string;
  /** The metadata key it concerns (template checks), dotted. */
  key?: string;
  /** Why, in the user's terms, and what to do. */
  reason: string;
}

/** What {@linkcode syncCollection} returns. */
export interface CollectionSyncResult {
  /** The direction. */
  direction: SyncDirection;
  /** Whether it was a dry run. */
  dryRun: boolean;
  /** Each collection of the tree, the root first. */
  collections: CollectionSyncOutcome[];
  /** Each record of this run (of its shard), in folder order. */
  records: RecordSyncOutcome[];
  /** Folders and steps that could not be synced (their records were not touched). */
  problems: CollectionSyncProblem[];
  /** Entries left out on purpose and links not made. */
  warnings: string[];
  /** Whether everything of this run is now as its source says: no problem, every record complete. */
  complete: boolean;
}
