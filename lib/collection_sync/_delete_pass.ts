// With `delete`, a collection sync deletes nothing until every record's transfers succeeded: the
// first pass syncs each record without deleting, then, only when the whole run went well, a second
// pass deletes what the source lacks, record by record (each through syncFolder() with `delete`,
// so its own rules hold too). When anything went wrong, nothing is deleted anywhere and the run
// says how many files were kept and why.

import { runPool } from "../transfer/_pool.ts";
import {
  countActions,
  type SyncAction,
  syncFolder,
  type SyncPlan,
  type SyncResult,
  type SyncTarget,
} from "../transfer/sync.ts";
import { folderOptions, messageOf, perRecordConcurrency, recordConcurrency } from "./_shared.ts";
import type { CollectionSyncOptions, CollectionSyncResult, RecordSyncOutcome } from "./types.ts";

/** A record synced by the first pass: what its deletion pass needs. */
export interface SyncedRecord {
  /** Its outcome (its `files` get the deletions). */
  outcome: RecordSyncOutcome;
  /** The record. */
  record: SyncTarget;
  /** Its folder on disk. */
  path: string;
  /** Its folder's path in the synced folder (`/`-separated), for its backup folder. */
  folder?: string;
  /** The deletions a confirmed plan allowed (file names up, local paths down), if asked. */
  allowed: Set<string> | undefined;
}

/** The first pass's plan with what the deletion pass did: its deletions and any late transfers. */
function mergePlans(first: SyncPlan, second: SyncPlan): SyncPlan {
  const deleted = new Set(
    second.actions.filter(({ action }) => action === "delete").map(({ local }) => local),
  );
  const late = second.actions.filter(({ action }) =>
    action === "upload" || action === "download" || action === "replace"
  );
  const actions: SyncAction[] = [
    ...first.actions.map((action) =>
      action.action === "extra" && deleted.has(action.local)
        ? { ...action, action: "delete" as const }
        : action
    ),
    ...late,
  ];
  return {
    ...first,
    actions,
    counts: countActions(actions),
    problems: [...first.problems, ...second.problems],
  };
}

function merge(first: SyncResult, second: SyncResult): SyncResult {
  return {
    plan: mergePlans(first.plan, second.plan),
    done: [...first.done, ...second.done],
    failed: [...first.failed, ...second.failed],
    complete: first.failed.length === 0 && second.complete,
  };
}

/**
 * The deletion pass: when the run had no problem and every record is complete, each record whose
 * first pass kept files the source lacks is synced again with `delete`; otherwise nothing is
 * deleted and a problem says how many files were kept.
 */
export async function deleteAfterAll(
  synced: readonly SyncedRecord[],
  result: CollectionSyncResult,
  options: CollectionSyncOptions,
): Promise<void> {
  if (options.delete !== true || options.dryRun === true) return;
  const pending = synced.filter(({ outcome }) => (outcome.files?.plan.counts.extra.files ?? 0) > 0);
  if (pending.length === 0) return;
  const safe = result.problems.length === 0 && result.records.every((record) => record.complete);
  const files = pending.reduce(
    (sum, { outcome }) => sum + outcome.files!.plan.counts.extra.files,
    0,
  );
  if (!safe) {
    result.problems.push({
      folder: "",
      reason:
        `${files} file(s) in ${pending.length} record(s) were not deleted, because other parts of this sync failed: fix them and run again`,
    });
    return;
  }
  if (options.maxDelete !== undefined && files > options.maxDelete) {
    result.problems.push({
      folder: "",
      reason:
        `${files} file(s) in ${pending.length} record(s) were not deleted: more than --max-delete ${options.maxDelete}; check the source, then run again with a higher limit`,
    });
    return;
  }
  const concurrency = options.concurrency ?? 16;
  const fileConcurrency = perRecordConcurrency(concurrency, pending.length);
  await runPool(
    recordConcurrency(concurrency, pending.length),
    pending,
    async ({ outcome, record, path, folder, allowed }) => {
      try {
        const second = await syncFolder(record, path, {
          direction: result.direction,
          ...folderOptions(options, fileConcurrency, true, folder),
          ...(allowed === undefined ? {} : {
            confirmDelete: (plan: SyncPlan) =>
              plan.actions.every(({ action, name, local }) =>
                action !== "delete" || allowed.has(result.direction === "up" ? name : local)
              ),
          }),
        });
        outcome.files = merge(outcome.files!, second);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        outcome.problems.push(messageOf(error));
      }
      outcome.complete = outcome.problems.length === 0 && outcome.files?.complete === true;
    },
    options.signal ? { signal: options.signal } : {},
  );
}
