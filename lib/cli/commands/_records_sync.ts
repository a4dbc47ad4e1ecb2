// `records sync`: keeps a folder and a record's files identical, one direction per run. The
// library's syncFolder() does the work; this file turns options into its call, asks before
// deleting, and prints the plan or the result.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RepoApyError } from "../../errors.ts";
import type {
  SyncAction,
  SyncActionKind,
  SyncPlan,
  SyncProgress,
  SyncResult,
} from "../../transfer/sync.ts";
import { apyCommand, dryRunOption, isDryRun } from "../apy_command.ts";
import { contextOf } from "../_context.ts";
import { confirmDeletion } from "./_confirm.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import type { RepoRecord } from "../../model/record.ts";
import { parseInteger } from "../options.ts";
import { formatBytes } from "../output.ts";
import {
  describe,
  type FilesProgress,
  filesProgress,
  openRecord,
  pathOption,
  recordOptions,
  syncDirection,
} from "./_records_common.ts";
import { isWatch, runWatch, WATCH_HELP } from "./_records_watch.ts";
import {
  deletionGuards,
  doneCounts,
  SYNC_VERBS,
  type SyncCliOptions,
  watchFlags,
} from "./_sync_options.ts";

const HELP = `
One direction per run: --from DIR makes the record's files like the folder's, --to DIR makes the
folder like the record's files. A file changed on both sides since the last sync cannot be told
apart without state, so nothing is merged: the source side wins.

Files are equal when their relative path (the name in the record, e.g. raw/run1.h5), size and
checksum (the server's MD5, or its chunk-MD5 composite for large uploads) agree. Equal files are
not transferred; changed ones are replaced (an uploaded replacement keeps the file's id,
description and revisions); new ones are transferred. Local checksums are cached in the user's
cache folder (~/.cache/repo-apy/sync on Linux, by path, size and modification time), never in the
synced folder, so a re-sync of an unchanged folder reads no file.

--delete removes what the source lacks from the other side, and only when the run saw both
sides whole: a record listing that fails or is not complete stops the sync before anything
changes, and any problem (a local entry that cannot be read, a special file, a name that cannot
exist on the other side or that the server would store differently, a file where the other side
has a folder) or failed transfer holds back every deletion. A source without files deletes
nothing (an unmounted drive looks empty) unless --allow-empty-source is given; --max-delete N
deletes nothing when more than N files would go; with --to, --backup-dir DIR moves replaced and
deleted local files there instead of removing them. Record files deleted CANNOT be restored. On a
terminal you are asked once with the count; scripts pass -y/--yes.

An interrupted sync continues when the same command runs again. Exit code 0 only when the
target side holds every source file at the end; otherwise the problems and failures are listed
and it is 1.

Examples:
  repo-apy records sync -R sample-17 --from data/              # upload new and changed files
  repo-apy records sync -R sample-17 --to data/ --dry-run      # what a download would do
  repo-apy records sync -R sample-17 --from data/ --delete -y  # mirror, deleting record files
  repo-apy records sync -R sample-17 --to out/ -p 'raw/*' --json
`;

/** `records sync`: folder → record (`--from`) or record → folder (`--to`). */
export function syncCommand(): CommandUnknownOpts {
  const command = recordOptions(
    watchFlags(
      deletionGuards(
        new Command("sync")
          .description(
            "Keep a folder and a record's files identical, in one direction (--from or --to)",
          )
          .addOption(
            pathOption("--from <folder>", "Make the record's files like this folder's (upload)")
              .conflicts("to"),
          )
          .addOption(
            pathOption("--to <folder>", "Make this folder like the record's files (download)"),
          )
          .option(
            "--delete",
            "Remove what the source lacks from the other side (record files cannot be restored)",
          ),
        "the source",
      )
        .option("-p, --pattern <pattern>", "Only paths matching this pattern, on both sides", "*")
        .option("-e, --exclude_pattern <pattern>", "Leave out paths matching this pattern")
        .option("--follow-symlinks", "Follow symbolic links in the folder (with --from)")
        .option(
          "--concurrency <n>",
          "Small files transferred at once",
          (value) => parseInteger(value, { min: 1 }),
          16,
        )
        .addOption(new Option("--json", "Print the plan or the result as JSON on stdout")),
      "Keep running: send new and changed files once they settle (with --from; never deletes)",
    ),
  );
  dryRunOption(command);
  command.addHelpText("after", HELP + WATCH_HELP);
  apyCommand(command, (manager, options) => syncRecordFolder(manager, options, command));
  return command;
}

