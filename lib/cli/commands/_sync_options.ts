// What `records sync` and `collections sync` share: their common options (the deletion guards and
// the watch flags), the parsed values both read, and the words and counts of their summaries.

import type { Command, OptionValues } from "@commander-js/extra-typings";
import type { SyncActionKind, SyncPlan, SyncResult } from "../../transfer/sync.ts";
import { parseInteger } from "../options.ts";
import { pathOption } from "./_records_common.ts";
import { parseSeconds } from "./_records_watch.ts";

/** The parsed options both sync commands have. */
export interface SyncCliOptions {
  from?: string;
  to?: string;
  delete?: true;
  yes?: true;
  maxDelete?: number;
  allowEmptySource?: true;
  backupDir?: string;
  pattern: string;
  exclude_pattern?: string;
  followSymlinks?: true;
  concurrency: number;
  json?: true;
  watch?: true;
  settle?: number;
  rescan?: number;
}

/**
 * Adds what guards `--delete`: `-y`, `--max-delete`, `--allow-empty-source` (saying what an empty
 * `source` is) and `--backup-dir`.
 */
export function deletionGuards<
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>, source: "a source" | "the source") {
  return command
    .option("-y, --yes", "Do not ask before deleting (for scripts)")
    .option(
      "--max-delete <n>",
      "With --delete: delete nothing when more than this many files would be deleted",
      (value) => parseInteger(value, { min: 0 }),
    )
    .option(
      "--allow-empty-source",
      `With --delete: delete even when ${source} has no files (by default an empty source deletes nothing)`,
    )
    .addOption(
      pathOption(
        "--backup-dir <folder>",
        "With --to: move replaced and deleted local files into this folder instead of removing them",
        { exists: false },
      ),
    );
}

/** Adds `--watch` (described by `watch`), `--settle` and `--rescan`. */
export function watchFlags<
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>, watch: string) {
  return command
    .option("--watch", watch)
    .option(
      "--settle <seconds>",
      "A file is sent once unchanged this long (default 30); without --watch: one pass",
      parseSeconds,
    )
    .option(
      "--rescan <seconds>",
      "Full rescan of the folder every so often (default 300)",
      parseSeconds,
    );
}

/** The verb of each kind of sync action in plans and summaries. */
export const SYNC_VERBS: Record<SyncActionKind, string> = {
  upload: "upload",
  download: "download",
  replace: "replace",
  delete: "delete",
  skip: "skip",
  extra: "keep",
};

/** The plan's counts with the transfers and deletions replaced by what was done. */
export function doneCounts(result: SyncResult): SyncPlan["counts"] {
  const counts = structuredClone(result.plan.counts);
  for (const kind of ["upload", "download", "replace", "delete"] as const) {
    counts[kind] = { files: 0, bytes: 0 };
  }
  for (const { action, size } of result.done) {
    counts[action].files++;
    counts[action].bytes += size;
  }
  return counts;
}
