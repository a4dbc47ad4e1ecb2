// Carrying out an import plan through the library: collection, records (free identifiers from
// their titles), files streamed from the archive (SHA-256 verified on the way), collection
// membership, links. On any failure (an interrupt too) what this run created is deleted again and
// purged from the trash: it is the run's own, seconds old, and a rerun gets the same identifiers
// only when the trash does not hold them. The error names the entity that failed and why.

import type { Transport } from "../../http/transport.ts";
import { RepoCollection } from "../../model/collection.ts";
import { RepoRecord } from "../../model/record.ts";
import { createUnique } from "../_unique.ts";
import type { ElnArchive } from "./_archive.ts";
import { ElnImportError, type ElnProgress } from "./errors.ts";
import type { ElnPlan, ElnPlannedFile, ElnPlannedRecord } from "./plan.ts";
import { openResource } from "../../resources/resource.ts";

/** A created resource of an import: its crate key, id, identifier and title. */
export interface ElnCreated {
  /** The crate's `@id` of the dataset (`./` for a record of loose files). */
  key: string;
  /** Id on the server. */
  id: number;
  /** Identifier on the server. */
  identifier: string;
  /** Title. */
  title: string;
}

/** What an import created. */
export interface ElnExecution {
  collection: ElnCreated | undefined;
  records: ElnCreated[];
}

/** One import run: the plan, the archive, and what it created and counted so far. */
interface ImportRun {
  readonly transport: Transport;
  readonly plan: ElnPlan;
  readonly archive: ElnArchive;
  readonly options: ExecuteOptions;
  /** What this run created, in order (deleted again on a failure). */
  readonly created: Deletable[];
  /** Counts of what is done, for progress. */
  readonly done: { records: number; files: number; bytes: number; links: number };
  /** The records created, by crate key. */
  readonly records: Map<string, RepoRecord>;
  /** What the error names when a step fails: the entity being created. */
  entity: string;
}

interface ExecuteOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((p: ElnProgress) => void) | undefined;
  concurrency: number;
}

interface Deletable {
  delete(): Promise<void>;
  purge(): Promise<void>;
  toString(): string;
}

export async function executePlan(
  transport: Transport,
  plan: ElnPlan,
  archive: ElnArchive,
  options: ExecuteOptions,
): Promise<ElnExecution> {
  const run: ImportRun = {
    transport,
    plan,
    archive,
    options,
    created: [],
    done: { records: 0, files: 0, bytes: 0, links: 0 },
    records: new Map(),
    entity: "the collection",
  };
  try {
    const collection = await createCollection(run);
    const result: ElnCreated[] = [];
    for (const planned of plan.records) result.push(await importRecord(run, planned, collection));
    await linkRecords(run);
    const collectionMeta = collection === undefined ? undefined : await collection.meta();
    return {
      collection: collectionMeta === undefined ? undefined : {
        key: "./",
        id: collectionMeta.id,
        identifier: collectionMeta.identifier,
        title: collectionMeta.title,
      },
      records: result,
    };
  } catch (error) {
    throw await rollBack(run, error);
  }
}

function report(run: ImportRun, phase: ElnProgress["phase"], name: string, fileBytes = 0) {
  const { done } = run;
  run.options.onProgress?.({
    phase,
    name,
    records: done.records,
    files: done.files,
    bytes: done.bytes + fileBytes,
    links: done.links,
    totals: run.plan.totals,
  });
}

/** Creates the plan's collection, if it has one, under a free identifier. */
async function createCollection(run: ImportRun): Promise<RepoCollection | undefined> {
  if (run.plan.collection === undefined) return undefined;
  const { title, description } = run.plan.collection;
  run.entity = `the collection '${title}'`;
  run.options.signal?.throwIfAborted();
  const collection = await createUnique(
    title,
    "collection",
    (identifier) =>
      openResource(run.transport, RepoCollection, { identifier, create: true, title, description }),
  );
  run.created.push(collection);
  report(run, "collection", title);
  return collection;
}

