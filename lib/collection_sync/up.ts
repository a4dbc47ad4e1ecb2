// Folder → collection (`collections sync --from`): the collection tree and its records are
// looked up or created, metadata that differs is changed, records are put into their collection,
// links named in `.record.json` are made, and each record's files are synced by syncFolder().

import { RequestError } from "../http/errors.ts";
import type { RecordJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { openResource } from "../resources/resource.ts";
import { RepoCollection } from "../model/collection.ts";
import { runPool } from "../transfer/_pool.ts";
import { RepoRecord } from "../model/record.ts";
import { syncFolder } from "../transfer/sync.ts";
import { deleteAfterAll, type SyncedRecord } from "./_delete_pass.ts";
import { RepoTemplate } from "../model/template.ts";
import {
  allRecords,
  type CollectionFolder,
  type CollectionLayout,
  readLayout,
  type RecordFolder,
} from "./layout.ts";
import { collectionChanges, recordChanges } from "./metadata.ts";
import { inShard } from "./shard.ts";
import { checkTemplateExtras, templateExtras } from "./template_check.ts";
import {
  folderOptions,
  listChildren,
  listMembers,
  listOutLinks,
  messageOf,
  newOutcome,
  openOrCreate,
  perRecordConcurrency,
  recordConcurrency,
  uploadPlan,
} from "./_shared.ts";
import type {
  CollectionSelector,
  CollectionSyncOptions,
  CollectionSyncOutcome,
  CollectionSyncProblem,
  CollectionSyncResult,
  RecordSyncOutcome,
} from "./types.ts";

/** Which record deletions a confirmed plan allowed, by record folder. */
export type AllowedDeletions = Map<string, Set<string>>;

/** One collection of the tree while syncing upward. */
interface Level {
  folder: CollectionFolder;
  /** `undefined` when a dry run would create it. */
  collection: RepoCollection | undefined;
  /** Its records on the server, by identifier. */
  members: Map<string, RecordJson>;
  /** Its child collections on the server, by identifier. */
  children: Set<string>;
  outcome: CollectionSyncOutcome;
}

interface UpRun {
  transport: Transport;
  options: CollectionSyncOptions;
  dry: boolean;
  result: CollectionSyncResult;
  /** Every record folder of the layout, by identifier (link targets are made from them). */
  folders: Map<string, RecordFolder>;
  /** Records listed in the collections, by identifier. */
  known: Map<string, RecordJson>;
  /** Records opened or being created, by identifier: a run never creates one twice. */
  opening: Map<string, Promise<RepoRecord | undefined>>;
  fileConcurrency: number;
  allowed: AllowedDeletions | undefined;
  /** Records the first pass synced, for the deletion pass. */
  synced: SyncedRecord[];
  /** No files are synced (see {@linkcode UpOptions}). */
  metadataOnly: boolean;
}

/** Internal options of {@linkcode syncUp}. */
export interface UpOptions {
  /** Sync only the record of this folder (a watcher's event); nothing leaves the collection. */
  only?: string | undefined;
  /** The deletions a confirmed planning pass listed. */
  allowed?: AllowedDeletions | undefined;
  /**
   * Records, metadata, membership and links only, no files (a watcher sends the files itself,
   * each once it has settled); a record is complete without its files.
   */
  metadataOnly?: boolean | undefined;
}

function joinFolder(parent: string, name: string): string {
  return parent === "" ? name : `${parent}/${name}`;
}

/** Makes the collection (tree) on the server like the folder. */
export async function syncUp(
  transport: Transport,
  selector: CollectionSelector,
  dir: string,
  options: CollectionSyncOptions,
  internal: UpOptions = {},
): Promise<CollectionSyncResult> {
  const dry = options.dryRun === true;
  const layout = await readLayout(dir, { followSymlinks: options.followSymlinks === true });
  const result: CollectionSyncResult = {
    direction: "up",
    dryRun: dry,
    collections: [],
    records: [],
    problems: [...layout.problems],
    warnings: [...layout.warnings],
    complete: false,
  };
  for (const warning of layout.warnings) options.onWarning?.(warning);
  const records = allRecords(layout.root);
  const run: UpRun = {
    transport,
    options,
    dry,
    result,
    folders: new Map(records.map((record) => [record.identifier, record])),
    known: new Map(),
    opening: new Map(),
    fileConcurrency: 1,
    allowed: internal.allowed,
    synced: [],
    metadataOnly: internal.metadataOnly === true,
  };
  if (options.template !== undefined) {
    const problems = await templateProblems(run, layout);
    if (problems.length > 0) {
      result.problems.push(...problems);
      return result;
    }
  }
  const levels: Level[] = [];
  await openLevel(run, layout.root, selector, undefined, levels);
  const tasks = levels.flatMap((level) =>
    level.folder.records
      .filter((record) =>
        internal.only === undefined
          ? inShard(record.folder, options.shard)
          : record.folder === internal.only
      )
      .map((record) => ({ level, record }))
  );
  const concurrency = options.concurrency ?? 16;
  run.fileConcurrency = perRecordConcurrency(concurrency, tasks.length);
  await runPool(
    recordConcurrency(concurrency, tasks.length),
    tasks,
    async ({ level, record }) => {
      const outcome = await syncRecordUp(run, level, record);
      result.records.push(outcome);
      options.onRecord?.(outcome);
    },
    options.signal ? { signal: options.signal } : {},
  );
  result.records.sort((a, b) => a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0);
  await deleteAfterAll(run.synced, result, options);
  if (options.delete === true && internal.only === undefined) await removeGone(run, levels);
  result.complete = result.problems.length === 0 && result.records.every((r) => r.complete);
  return result;
}

/** Every record's extras checked against the template's: all problems, folder and key named. */
async function templateProblems(
  run: UpRun,
  layout: CollectionLayout,
): Promise<CollectionSyncProblem[]> {
  const template = await openResource(run.transport, RepoTemplate, {
    identifier: run.options.template!,
  });
  const extras = templateExtras(await template.meta());
  return allRecords(layout.root).flatMap((record) =>
    checkTemplateExtras(record.metadata.extras ?? [], extras).map((problem) => ({
      folder: record.folder,
      key: problem.key,
      reason: `extra '${problem.key}' ${problem.reason} (template '${run.options.template}')`,
    }))
  );
}

/** Opens or creates one collection of the tree, changes what differs, and lists its contents. */
async function openLevel(
  run: UpRun,
  folder: CollectionFolder,
  selector: CollectionSelector | undefined,
  parent: Level | undefined,
  levels: Level[],
): Promise<void> {
  const { transport, dry } = run;
  const identifier = selector === undefined
    ? folder.identifier!
    : "identifier" in selector
    ? selector.identifier.trim().toLowerCase()
    : String(selector.id);
  const { identifier: _, ...metadata } = folder.metadata;
  const fields = folder.title === undefined ? metadata : { ...metadata, title: folder.title };
  const collection = selector !== undefined && "id" in selector
    ? await openResource(transport, RepoCollection, { id: selector.id })
    : await openOrCreate(transport, RepoCollection, identifier, fields, !dry);
  const meta = await collection?.meta();
  const outcome: CollectionSyncOutcome = {
    folder: folder.folder,
    identifier: meta?.identifier ?? identifier,
    id: collection?.id,
    created: collection === undefined || collection.created,
    changed: [],
    attached: false,
    removed: [],
    wrote: false,
  };
  run.result.collections.push(outcome);
  if (collection !== undefined && meta !== undefined) {
    const changes = collectionChanges(metadata, meta);
    outcome.changed = Object.keys(changes);
    if (outcome.changed.length > 0 && !dry) await collection.edit(changes);
  }
  if (parent !== undefined && !parent.children.has(outcome.identifier)) {
    await attach(run, folder, parent, collection, outcome);
  }
  const signal = run.options.signal;
  const members = collection === undefined
    ? new Map<string, RecordJson>()
    : await listMembers(transport, collection.id, signal);
  for (const member of members.values()) run.known.set(member.identifier, member);
  const children = collection === undefined || folder.children.length === 0
    ? new Set<string>()
    : new Set((await listChildren(transport, collection.id, signal)).keys());
  const level: Level = { folder, collection, members, children, outcome };
  levels.push(level);
  for (const child of folder.children) {
    try {
      await openLevel(run, child, undefined, level, levels);
    } catch (error) {
      if (signal?.aborted) throw error;
      run.result.problems.push({ folder: child.folder, reason: messageOf(error) });
    }
  }
}

/**
 * Makes the collection a child of its parent level's (only counted in a dry run). One that
 * another shard attached meanwhile counts as attached; one with another parent is a problem.
 */
async function attach(
  run: UpRun,
  folder: CollectionFolder,
  parent: Level,
  collection: RepoCollection | undefined,
  outcome: CollectionSyncOutcome,
): Promise<void> {
  outcome.attached = true;
  if (run.dry || parent.collection === undefined || collection === undefined) return;
  try {
    await parent.collection.addCollectionLink(collection.id);
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 409) throw error;
    outcome.attached = false;
    // Attached meanwhile (another shard did it): the goal holds.
    const now = await listChildren(run.transport, parent.collection.id, run.options.signal);
    if (now.has(outcome.identifier)) {
      parent.children.add(outcome.identifier);
    } else {
      run.result.problems.push({
        folder: folder.folder,
        reason:
          `the collection '${outcome.identifier}' cannot become a child of '${parent.outcome.identifier}': it already has another parent collection (a collection has one); remove it there first`,
      });
    }
  }
}

