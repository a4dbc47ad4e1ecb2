/**
 * The transfer engine: streamed, verified and resumable uploads, downloads, exports and the sync
 * of a folder with a record, as standalone functions over a transport. The record class that
 * exposes them as methods, with one example per capability, is in `lib/model/`.
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