/** The options of `records sync`. */
type RecordsSyncOptions = SyncCliOptions;

/**
 * `records sync`: `--watch` hands over to the watcher; else one sync of the folder and the
 * record with a progress bar, then the plan (`--dry-run`) or the result, and exit 1 when the job
 * is not finished.
 */
async function syncRecordFolder(
  manager: CLIRepoManager,
  options: RecordsSyncOptions,
  command: CommandUnknownOpts,
): Promise<void> {
  const { direction, dir } = syncDirection(options);
  if (isWatch(options)) {
    return await runWatch(
      manager,
      options,
      isDryRun(manager),
      () => openRecord(manager, options),
    );
  }
  const record = await openRecord(manager, options);
  await record.meta();
  const result = await syncWithProgress(manager, record, options, { direction, dir }, command);
  reportSync(manager, result, options.json === true);
}

/** Syncs the folder and the record once, with one bar; `--delete` asks first unless `-y`. */
async function syncWithProgress(
  manager: CLIRepoManager,
  record: RepoRecord,
  options: RecordsSyncOptions,
  { direction, dir }: { direction: "up" | "down"; dir: string },
  command: CommandUnknownOpts,
): Promise<SyncResult> {
  const { syncFolder } = await import("../../transfer/sync.ts");
  const input = contextOf(command).input;
  const progress = syncProgress(manager);
  try {
    return await syncFolder(record, dir, {
      direction,
      dryRun: isDryRun(manager),
      delete: options.delete === true,
      pattern: options.pattern,
      excludePattern: options.exclude_pattern,
      followSymlinks: options.followSymlinks,
      maxDelete: options.maxDelete,
      allowEmptySource: options.allowEmptySource,
      backupDir: options.backupDir,
      concurrency: options.concurrency,
      signal: manager.signal,
      onWarning: (message) => manager.output.warning(message),
      onProgress: progress.onProgress,
      onAction: (action, error) => {
        // One short line per file done, above the bar; failures are listed at the end.
        if (error === undefined) manager.output.fileLine(doneLine(action));
      },
      confirmDelete: async (plan) => {
        if (options.yes === true) return true;
        const { files, bytes } = plan.counts.delete;
        const what = `${files} file(s) (${formatBytes(bytes)}) ${
          direction === "up" ? `of the ${describe(record)}` : `in '${dir}'`
        }`;
        return await confirmDeletion(manager, input, what, direction === "up");
      },
    });
  } finally {
    progress.done();
  }
}

/** Prints the plan (`--dry-run`) or the result; a job left unfinished is an error (exit 1). */
function reportSync(manager: CLIRepoManager, result: SyncResult, json: boolean): void {
  const dry = isDryRun(manager);
  if (dry) printPlan(manager, result.plan, json);
  else printResult(manager, result, json);
  const problems = result.plan.problems.length + result.failed.length;
  if (!result.complete) {
    throw new RepoApyError(
      problems === 0
        ? "The deletions would be held back (see above): the run would not finish the job"
        : `${problems} file(s) could not be synced${
          dry ? "" : " (listed above)"
        }: fix the cause and run the same command again to continue`,
    );
  }
}

/**
 * The one aggregate bar of a sync (`n/N files`, bytes of the total, rate, ETA), drawn from the
 * engine's running totals once the transfers start (after planning and any --delete question).
 */