/** What a record is created with: the metadata of its folder, without its links. */
function creationFields(folder: RecordFolder): { [field: string]: unknown } {
  const { identifier: _identifier, links: _links, ...fields } = folder.metadata;
  return { ...fields, title: folder.title };
}

/**
 * The record of an identifier: listed, looked up, or created from its folder (once per run, and
 * race-safe between processes); `undefined` when it is absent and not created (a dry run, or a
 * link target outside the folder).
 */
function openRecord(run: UpRun, identifier: string): Promise<RepoRecord | undefined> {
  let opening = run.opening.get(identifier);
  if (opening === undefined) {
    const known = run.known.get(identifier);
    const folder = run.folders.get(identifier);
    opening = known !== undefined
      // A listing without extras is not the whole record: it is read again when needed.
      ? Promise.resolve(
        new RepoRecord(run.transport, known.id, known.extras === undefined ? {} : { meta: known }),
      )
      : openOrCreate(
        run.transport,
        RepoRecord,
        identifier,
        folder === undefined ? {} : creationFields(folder),
        !run.dry && folder !== undefined,
      );
    run.opening.set(identifier, opening);
  }
  return opening;
}

/** Syncs one record folder: record, metadata, membership, files, links. */
async function syncRecordUp(
  run: UpRun,
  level: Level,
  folder: RecordFolder,
): Promise<RecordSyncOutcome> {
  const { options, dry } = run;
  const outcome = newOutcome(folder.folder, folder.identifier, undefined);
  try {
    const record = await openRecord(run, folder.identifier);
    if (record === undefined) {
      // A dry run: the record would be created with its folder's metadata and every file.
      outcome.created = true;
      outcome.added = true;
      outcome.files = await uploadPlan(folder.path, options);
      outcome.linked = (folder.metadata.links ?? []).map((link) => `${link.name} → ${link.to}`);
    } else {
      outcome.id = record.id;
      outcome.created = record.created;
      const changes = recordChanges(folder.metadata, await record.meta());
      outcome.changed = Object.keys(changes);
      if (outcome.changed.length > 0 && !dry) await record.edit(changes);
      if (!level.members.has(folder.identifier)) {
        outcome.added = true;
        if (!dry) await addToCollection(level.collection!, record.id);
      }
      if (!run.metadataOnly) {
        outcome.files = await syncFolder(record, folder.path, {
          direction: "up",
          ...folderOptions(options, run.fileConcurrency),
        });
        run.synced.push({
          outcome,
          record,
          path: folder.path,
          allowed: run.allowed?.get(folder.folder),
        });
      }
      outcome.linked = await makeLinks(run, record, folder, outcome);
    }
  } catch (error) {
    if (options.signal?.aborted) throw error;
    outcome.problems.push(messageOf(error));
  }
  outcome.complete = outcome.problems.length === 0 &&
    (run.metadataOnly || outcome.files?.complete === true);
  return outcome;
}

