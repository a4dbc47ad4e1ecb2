// `records sync --from DIR --watch` (and `--settle` alone, one pass for cron): the instrument PC's
// uploader. The library's watchFolder() does the work; this file checks the options, prints one
// line per stored file (or one JSON event per line with --json), keeps a status line on a
// terminal, and turns the end into an exit code.

import { InvalidArgumentError } from "@commander-js/extra-typings";
import { RepoApyError } from "../../errors.ts";
import type { WatchEvent, WatchOptions } from "../../transfer/watch.ts";
import type { RepoRecord } from "../../model/record.ts";
import { UsageError } from "../_errors.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { formatBytes } from "../output.ts";

/** Help text of the watch options, after the sync command's own. */
export const WATCH_HELP = `
Watching (the instrument PC's uploader): --watch keeps running after the first sync and sends
each new or changed file of the folder once it has settled: size and modification time unchanged
for --settle seconds (default 30; longer than the instrument's longest pause while it writes one
file). Changes are found by the system's file events and a full rescan every --rescan seconds
(default 300; network shares give no events). A file still being written is never stored. When
the server or the network is gone, sends pause and resume by themselves; nothing is sent twice.
--watch never deletes (--delete is refused). Ctrl-C or SIGTERM stops within seconds (exit 130);
the same command run again catches up. A second watcher of the same folder and record refuses to
start. Output: one line per stored file (time, name, size) on stdout; with --json one JSON event
per line (ready, waiting, stored, skipped, error, stopped). --settle without --watch makes one
pass for cron: files settled after one settle time are sent, the rest are left for the next run.

  repo-apy records sync -R sample-17 --from /data/instrument --watch
  repo-apy records sync -R sample-17 --from /data/instrument --watch --json
  repo-apy records sync -R sample-17 --from /data/instrument --settle 30   # from cron
`;

/**
 * Parses a number of seconds (`--settle`, `--rescan`).
 */
export function parseSeconds(value: string): number {
  const seconds = Number(value.trim());
  if (value.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
    throw new InvalidArgumentError(`'${value}' is not a number of seconds (0 or more).`);
  }
  return seconds;
}

/** The `records sync` options the watch reads. */
export interface WatchCliOptions {
  from?: string | undefined;
  to?: string | undefined;
  delete?: boolean | undefined;
  watch?: boolean | undefined;
  settle?: number | undefined;
  rescan?: number | undefined;
  json?: boolean | undefined;
  pattern?: string | undefined;
  exclude_pattern?: string | undefined;
  followSymlinks?: boolean | undefined;
  concurrency?: number | undefined;
}

/** Whether a `records sync` run is a watch (or a settled pass). */
export function isWatch(options: WatchCliOptions): boolean {
  return options.watch === true || options.settle !== undefined || options.rescan !== undefined;
}

/**
 * Checks the options of a watch (or settled pass) of `records sync` and `collections sync`.
 *
 * @param dryRun Whether `--dry-run` was given (refused).
 * @returns Whether it is one settled pass (`--settle` without `--watch`).
 */
export function checkWatchOptions(options: WatchCliOptions, dryRun: boolean): boolean {
  const once = options.watch !== true;
  const flag = once ? "--settle" : "--watch";
  if (options.from === undefined) {
    throw new UsageError(`${flag} sends a folder's files: give --from <folder>, not --to`);
  }
  if (options.delete === true) {
    throw new UsageError(`${flag} never deletes: leave out --delete (a watcher only adds files)`);
  }
  if (dryRun) {
    throw new UsageError(`${flag} sends files as they settle: leave out --dry-run`);
  }
  if (once && options.rescan !== undefined) {
    throw new UsageError("--rescan is for --watch: add --watch, or leave it out");
  }
  if (options.rescan !== undefined && options.rescan <= 0) {
    throw new UsageError("--rescan must be more than 0 seconds");
  }
  return once;
}

/** The watch options of the library call, from the command's. */
export function watchOptions(
  manager: CLIRepoManager,
  options: WatchCliOptions,
  once: boolean,
): WatchOptions {
  const signal = manager.signal;
  return {
    once,
    ...(options.settle === undefined ? {} : { settleMs: options.settle * 1000 }),
    ...(options.rescan === undefined ? {} : { rescanMs: options.rescan * 1000 }),
    pattern: options.pattern,
    excludePattern: options.exclude_pattern,
    followSymlinks: options.followSymlinks,
    signal,
    onWarning: (message) => manager.output.warning(message),
  };
}

/**
 * Runs `records sync --watch` (or the settled pass of `--settle` alone).
 *
 * @param dryRun Whether `--dry-run` was given (refused).
 */
