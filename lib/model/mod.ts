/**
 * The classes of the model: {@linkcode RepoRecord} (the record class), {@linkcode RepoCollection}
 * and {@linkcode RepoTemplate}. Each method is one line over a capability (`lib/resources/`) or a
 * transfer function (`lib/transfer/`); the manager (`lib/manager/`) hands them out.
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { RepoCollection, RepoRecord } from "./mod.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const record = await openResource(transport, RepoRecord, { identifier: "demo", create: true });
 * const collection = await openResource(transport, RepoCollection, { identifier: "set", create: true });
 * await collection.addRecordLink(record.id);
 * console.log((await record.uploadString("hello", "hello.txt")).size); // 5
 * ```
 *
 * @module
 */

export * from "./collection.ts";
export * from "./record.ts";
export * from "./template.ts";