async function addToCollection(collection: RepoCollection, recordId: number): Promise<void> {
  try {
    await collection.addRecordLink(recordId);
  } catch (error) {
    // Already there (added meanwhile, e.g. by another shard's link target): the goal holds.
    if (!(error instanceof RequestError) || error.status !== 409) throw error;
  }
}

/** Makes the links of `.record.json` the record lacks; returns them as `name → identifier`. */
async function makeLinks(
  run: UpRun,
  record: RepoRecord,
  folder: RecordFolder,
  outcome: RecordSyncOutcome,
): Promise<string[]> {
  const wanted = folder.metadata.links ?? [];
  if (wanted.length === 0) return [];
  const existing = new Set(
    (await listOutLinks(run.transport, record.id, run.options.signal)).map((link) =>
      `${link.name}\n${link.record_to?.identifier}`
    ),
  );
  const made: string[] = [];
  for (const link of wanted) {
    if (existing.has(`${link.name}\n${link.to}`)) continue;
    const label = `${link.name} → ${link.to}`;
    if (link.to === folder.identifier) {
      outcome.problems.push(`link '${label}': a record cannot link to itself; remove it`);
      continue;
    }
    const target = await openRecord(run, link.to);
    if (target === undefined) {
      if (run.dry && run.folders.has(link.to)) made.push(label);
      else {
        const warning =
          `Link '${label}' of '${folder.folder}' not made: no record '${link.to}' in the folder or on the server`;
        run.result.warnings.push(warning);
        run.options.onWarning?.(warning);
      }
      continue;
    }
    if (!run.dry) {
      try {
        await record.linkRecord(target.id, link.name, { termIri: link.term });
      } catch (error) {
        if (!(error instanceof RequestError) || error.status !== 409) throw error;
      }
    }
    existing.add(`${link.name}\n${link.to}`);
    made.push(label);
  }
  return made;
}

