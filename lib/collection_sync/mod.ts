/**
 * Collection sync: a folder of record folders kept in step with a collection, in one direction per
 * run, on top of the record sync of the transfer engine (`syncFolder()`).
 *
 * @example Usage
 * ```ts
 * import { parseShard } from "./mod.ts";
 * console.log(parseShard("2/5")); // { index: 2, count: 5 }
 * ```
 *
 * @module
 */

export { syncCollection, syncRecordFolder } from "./sync_collection.ts";
export type * from "./types.ts";
export { parseShard, type Shard } from "./shard.ts";
export { identifierFromFolder } from "./layout.ts";
export { COLLECTION_FILE, RECORD_FILE } from "./metadata.ts";
export { type CollectionWatchOptions, watchCollection } from "./watch.ts";
