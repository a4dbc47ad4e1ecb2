// `collections sync`: keeps a collection (with its child collections and records) and a folder of
// record folders identical, one direction per run. The library's syncCollection() does the work;
// this file turns options into its call, asks once before deleting, and prints what happened.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RepoApyError } from "../../errors.ts";
import type {
  CollectionDeleteSummary,
  CollectionSyncResult,
  RecordSyncOutcome,
} from "../../collection_sync/types.ts";
import type { Shard } from "../../collection_sync/shard.ts";
import type { SyncActionKind, SyncResult } from "../../transfer/sync.ts";
import { apyCommand, dryRunOption, isDryRun } from "../apy_command.ts";
import { contextOf } from "../_context.ts";
import { UsageError } from "../_errors.ts";
import { confirmDeletion } from "./_confirm.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { parseInteger } from "../options.ts";
import { formatBytes } from "../output.ts";
import { pathOption, syncDirection } from "./_records_common.ts";
import {
  checkWatchOptions,
  isWatch,
  printWatch,
  type WatchCliOptions,
  watchOptions,
} from "./_records_watch.ts";
import {
  deletionGuards,
  doneCounts,
  SYNC_VERBS,
  type SyncCliOptions,
  watchFlags,
} from "./_sync_options.ts";
import { resourceOptions, selectedResource } from "./_resources_common.ts";

const HELP = `
The folder is the collection: DIR/.collection.json (optional) holds the collection's metadata
(as 'collections export -e json' writes it); each first-level folder is one record, whose
.record.json (optional) holds its metadata (as 'records export -e json' writes it: identifier,
title, description, tags, type, license, extras with their types, links) and whose other files
are its files, synced as 'records sync' does. Without .record.json the identifier comes from the
folder's name (lower-cased, spaces as -, other characters than a-z 0-9 - _ dropped) and the title
is the folder's name. A first-level folder with a .collection.json and no .record.json is a child
collection with the same layout. Names starting with '.' are left out.

--from DIR creates the collection and missing records, changes only metadata that differs, puts
each record into its collection, makes the links .record.json names, and syncs each record's
files. --to DIR writes one folder per record (named by its identifier) with its files and a
.record.json, and the collection's .collection.json. Run again with nothing changed, either
direction sends no change and writes nothing. --to on one instance, then --from on another,
moves a project between instances.

--template IDENT checks every record's extras against the template's first; when any record
fails, all problems are listed and nothing is created or sent. --shard K/N syncs only the
records of shard K of N (a stable hash of the folder's name), so N processes (a Slurm job array,
GNU parallel, xargs -P) do one run together; two shards at once never create a record twice.

--delete removes, inside each record, what the source lacks (as 'records sync --delete'; record
files deleted this way CANNOT be restored; you are asked once with the count, scripts pass -y),
and upward takes records whose folder is gone out of the collection (they are never deleted).
Nothing is removed when anything else of the run failed. Exit code 0 only when everything is
synced; otherwise the problems are listed and it is 1: run the same command again to finish.
`;

