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
import type { ElnPlan, ElnPlannedRecord } from "./plan.ts";
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

export async function executePlan(
  transport: Transport,
  plan: ElnPlan,
  archive: ElnArchive,
  options: {
    signal?: AbortSignal | undefined;
    onProgress?: ((p: ElnProgress) => void) | undefined;
    concurrency: number;
  },
): Promise<ElnExecution> {
  const { signal, onProgress, concurrency } = options;
  const created: { delete(): Promise<void>; purge(): Promise<void>; toString(): string }[] = [];
  const done = { records: 0, files: 0, bytes: 0, links: 0 };
  const report = (phase: ElnProgress["phase"], name: string, fileBytes = 0) =>
    onProgress?.({
      phase,
      name,
      records: done.records,
      files: done.files,
      bytes: done.bytes + fileBytes,
      links: done.links,
      totals: plan.totals,
    });
  let entity = "the collection";
  try {
    let collection: RepoCollection | undefined;
    if (plan.collection !== undefined) {
      entity = `the collection '${plan.collection.title}'`;
      signal?.throwIfAborted();
      const { title, description } = plan.collection;
      collection = await createUnique(
        title,
        "collection",
        (identifier) =>
          openResource(transport, RepoCollection, { identifier, create: true, title, description }),
      );
      created.push(collection);
      report("collection", title);
    }
    const records = new Map<string, RepoRecord>();
    const result: ElnCreated[] = [];
    for (const planned of plan.records) {
      entity = `the record '${planned.title}'`;
      signal?.throwIfAborted();
      const record = await createRecord(transport, planned);
      created.push(record);
      records.set(planned.key, record);
      const meta = await record.meta();
      result.push({
        key: planned.key,
        id: record.id,
        identifier: meta.identifier,
        title: meta.title,
      });
      if (collection !== undefined) await collection.addRecordLink(record.id);
      done.records++;
      report("record", planned.title);
      for (const file of planned.files) {
        entity = `the file '${file.path}' of the record '${planned.title}'`;
        const source = archive.stream(archive.files.get(file.path)!, {
          ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
          ...(signal ? { signal } : {}),
        });
        await record.uploadFile(source, {
          fileName: file.name,
          size: file.size,
          resume: false,
          concurrency,
          // No MIME type: the server detects it from the name and content, as the Python client
          // lets it. A crate's `encodingFormat` is often an alias (`image/x-png`) or generic
          // (`application/octet-stream`), and searches by type would miss the file.
          ...(file.description !== undefined ? { fileDescription: file.description } : {}),
          ...(signal ? { signal } : {}),
          ...(onProgress ? { onProgress: (p) => report("file", file.name, p.bytes) } : {}),
        });
        done.files++;
        done.bytes += file.size;
        report("file", file.name);
      }
    }
    for (const link of plan.links) {
      const from = records.get(link.from);
      const to = records.get(link.to);
      if (from === undefined || to === undefined) continue;
      entity = `the link '${link.name}' from '${link.from}' to '${link.to}'`;
      signal?.throwIfAborted();
      await from.linkRecord(to.id, link.name, { termIri: link.term });
      done.links++;
      report("link", link.name);
    }
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
    throw new ElnImportError(`Importing failed at ${entity}: ${reason}. ${cleanup}`, {
      cause: error,
      entity,
      leftOver: left,
      trashed,
      created: created.length,
    });
  }
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
