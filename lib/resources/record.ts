/**
 * Records: metadata, tags, links, roles, revisions and file information. File transfers
 * (upload, download, export) are added on top by `lib/transfer` in {@linkcode RepoRecord}.
 *
 * @module
 */

import type { RecordJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { lookup, Resource, type ResourceSelector } from "./resource.ts";

/** A record on the server, without file transfers. */
export class RecordResource extends Resource<RecordJson> {
  /**
   * Wraps a record whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Record id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(transport: Transport, id: number, init: { meta?: RecordJson; created?: boolean } = {}) {
    super(transport, "record", id, init);
  }

  /**
   * Looks a record up by id or identifier, creating it when `create` is set.
   *
   * @example Usage
   * ```ts ignore
   * const record = await RecordResource.load(transport, { identifier: "x", create: true });
   * ```
   *
   * @param transport The transport.
   * @param selector `{ id }` or `{ identifier, create?, ...metadata }`.
   * @returns The record, as an instance of the class it is called on.
   */
  static async load<T extends RecordResource>(
    this: new (transport: Transport, id: number, init: { meta: RecordJson; created: boolean }) => T,
    transport: Transport,
    selector: ResourceSelector,
  ): Promise<T> {
    const { meta, created } = await lookup<RecordJson>(transport, "record", selector);
    return new this(transport, meta.id, { meta, created });
  }
}
