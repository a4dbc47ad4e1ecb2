// What both directions of a collection sync share: whole listings of a collection's records and
// children, the race-safe get-or-create, the options each record's syncFolder() gets, and the
// plan of a record a dry run would create.

import { InputError } from "../errors.ts";
import { ConnectionError, RequestError } from "../http/errors.ts";
import { IncompleteListingError, paginateItems } from "../http/paginate.ts";
import { childCollectionsPath, collectionRecordsPath, recordLinksPath } from "../http/paths.ts";
import {
  type CollectionJson,
  MAX_PER_PAGE,
  type RecordJson,
  type RecordLinkJson,
  type ResourceJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { ResourceNotFoundError } from "../resources/errors.ts";
import { openResource, type Resource, type ResourceClass } from "../resources/resource.ts";
import { join } from "node:path";
import { globFilter } from "../utils/glob.ts";
import { walkTree } from "../transfer/_tree.ts";
import type { SyncAction, SyncOptions, SyncResult } from "../transfer/sync.ts";
import { RECORD_FILE } from "./metadata.ts";
import type { CollectionSyncOptions, RecordSyncOutcome } from "./types.ts";

/** Listing pages requested ahead. */
const PAGES_AHEAD = 4;

/** The record's metadata file: never a file of the record, on either side. */
export function isRecordFile(name: string): boolean {
  return name === RECORD_FILE;
}

/** An error's message. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function checkListed<J extends ResourceJson>(item: unknown, what: string): J {
  const json = item as J;
  if (
    typeof json !== "object" || json === null || typeof json.id !== "number" ||
    typeof json.identifier !== "string"
  ) {
    throw new InputError(`The server's list of ${what} holds an entry without id or identifier`);
  }
  return json;
}

async function listWhole<J extends ResourceJson>(
  transport: Transport,
  path: string,
  what: string,
  signal: AbortSignal | undefined,
): Promise<Map<string, J>> {
  const found = new Map<string, J>();
  for (const item of await readWhole(transport, path, {}, what, signal)) {
    const json = checkListed<J>(item, what);
    found.set(json.identifier, json);
  }
  return found;
}

/** Every item of a listing; a listing that is not whole throws (nothing is read as "all"). */
async function readWhole(
  transport: Transport,
  path: string,
  query: { [key: string]: string },
  what: string,
  signal: AbortSignal | undefined,
): Promise<unknown[]> {
  try {
    return await Array.fromAsync(
      paginateItems<unknown>(transport, path, { ...query, per_page: MAX_PER_PAGE }, {
        ahead: PAGES_AHEAD,
        whole: true,
        ...(signal ? { signal } : {}),
      }),
    );
  } catch (error) {
    if (!(error instanceof IncompleteListingError)) throw error;
    throw new IncompleteListingError(
      `The list of ${what} was not read whole (it changed while it was read, or the server cut it short): run the sync again; nothing was changed`,
      error,
      { cause: error },
    );
  }
}

/** Every link from a record to others; the listing must be whole. */
export async function listOutLinks(
  transport: Transport,
  recordId: number,
  signal?: AbortSignal,
): Promise<RecordLinkJson[]> {
  const items = await readWhole(
    transport,
    recordLinksPath(recordId),
    { direction: "out" },
    "the record's links",
    signal,
  );
  return items.map((item) => {
    if (
      typeof item !== "object" || item === null || typeof (item as RecordLinkJson).name !== "string"
    ) {
      throw new InputError("The server's list of the record's links holds an entry without a name");
    }
    return item as RecordLinkJson;
  });
}

/** Every record of a collection, by identifier; the listing must be whole. */
export function listMembers(
  transport: Transport,
  collectionId: number,
  signal?: AbortSignal,
): Promise<Map<string, RecordJson>> {
  return listWhole(
    transport,
    collectionRecordsPath(collectionId),
    "the collection's records",
    signal,
  );
}

/** Every child collection of a collection, by identifier; the listing must be whole. */
export function listChildren(
  transport: Transport,
  collectionId: number,
  signal?: AbortSignal,
): Promise<Map<string, CollectionJson>> {
  return listWhole(
    transport,
    childCollectionsPath(collectionId),
    "the collection's child collections",
    signal,
  );
}

/**
 * Looks a resource up by identifier, creating it with `fields` when `create` is set; `undefined`
 * when it is absent and not created. Two processes creating the same identifier at once: the
 * server refuses the second creation (the identifier is in use), and that process then reads
 * the one the other created, so nothing is created twice. Only when that look-up finds nothing is
 * the creation's error thrown.
 */
export async function openOrCreate<J extends ResourceJson, R extends Resource<J>>(
  transport: Transport,
  cls: ResourceClass<J, R>,
  identifier: string,
  fields: { [field: string]: unknown },
  create: boolean,
): Promise<R | undefined> {
  try {
    return await openResource(transport, cls, { ...fields, identifier, create });
  } catch (error) {
    if (error instanceof ResourceNotFoundError) return undefined;
    // A refused creation (400/409 "in use"; a database's unique constraint may answer 500) or a
    // lost answer: the resource may be there now, made by another process or by this request.
    if (!create || !(error instanceof RequestError || error instanceof ConnectionError)) {
      throw error;
    }
    try {
      return await openResource(transport, cls, { identifier });
    } catch (again) {
      // Not there after all: the creation failed for its own reason (e.g. an unknown license).
      if (again instanceof ResourceNotFoundError) throw error;
      throw again;
    }
  }
}

/**
 * The options each record's syncFolder() gets from the collection sync's. A run's first pass never
 * deletes (`deleting` false): deletions wait until every record's transfers succeeded (see
 * `_delete_pass.ts`); a dry run plans them at once.
 */
export function folderOptions(
  options: CollectionSyncOptions,
  concurrency: number,
  deleting = options.dryRun === true && options.delete === true,
  folder?: string,
): Omit<SyncOptions, "direction"> {
  const { backupDir } = options;
  return {
    ignore: isRecordFile,
    allowEmptySource: options.allowEmptySource,
    ...(backupDir === undefined || folder === undefined
      ? {}
      : { backupDir: join(backupDir, ...folder.split("/")) }),
    dryRun: options.dryRun === true,
    delete: deleting,
    concurrency,
    pattern: options.pattern,
    excludePattern: options.excludePattern,
    followSymlinks: options.followSymlinks,
    hashCache: options.hashCache,
    signal: options.signal,
    onWarning: options.onWarning,
  };
}

/**
 * The plan of a record a dry run would create: every file of its folder is an upload (as the
 * sync would plan them: same globs, the metadata file and the sync's own files left out).
 */
export async function uploadPlan(
  path: string,
  options: CollectionSyncOptions,
): Promise<SyncResult> {
  const wanted = globFilter(options.pattern ?? "*", options.excludePattern);
  const files = await walkTree(path, {
    wanted: (name) => wanted(name) && !isRecordFile(name),
    followSymlinks: options.followSymlinks === true,
  });
  const actions: SyncAction[] = files.map((file) => ({
    action: "upload",
    name: file.name,
    local: file.name,
    size: file.size,
  }));
  const counts = {
    upload: { files: actions.length, bytes: actions.reduce((sum, { size }) => sum + size, 0) },
    download: { files: 0, bytes: 0 },
    replace: { files: 0, bytes: 0 },
    delete: { files: 0, bytes: 0 },
    skip: { files: 0, bytes: 0 },
    extra: { files: 0, bytes: 0 },
  };
  return {
    plan: { direction: "up", actions, counts, problems: [] },
    done: [],
    failed: [],
    complete: true,
  };
}

/**
 * Files transferred at once inside each record: the run's concurrency shared over the records in
 * flight, so the requests in flight stay near `concurrency` for one big record or many small ones.
 */
export function perRecordConcurrency(concurrency: number, records: number): number {
  const parallel = Math.max(1, Math.min(concurrency, records));
  return Math.max(1, Math.ceil(concurrency / parallel));
}

/** Records synced at once. */
export function recordConcurrency(concurrency: number, records: number): number {
  return Math.max(1, Math.min(concurrency, records));
}

/** A record's outcome before anything was done for it. */
export function newOutcome(
  folder: string,
  identifier: string,
  id: number | undefined,
): RecordSyncOutcome {
  return {
    folder,
    identifier,
    id,
    created: false,
    changed: [],
    added: false,
    linked: [],
    wrote: false,
    files: undefined,
    problems: [],
    complete: false,
  };
}