/** `collections sync`: folder → collection (`--from`) or collection → folder (`--to`). */
export function collectionsSyncCommand(): CommandUnknownOpts {
  const command = resourceOptions(
    watchFlags(
      deletionGuards(
        new Command("sync")
          .description(
            "Keep a collection and a folder of record folders identical, in one direction (--from or --to)",
          )
          .addOption(
            pathOption("--from <folder>", "Make the collection like this folder (upload)")
              .conflicts("to"),
          )
          .addOption(
            pathOption("--to <folder>", "Make this folder like the collection (download)", {
              exists: false,
            }),
          )
          .option(
            "--delete",
            "Inside each record remove what the source lacks; upward, take records whose folder is gone out of the collection",
          ),
        "a source",
      )
        .option(
          "-p, --pattern <pattern>",
          "Only file paths matching this pattern, in each record",
          "*",
        )
        .option("-e, --exclude_pattern <pattern>", "Leave out file paths matching this pattern")
        .option("--follow-symlinks", "Follow symbolic links in the folder (with --from)")
        .option(
          "--concurrency <n>",
          "Requests in flight at once, over records and their files",
          (value) => parseInteger(value, { min: 1 }),
          16,
        )
        .option(
          "--template <identifier>",
          "Check every record's extras against this template first",
        )
        .option("--shard <K/N>", "Only the records of shard K of N (for N processes at once)")
        .addOption(new Option("--json", "Print the plan or the result as JSON on stdout")),
      "Keep running: new record folders become records, files are sent once they settle (with --from; never deletes)",
    ),
    "collection",
  );
  dryRunOption(command);
  command.addHelpText("after", HELP + WATCH_HELP);
  apyCommand(command, (manager, options) => syncCollectionFolder(manager, options, command));
  return command;
}

/** The options of `collections sync`. */
interface CollectionsSyncOptions extends SyncCliOptions {
  template?: string;
  shard?: string;
}

/**
 * `collections sync`: `--watch` hands over to the watcher; else one sync of the folder tree and
 * the collection, a line per record, then the result, and exit 1 when the job is not finished.
 */
async function syncCollectionFolder(
  manager: CLIRepoManager,
  options: CollectionsSyncOptions,
  command: CommandUnknownOpts,
): Promise<void> {
  const { direction, dir } = syncDirection(options);
  if (isWatch(options)) return await runCollectionWatch(manager, options, isDryRun(manager));
  if (options.template !== undefined && direction === "down") {
    throw new UsageError("--template checks records going up: use it with --from");
  }
  const shard = await shardOption(options.shard);
  const result = await syncRecords(manager, options, { direction, dir, shard }, command);
  printResult(manager, result, options.json === true);
  if (!result.complete) {
    const failed = result.records.filter((record) => !record.complete).length;
    throw new RepoApyError(
      `${result.problems.length} problem(s) and ${failed} record(s) not synced${
        isDryRun(manager) ? "" : " (listed above)"
      }: fix the cause and run the same command again to continue`,
    );
  }
}

