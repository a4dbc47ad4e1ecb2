/**
 * `@repo/apy/sync`: folders kept in step with the repository. {@linkcode syncFolder} makes a
 * folder and a record alike in one direction, {@linkcode syncCollection} a folder of record folders
 * and a collection tree; {@linkcode watchFolder} and {@linkcode watchCollection} keep a folder
 * flowing into a record or a collection as its files settle (the instrument PC's uploader).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { syncFolder } from "@repo/apy/sync";
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/run1.csv`, "t,v\n0,1\n");
 * const { done } = await syncFolder(record, dir, { direction: "up" });
 * console.log(done.map((action) => action.name)); // ["run1.csv"]
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

export {
  type SyncAction,
  type SyncActionKind,
  type SyncCount,
  type SyncDirection,
  type SyncFailure,
  syncFolder,
  type SyncOptions,
  type SyncPlan,
  type SyncProblem,
  type SyncProgress,
  type SyncResult,
  type SyncTarget,
} from "../transfer/sync.ts";
export {
  type WatchClock,
  type WatchEvent,
  type WatchEventBase,
  watchFolder,
  WatchLockedError,
  type WatchLockOwner,
  type WatchOptions,
  type WatchTarget,
} from "../transfer/watch.ts";
export { syncCollection, syncRecordFolder } from "./sync_collection.ts";
export type {
  CollectionDeleteSummary,
  CollectionSelector,
  CollectionSyncOptions,
  CollectionSyncOutcome,
  CollectionSyncProblem,
  CollectionSyncResult,
  RecordSyncOutcome,
  SyncConnection,
} from "./types.ts";
export { parseShard, type Shard } from "./shard.ts";
export { COLLECTION_FILE, RECORD_FILE } from "./metadata.ts";
export { type CollectionWatchOptions, watchCollection } from "./watch.ts";