function syncProgress(manager: CLIRepoManager) {
  let bar: FilesProgress | undefined;
  let files = 0;
  return {
    onProgress(progress: SyncProgress): void {
      bar ??= filesProgress(manager.output, "Syncing", {
        bytes: progress.totalBytes,
        files: progress.totalFiles,
      });
      // The engine sums over files; resumed bytes (already there) go to the bar but not to the
      // rate, so they are fed as their own key and the rest as another.
      bar.onProgress("resumed", { bytes: progress.resumed, resumed: progress.resumed });
      bar.onProgress("sent", { bytes: progress.bytes - progress.resumed });
      for (; files < progress.files; files++) bar.fileDone();
    },
    done: () => bar?.done(),
  };
}

/** `Uploaded 'raw/run1.h5' (4.1 kB)`: one file of the sync done. */
function doneLine(action: SyncAction): string {
  const verb = {
    upload: "Uploaded",
    download: "Downloaded",
    replace: "Replaced",
    delete: "Deleted",
  }[action.action as "upload"] ?? "Skipped";
  const where = action.local === action.name ? "" : ` (as '${action.local}')`;
  return `${verb} '${action.name}'${where} (${formatBytes(action.size)})`;
}

/** Counts as one line: `upload 3 (12 kB), replace 1 (2 kB), …`. */
function summary(counts: SyncPlan["counts"], prefix: string, failed = 0): string {
  const parts = (Object.keys(SYNC_VERBS) as SyncActionKind[])
    .filter((kind) => counts[kind].files > 0)
    .map((kind) =>
      `${SYNC_VERBS[kind]} ${counts[kind].files} (${formatBytes(counts[kind].bytes)})`
    );
  if (failed > 0) parts.push(`failed ${failed}`);
  return `${prefix}${parts.length === 0 ? "nothing to do" : parts.join(", ")}`;
}

function planJson(plan: SyncPlan) {
  return {
    direction: plan.direction,
    counts: plan.counts,
    actions: plan.actions,
    problems: plan.problems,
    ...(plan.deletionsHeld === undefined ? {} : { deletionsHeld: plan.deletionsHeld }),
  };
}

function printPlan(manager: CLIRepoManager, plan: SyncPlan, json: boolean): void {
  if (json) {
    manager.output.json({ dryRun: true, ...planJson(plan) });
    return;
  }
  for (const action of plan.actions) {
    if (action.action === "skip") continue;
    const where = action.local === action.name ? "" : ` (as '${action.local}')`;
    manager.output.data(
      `Dry run: would ${SYNC_VERBS[action.action]} '${action.name}'${where} (${
        formatBytes(action.size)
      })`,
    );
  }
  printProblems(manager, plan);
  manager.output.data(summary(plan.counts, "Dry run: would "));
}

/** Each problem of the plan, and why its deletions are held back. */
function printProblems(manager: CLIRepoManager, plan: SyncPlan): void {
  for (const problem of plan.problems) {
    manager.output.warning(`Cannot sync '${problem.name}': ${problem.reason}`);
  }
  if (plan.deletionsHeld !== undefined) {
    manager.output.warning(
      `${plan.counts.delete.files} file(s) ${
        plan.deletionsHeld.replace(/^not deleted/, "are not deleted")
      }`,
    );
  }
}

function printResult(manager: CLIRepoManager, result: SyncResult, json: boolean): void {
  if (json) {
    manager.output.json({
      ...planJson(result.plan),
      complete: result.complete,
      done: result.done,
      failed: result.failed.map(({ action, message }) => ({ ...action, message })),
    });
  } else {
    manager.output.info(summary(doneCounts(result), "Synced: ", result.failed.length));
  }
  printProblems(manager, result.plan);
  const held = new Set(result.plan.actions.filter(({ action }) => action === "delete"));
  const heldBack = result.plan.deletionsHeld !== undefined;
  let notDeleted = 0;
  let reason = "";
  for (const { action, message, error } of result.failed) {
    // Deletions held back (nothing was tried) are said once, not once per file.
    if (held.has(action) && error === undefined) {
      notDeleted++;
      reason = message;
      continue;
    }
    manager.output.error(`Failed to ${SYNC_VERBS[action.action]} '${action.name}': ${message}`);
  }
  if (notDeleted > 0 && !heldBack) {
    manager.output.error(
      `${notDeleted} file(s) ${reason.replace(/^not deleted/, "were not deleted")}`,
    );
  }
}