/** `--shard i/n` parsed (a usage error when it is no shard); undefined without it. */
async function shardOption(text: string | undefined): Promise<Shard | undefined> {
  const { parseShard } = await import("../../collection_sync/shard.ts");
  try {
    return text === undefined ? undefined : parseShard(text);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** What one collection sync is asked to do. */
interface CollectionSyncPlan {
  direction: "up" | "down";
  dir: string;
  shard: Shard | undefined;
}

/** Syncs the collection once, a line per record done; `--delete` asks first unless `-y`. */
async function syncRecords(
  manager: CLIRepoManager,
  options: CollectionsSyncOptions,
  { direction, dir, shard }: CollectionSyncPlan,
  command: CommandUnknownOpts,
): Promise<CollectionSyncResult> {
  const dry = isDryRun(manager);
  const selector = selectedResource(options, "collection");
  const { syncCollection } = await import("../../collection_sync/sync_collection.ts");
  const input = contextOf(command).input;
  let done = 0;
  return await syncCollection(manager, selector, dir, {
    direction,
    dryRun: dry,
    delete: options.delete === true,
    pattern: options.pattern,
    excludePattern: options.exclude_pattern,
    followSymlinks: options.followSymlinks,
    maxDelete: options.maxDelete,
    allowEmptySource: options.allowEmptySource,
    backupDir: options.backupDir,
    concurrency: options.concurrency,
    template: options.template,
    shard,
    signal: manager.signal,
    onWarning: (message) => manager.output.warning(message),
    onRecord: (outcome) => {
      done++;
      if (!dry) manager.output.info(`[${done}] ${recordLine(outcome, direction, false)}`);
    },
    ...(options.yes === true ? {} : {
      confirmDelete: async (summary: CollectionDeleteSummary) => {
        const what = `${summary.files} file(s) (${
          formatBytes(summary.bytes)
        }) in ${summary.records} record ${
          summary.direction === "up" ? "(s) on the server" : "folder(s)"
        }`;
        return await confirmDeletion(manager, input, what, summary.direction === "up");
      },
    }),
  });
}

const WATCH_HELP = `
Watching (the instrument PC's uploader): with --from, --watch makes the collection and its records
as above (their files not yet), then keeps running: each file of a record folder is sent once it
has settled (size and modification time unchanged for --settle seconds, default 30), and a new
record folder becomes a record of the collection (its .record.json, if any, read once it has
settled); a changed .record.json changes the record's metadata. Changes are found by the system's
file events and a full rescan every --rescan seconds (default 300; new record folders of child
collections are found by rescans). When the server or the network is gone, sends pause and resume
by themselves; nothing is sent twice. --watch never deletes (--delete is refused, as are --to,
--dry-run, --shard, --template and --backup-dir). Ctrl-C or SIGTERM stops within seconds (exit
130); the same command run again catches up. A second watcher of the same folder and collection
refuses to start. Output as 'records sync --watch': one line per stored file (its path in the
folder) on stdout; with --json one JSON event per line. --settle without --watch makes one pass
for cron.

  repo-apy collections sync -C campaign-2026 --from /data/campaign --watch
  repo-apy collections sync -C campaign-2026 --from /data/campaign --watch --json
`;

/** `collections sync --watch` (or `--settle` alone: one pass for cron). */
async function runCollectionWatch(
  manager: CLIRepoManager,
  options: WatchCliOptions & {
    shard?: string | undefined;
    template?: string | undefined;
    backupDir?: string | undefined;
    collection?: string | undefined;
    id?: number | undefined;
  },
  dryRun: boolean,
): Promise<void> {
  const once = checkWatchOptions(options, dryRun);
  const flag = once ? "--settle" : "--watch";
  for (
    const [given, name, why] of [
      [options.shard, "--shard", "one watcher does the whole collection folder"],
      [options.template, "--template", "check the records with a run without it first"],
      [options.backupDir, "--backup-dir", "a watcher replaces or deletes no local file"],
    ] as const
  ) {
    if (given !== undefined) throw new UsageError(`${flag} does not take ${name}: ${why}`);
  }
  const dir = options.from!;
  const selector = selectedResource(options, "collection");
  const { watchCollection } = await import("../../collection_sync/watch.ts");
  await printWatch(
    manager,
    dir,
    options.json === true,
    "collection",
    watchCollection(manager, selector, dir, {
      ...watchOptions(manager, options, once),
      concurrency: options.concurrency,
      ...(options.json === true ? {} : {
        onRecord: (outcome: RecordSyncOutcome) => {
          const line = recordLine(outcome, "up", false);
          if (!line.endsWith(": up to date")) manager.output.info(line);
        },
      }),
    }),
  );
}

/** `upload 3 (12 kB), skip 2 (1 kB)`: a record's files, planned or done. */
function filesText(files: SyncResult, dry: boolean): string {
  const counts = dry ? files.plan.counts : doneCounts(files);
  const parts = (Object.keys(SYNC_VERBS) as SyncActionKind[])
    .filter((kind) => kind !== "skip" && counts[kind].files > 0)
    .map((kind) =>
      `${SYNC_VERBS[kind]} ${counts[kind].files} (${formatBytes(counts[kind].bytes)})`
    );
  if (files.failed.length > 0) parts.push(`failed ${files.failed.length}`);
  return parts.join(", ");
}

/** One record's line: `sample-1: created, changed title, added, upload 2 (1 kB)`. */
function recordLine(outcome: RecordSyncOutcome, direction: "up" | "down", dry: boolean): string {
  const parts: string[] = [];
  if (outcome.created) parts.push("created");
  if (outcome.changed.length > 0) parts.push(`changed ${outcome.changed.join(", ")}`);
  if (outcome.added) parts.push("added to the collection");
  if (outcome.linked.length > 0) parts.push(`linked ${outcome.linked.join(", ")}`);
  if (outcome.wrote) parts.push(".record.json written");
  const files = outcome.files === undefined ? "" : filesText(outcome.files, dry);
  if (files !== "") parts.push(files);
  if (outcome.problems.length > 0) parts.push("FAILED");
  const where = direction === "up" || outcome.folder === outcome.identifier
    ? ""
    : ` (as '${outcome.folder}')`;
  const name = direction === "up"
    ? `'${outcome.folder}' → ${outcome.identifier}`
    : outcome.identifier;
  return `${name}${where}: ${parts.length === 0 ? "up to date" : parts.join("; ")}`;
}

function summary(result: CollectionSyncResult): string {
  const records = result.records;
  const count = (test: (record: RecordSyncOutcome) => boolean) => records.filter(test).length;
  const parts = [
    `${records.length} record(s)`,
    `${count((r) => r.created)} created`,
    `${count((r) => r.changed.length > 0)} changed`,
    `${count((r) => r.added)} added`,
  ];
  if (result.direction === "down") {
    parts.splice(
      1,
      3,
      `${count((r) => r.wrote)} .record.json written`,
    );
  }
  const removed = result.collections.reduce((sum, c) => sum + c.removed.length, 0);
  if (removed > 0) parts.push(`${removed} removed from the collection`);
  const failed = count((r) => !r.complete);
  if (failed > 0) parts.push(`${failed} not complete`);
  return parts.join(", ");
}

function resultJson(result: CollectionSyncResult) {
  return {
    ...result,
    records: result.records.map(({ files, ...record }) => ({
      ...record,
      files: files === undefined ? undefined : {
        counts: files.plan.counts,
        actions: files.plan.actions.filter(({ action }) => action !== "skip"),
        problems: files.plan.problems,
        done: files.done.length,
        failed: files.failed.map(({ action, message }) => ({ ...action, message })),
        complete: files.complete,
      },
    })),
  };
}

function printResult(manager: CLIRepoManager, result: CollectionSyncResult, json: boolean): void {
  const dry = result.dryRun;
  if (json) manager.output.json(resultJson(result));
  else if (dry) {
    for (const collection of result.collections) {
      const parts = [
        collection.created ? "create" : "",
        collection.changed.length > 0 ? `change ${collection.changed.join(", ")}` : "",
        collection.attached ? "make it a child of its parent" : "",
        collection.removed.length > 0 ? `take ${collection.removed.join(", ")} out of it` : "",
        collection.wrote ? "write .collection.json" : "",
      ].filter((part) => part !== "");
      if (parts.length > 0) {
        manager.output.data(
          `Dry run: collection ${collection.identifier}: would ${parts.join("; ")}`,
        );
      }
    }
    for (const record of result.records) {
      manager.output.data(`Dry run: would sync ${recordLine(record, result.direction, true)}`);
    }
  }
  for (const problem of result.problems) {
    manager.output.error(`Cannot sync '${problem.folder || "."}': ${problem.reason}`);
  }
  for (const record of result.records) {
    for (const problem of record.problems) {
      manager.output.error(`Failed '${record.folder}': ${problem}`);
    }
    for (const { action, message } of record.files?.failed ?? []) {
      manager.output.error(
        `Failed to ${SYNC_VERBS[action.action]} '${record.folder}/${action.name}': ${message}`,
      );
    }
    for (const problem of record.files?.plan.problems ?? []) {
      manager.output.warning(`Cannot sync '${record.folder}/${problem.name}': ${problem.reason}`);
    }
  }
  const root = result.collections[0]?.identifier ?? "";
  manager.output.info(
    `${dry ? "Dry run: would sync" : "Synced"} collection '${root}': ${summary(result)}`,
  );
}