/** Creates a planned record, adds it to the collection, and uploads its files. */
async function importRecord(
  run: ImportRun,
  planned: ElnPlannedRecord,
  collection: RepoCollection | undefined,
): Promise<ElnCreated> {
  run.entity = `the record '${planned.title}'`;
  run.options.signal?.throwIfAborted();
  const record = await createRecord(run.transport, planned);
  run.created.push(record);
  run.records.set(planned.key, record);
  const meta = await record.meta();
  if (collection !== undefined) await collection.addRecordLink(record.id);
  run.done.records++;
  report(run, "record", planned.title);
  for (const file of planned.files) await uploadPlanned(run, record, planned, file);
  return { key: planned.key, id: record.id, identifier: meta.identifier, title: meta.title };
}

/** Streams a file from the archive into the record (its SHA-256 verified on the way). */
async function uploadPlanned(
  run: ImportRun,
  record: RepoRecord,
  planned: ElnPlannedRecord,
  file: ElnPlannedFile,
): Promise<void> {
  const { signal, onProgress, concurrency } = run.options;
  run.entity = `the file '${file.path}' of the record '${planned.title}'`;
  const source = run.archive.stream(run.archive.files.get(file.path)!, {
    ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
    ...(signal ? { signal } : {}),
  });
  await record.uploadFile(source, {
    fileName: file.name,
    size: file.size,
    resume: false,
    concurrency,
    // No MIME type: the server detects it from the name and content, as the Python client lets
    // it. A crate's `encodingFormat` is often an alias (`image/x-png`) or generic
    // (`application/octet-stream`), and searches by type would miss the file.
    ...(file.description !== undefined ? { fileDescription: file.description } : {}),
    ...(signal ? { signal } : {}),
    ...(onProgress ? { onProgress: (p) => report(run, "file", file.name, p.bytes) } : {}),
  });
  run.done.files++;
  run.done.bytes += file.size;
  report(run, "file", file.name);
}

/** Links the records as the plan says (links between records of the import only). */
async function linkRecords(run: ImportRun): Promise<void> {
  for (const link of run.plan.links) {
    const from = run.records.get(link.from);
    const to = run.records.get(link.to);
    if (from === undefined || to === undefined) continue;
    run.entity = `the link '${link.name}' from '${link.from}' to '${link.to}'`;
    run.options.signal?.throwIfAborted();
    await from.linkRecord(to.id, link.name, { termIri: link.term });
    run.done.links++;
    report(run, "link", link.name);
  }
}

/**
 * Deletes and purges what the run created, newest first, and returns the error that names the
 * failed entity, the reason and what is left.
 */
async function rollBack(run: ImportRun, error: unknown): Promise<ElnImportError> {
  const { created, entity } = run;
  const left: string[] = [];
  const trashed: string[] = [];
  for (const resource of created.reverse()) {
    const name = resource.toString();
    try {
      await resource.delete();
    } catch {
      left.push(name);
      continue;
    }
    await resource.purge().catch(() => trashed.push(name));
  }
  const reason = error instanceof Error ? error.message : String(error);
  const cleanup = created.length === 0
    ? "Nothing was created"
    : left.length > 0
    ? `Could not delete again: ${left.join(", ")}`
    : trashed.length > 0
    ? `What this import had created was deleted; in the trash still (purging failed): ${
      trashed.join(", ")
    }`
    : `What this import had created (${created.length} resource(s)) was deleted for good`;
  return new ElnImportError(`Importing failed at ${entity}: ${reason}. ${cleanup}`, {
    cause: error,
    entity,
    leftOver: left,
    trashed,
    created: created.length,
  });
}

function createRecord(transport: Transport, planned: ElnPlannedRecord): Promise<RepoRecord> {
  const { title, description, tags, extras } = planned;
  return createUnique(title, "record", (identifier) =>
    openResource(transport, RepoRecord, {
      identifier,
      create: true,
      title,
      description,
      tags,
      ...(extras.length > 0 ? { extras } : {}),
      ...(planned.license !== undefined ? { license: planned.license } : {}),
      ...(planned.type !== undefined ? { type: planned.type } : {}),
    }));
}
