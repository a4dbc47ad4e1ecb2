/**
 * The classes of the model: {@linkcode RepoRecord} (the record class), {@linkcode RepoCollection}
 * and {@linkcode RepoTemplate}. Each method is one line over a capability (`lib/resources/`) or a
 * transfer function (`lib/transfer/`); the manager (`lib/manager/`) hands them out.
 *
 * @module
 */

export * from "./collection.ts";
export * from "./record.ts";
export * from "./template.ts";