/**
 * With `delete`: records of a collection whose folder is gone leave the collection (they are
 * never deleted), only when everything else of the run succeeded.
 */
async function removeGone(run: UpRun, levels: Level[]): Promise<void> {
  const { result, options } = run;
  const safe = result.problems.length === 0 && result.records.every((record) => record.complete);
  for (const level of levels) {
    const present = new Set(level.folder.records.map((record) => record.identifier));
    const gone = [...level.members.values()].filter((member) =>
      !present.has(member.identifier) &&
      inShard(joinFolder(level.folder.folder, member.identifier), options.shard)
    );
    if (gone.length === 0 || level.collection === undefined) continue;
    if (present.size === 0 && options.allowEmptySource !== true) {
      result.problems.push({
        folder: level.folder.folder,
        reason:
          `${gone.length} record(s) were not removed from the collection '${level.outcome.identifier}': its folder holds no record folders (an unmounted drive or share looks empty); give --allow-empty-source if that is meant`,
      });
      continue;
    }
    if (!safe) {
      result.problems.push({
        folder: level.folder.folder,
        reason:
          `${gone.length} record(s) whose folder is gone were not removed from the collection '${level.outcome.identifier}', because other parts of this sync failed: fix them and run again`,
      });
      continue;
    }
    for (const member of gone) {
      if (!run.dry) await level.collection.removeRecordLink(member.id);
      level.outcome.removed.push(member.identifier);
    }
  }
}
