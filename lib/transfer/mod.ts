/**
 * The transfer engine: streamed, verified and resumable uploads, downloads, exports and the sync
 * of a folder with a record, as standalone functions over a transport. The record class that
 * exposes them as methods is in `lib/model/`.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { RepoRecord } from "../model/mod.ts";
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
export * from "./upload.ts";
export * from "./upload_files.ts";
export * from "./sync.ts";
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
