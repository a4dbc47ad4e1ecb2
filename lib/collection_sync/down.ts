// Collection → folder (`collections sync --to`): one folder per record, named by its identifier,
// with its files (syncFolder()) and a `.record.json`; the collection's `.collection.json`; a
// child collection as a folder with the same layout. A file is written only when its text
// changes, so a second run writes nothing.

import { dirname, join } from "node:path";
import { InputError, RepoApyError } from "../errors.ts";
import { ResourceNotFoundError } from "../resources/errors.ts";
import type { CollectionJson, RecordJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { openResource } from "../resources/resource.ts";
import { safeFileName } from "../utils/file_name.ts";
import { writeAtomic } from "../transfer/_atomic_file.ts";
import { RepoCollection } from "../model/collection.ts";
import { runPool } from "../transfer/_pool.ts";
import { RepoRecord } from "../model/record.ts";
import { checkBackupDir, syncFolder } from "../transfer/sync.ts";
import { deleteAfterAll, type SyncedRecord } from "./_delete_pass.ts";
import {
  COLLECTION_FILE,
  collectionFileText,
  isIdentifier,
  MAX_METADATA_FILE_BYTES,
  RECORD_FILE,
  recordFileText,
  type RecordLinkSpec,
} from "./metadata.ts";
import { inShard } from "./shard.ts";
import {
  folderOptions,
  listChildren,
  listMembers,
  listOutLinks,
  messageOf,
  newOutcome,
  perRecordConcurrency,
  recordConcurrency,
} from "./_shared.ts";
import type {
  CollectionSelector,
  CollectionSyncOptions,
  CollectionSyncOutcome,
  CollectionSyncResult,
  RecordSyncOutcome,
} from "./types.ts";
import type { AllowedDeletions } from "./up.ts";

interface DownTask {
  json: RecordJson;
  path: string;
  folder: string;
}

interface DownRun {
  transport: Transport;
  options: CollectionSyncOptions;
  dry: boolean;
  result: CollectionSyncResult;
  tasks: DownTask[];
  /** Records the first pass synced, for the deletion pass. */
  synced: SyncedRecord[];
}

function joinFolder(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

/**
 * Whether a server identifier can be a folder's name as it is: an identifier (`a-z`, `0-9`, `-`,
 * `_`) that this system's naming rules leave unchanged (`con` is no folder on Windows).
 */
function folderNameOf(identifier: unknown): string | undefined {
  return isIdentifier(identifier) && safeFileName(identifier) === identifier
    ? identifier
    : undefined;
}

/**
 * Writes `text` to `path` only when the file holds another text (atomically: a reader never
 * sees half of it); returns whether it was (or, for a dry run, would be) written.
 */
async function writeIfChanged(path: string, text: string, dry: boolean): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    if (
      info.isFile && info.size <= MAX_METADATA_FILE_BYTES && await Deno.readTextFile(path) === text
    ) {
      return false;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (dry) return true;
  await Deno.mkdir(dirname(path), { recursive: true });
  await writeAtomic(path, ReadableStream.from([new TextEncoder().encode(text)]), { replace: true });
  return true;
}

/** Makes the folder like the collection (tree) on the server. */
export async function syncDown(
  transport: Transport,
  selector: CollectionSelector,
  dir: string,
  options: CollectionSyncOptions,
  allowed?: AllowedDeletions,
): Promise<CollectionSyncResult> {
  const dry = options.dryRun === true;
  if (options.backupDir !== undefined) await checkBackupDir(dir, options.backupDir);
  const collection = await openResource(transport, RepoCollection, selector).catch((error) => {
    if (!(error instanceof ResourceNotFoundError)) throw error;
    throw new InputError(
      `There is no collection '${error.identifier}' to sync down: check its identifier, or make it from a folder with --from (direction up)`,
      { cause: error },
    );
  });
  const result: CollectionSyncResult = {
    direction: "down",
    dryRun: dry,
    collections: [],
    records: [],
    problems: [],
    warnings: [],
    complete: false,
  };
  const run: DownRun = { transport, options, dry, result, tasks: [], synced: [] };
  await visitCollection(run, await collection.meta(), dir, "");
  const concurrency = options.concurrency ?? 16;
  const fileConcurrency = perRecordConcurrency(concurrency, run.tasks.length);
  await runPool(
    recordConcurrency(concurrency, run.tasks.length),
    run.tasks,
    async (task) => {
      const outcome = await syncRecordDown(run, task, fileConcurrency, allowed?.get(task.folder));
      result.records.push(outcome);
      options.onRecord?.(outcome);
    },
    options.signal ? { signal: options.signal } : {},
  );
  result.records.sort((a, b) => a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0);
  await deleteAfterAll(run.synced, result, options);
  result.complete = result.problems.length === 0 && result.records.every((r) => r.complete);
  return result;
}

function warn(run: DownRun, message: string): void {
  run.result.warnings.push(message);
  run.options.onWarning?.(message);
}

/** Writes a collection's `.collection.json`, lists its records and children, and walks on. */
async function visitCollection(
  run: DownRun,
  meta: CollectionJson,
  path: string,
  folder: string,
): Promise<void> {
  const { transport, options } = run;
  const outcome: CollectionSyncOutcome = {
    folder,
    identifier: meta.identifier,
    id: meta.id,
    created: false,
    changed: [],
    attached: false,
    removed: [],
    wrote: false,
  };
  run.result.collections.push(outcome);
  const members = await listMembers(transport, meta.id, options.signal);
  const children = await listChildren(transport, meta.id, options.signal);
  outcome.wrote = await writeIfChanged(
    join(path, COLLECTION_FILE),
    collectionFileText(meta),
    run.dry,
  );
  // Each name is one folder: a record and a child collection of one identifier cannot share it.
  const claimed = new Set<string>();
  const sorted = <T extends { identifier: string }>(items: Iterable<T>) =>
    [...items].sort((a, b) => a.identifier < b.identifier ? -1 : 1);
  for (const record of sorted(members.values())) {
    const name = folderNameOf(record.identifier);
    if (name === undefined) {
      run.result.problems.push({
        folder,
        reason:
          `the record id ${record.id} has the identifier '${record.identifier}', which cannot be a folder's name here: not synced (change its identifier on the server)`,
      });
      continue;
    }
    claimed.add(name);
    const child = joinFolder(folder, name);
    if (inShard(child, options.shard)) {
      run.tasks.push({ json: record, path: join(path, name), folder: child });
    }
  }
  for (const child of sorted(children.values())) {
    const name = folderNameOf(child.identifier);
    if (name === undefined || claimed.has(name)) {
      run.result.problems.push({
        folder,
        reason: `the child collection '${child.identifier}' cannot have a folder of its own here (${
          name === undefined ? "not a valid folder name" : "a record has that identifier too"
        }): not synced`,
      });
      continue;
    }
    claimed.add(name);
    await visitCollection(run, child, join(path, name), joinFolder(folder, name));
  }
  await warnUnclaimed(run, path, folder, claimed);
}

/** Local folders no record or child collection has: kept, and named. */
async function warnUnclaimed(
  run: DownRun,
  path: string,
  folder: string,
  claimed: Set<string>,
): Promise<void> {
  try {
    for await (const entry of Deno.readDir(path)) {
      if (entry.name.startsWith(".") || !entry.isDirectory || claimed.has(entry.name)) continue;
      warn(
        run,
        `Kept '${
          joinFolder(folder, entry.name)
        }': no record or child collection of the collection has this name (it is never deleted)`,
      );
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Writes a record's `.record.json` and syncs its files into its folder. */
async function syncRecordDown(
  run: DownRun,
  task: DownTask,
  concurrency: number,
  allowed: Set<string> | undefined,
): Promise<RecordSyncOutcome> {
  const { transport, options } = run;
  const outcome = newOutcome(task.folder, task.json.identifier, task.json.id);
  try {
    // A listing without extras is not the whole record: it is read again.
    const record = new RepoRecord(
      transport,
      task.json.id,
      task.json.extras === undefined ? {} : { meta: task.json },
    );
    const meta = await record.meta();
    const links: RecordLinkSpec[] = [];
    for (const link of await listOutLinks(transport, record.id, options.signal)) {
      const to = link.record_to?.identifier;
      if (!isIdentifier(to)) {
        throw new RepoApyError(`the link '${link.name}' names no record by a valid identifier`);
      }
      links.push({ name: link.name, term: link.term ?? null, to });
    }
    links.sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0
    );
    outcome.wrote = await writeIfChanged(
      join(task.path, RECORD_FILE),
      recordFileText(meta, links),
      run.dry,
    );
    outcome.files = await syncFolder(record, task.path, {
      direction: "down",
      ...folderOptions(options, concurrency, undefined, task.folder),
    });
    run.synced.push({ outcome, record, path: task.path, folder: task.folder, allowed });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    outcome.problems.push(messageOf(error));
  }
  outcome.complete = outcome.problems.length === 0 && outcome.files?.complete === true;
  return outcome;
}
