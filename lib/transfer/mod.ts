/**
 * File transfers: streamed, verified and resumable uploads, downloads and exports, as standalone
 * functions over a transport plus {@linkcode RepoRecord}, which exposes them as record methods.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { RepoRecord } from "./mod.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await openResource(transport, RepoRecord, { identifier: "demo", create: true });
 * const file = await record.uploadString("hello", "hello.txt");
 * console.log(file.size); // 5
 * ```
 *
 * @module
 */

export * from "./download.ts";
export * from "./download_files.ts";
export * from "./errors.ts";
export * from "./export.ts";
export * from "./export_metadata.ts";
export * from "./progress.ts";
export * from "./collection.ts";
export * from "./record.ts";
export * from "./template.ts";
export * from "./upload.ts";
export * from "./upload_files.ts";
export * from "./sync.ts";
export { syncCollection, syncRecordFolder } from "./collection_sync/sync_collection.ts";
export type * from "./collection_sync/types.ts";
export { parseShard, type Shard } from "./collection_sync/shard.ts";
export { identifierFromFolder } from "./collection_sync/layout.ts";
export { COLLECTION_FILE, RECORD_FILE } from "./collection_sync/metadata.ts";
export {
  type WatchClock,
  type WatchEvent,
  type WatchEventBase,
  watchFolder,
  WatchLockedError,
  type WatchLockOwner,
  type WatchOptions,
  type WatchTarget,
} from "./watch.ts";