export async function runWatch(
  manager: CLIRepoManager,
  options: WatchCliOptions,
  dryRun: boolean,
  openRecord: () => Promise<RepoRecord>,
): Promise<void> {
  const once = checkWatchOptions(options, dryRun);
  const dir = options.from!;
  const record = await openRecord();
  await record.meta();
  const { watchFolder } = await import("../../transfer/watch.ts");
  await printWatch(
    manager,
    dir,
    options.json === true,
    "record",
    watchFolder(record, dir, watchOptions(manager, options, once)),
  );
}

/**
 * Prints a watcher's events (one line per stored file, or JSON), keeps the status line, and turns
 * the end into an exit code: the signal's (130), an error when files could not be stored.
 *
 * @param dir The watched folder, as given.
 * @param json One JSON event per line.
 * @param into What the folder flows into (`record`, `collection`), for the messages.
 */
export async function printWatch(
  manager: CLIRepoManager,
  dir: string,
  json: boolean,
  into: string,
  events: AsyncIterable<WatchEvent>,
): Promise<void> {
  const status = statusLine(manager, dir);
  const signal = manager.signal;
  let stored = 0;
  let errors = 0;
  let last: WatchEvent | undefined;
  try {
    for await (const event of events) {
      last = event;
      if (event.type === "stored") stored++;
      if (event.type === "error") errors++;
      if (json) manager.output.data(JSON.stringify(event));
      else printEvent(manager, event, dir, into);
      status.update(event, errors);
    }
  } finally {
    status.done();
  }
  const waiting = last?.waiting ?? 0;
  if (signal?.aborted) {
    manager.output.info(
      `Stopped watching '${dir}': ${stored} file(s) stored in this run${
        waiting > 0 ? `, ${waiting} not yet` : ""
      }; run the same command again to continue`,
    );
    throw signal.reason;
  }
  if (waiting > 0) {
    manager.output.info(
      `${waiting} file(s) were still being written or could not be stored: the next run sends them`,
    );
  }
  if (errors > 0) {
    throw new RepoApyError(
      `${errors} file(s) could not be stored (listed above): fix the cause and run the same command again`,
    );
  }
}

/** One line per stored file on stdout; what else people need on stderr. */
function printEvent(
  manager: CLIRepoManager,
  event: WatchEvent,
  dir: string,
  into: string,
): void {
  switch (event.type) {
    case "ready":
      manager.output.info(
        `Watching '${dir}': ${event.files} file(s), ${event.equal} already in the ${into}, ${event.waiting} to send once settled`,
      );
      break;
    case "stored":
      manager.output.data(
        `${event.time}  ${event.action === "replace" ? "replaced" : "stored"}  ${event.name}  (${
          formatBytes(event.size)
        })${event.already ? " (it had arrived before)" : ""}`,
      );
      break;
    case "skipped":
      manager.output.warning(`Skipped '${event.name}': ${event.reason}`);
      break;
    case "error": {
      const what = event.name === undefined ? "" : ` '${event.name}'`;
      const retry = event.retryInMs === undefined
        ? "it is tried again once it changes"
        : `retrying in ${Math.ceil(event.retryInMs / 1000)} s`;
      manager.output.error(`Could not store${what}: ${event.message} (${retry})`);
      break;
    }
    default:
      break;
  }
}

/**
 * The status line's text: files watched and waiting, the last file stored, errors.
 *
 * @param lastStored The latest `stored` event, if any.
 */
export function statusText(
  dir: string,
  event: WatchEvent,
  lastStored: (WatchEvent & { type: "stored" }) | undefined,
  errors: number,
): string {
  const last = lastStored === undefined
    ? ""
    : `, last stored ${lastStored.name} at ${lastStored.time.slice(11, 19)}`;
  return `Watching ${dir}: ${event.watching} file(s), ${event.waiting} waiting${last}${
    errors > 0 ? `, ${errors} error(s)` : ""
  }`;
}

/** On a terminal, one status line: files watched, the last stored, errors. */
function statusLine(manager: CLIRepoManager, dir: string) {
  const output = manager.output;
  const shown = output.stderrIsTerminal() && output.isVerbose("info");
  let lastStored: (WatchEvent & { type: "stored" }) | undefined;
  return {
    update(event: WatchEvent, errors: number): void {
      if (!shown) return;
      if (event.type === "stored") lastStored = event;
      output.statusLine(statusText(dir, event, lastStored, errors));
    },
    done: () => shown && output.statusLine(undefined),
  };
}
