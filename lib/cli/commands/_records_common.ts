// Shared helpers of the `records` commands: record, collection, group and user selection,
// `--i-am-sure`, progress bars for transfers, messages that stay off stdout while piping, and
// fnmatch-style globs.

import {
  type CommandUnknownOpts,
  InvalidArgumentError,
  Option,
  type OptionValues,
} from "@commander-js/extra-typings";
import { InputError, RepoApyError } from "../../errors.ts";
import { RequestError } from "../../http/errors.ts";
import { ResourceNotFoundError } from "../../resources/errors.ts";
import type { IdentityType, RepoUser } from "../../resources/user.ts";
import type { RepoRecord } from "../../model/record.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { UsageError } from "../_errors.ts";
import { idIdentifierOptions, idIdentifierValue, userIdValue } from "../options.ts";
import { createProgress, formatBytes, formatDuration, type Output } from "../output.ts";
import { setOptionType } from "../_tree.ts";

/** Parsed option values with an index signature (typed command options have none). */
export function asValues(values: object): OptionValues {
  return values as OptionValues;
}

/** Adds `-r/--record-id` and `-R/--record-identifier` (and `-T/--record-ids` when asked). */
export function recordOptions<C extends CommandUnknownOpts>(
  command: C,
  options: { allowTokenlist?: boolean } = {},
): C {
  return idIdentifierOptions(command, "record", options);
}

/** Opens the record picked by `-r`/`-R` (a `-T/--record-ids` of another selector is ignored). */
export async function openRecord(manager: CLIRepoManager, values: object): Promise<RepoRecord> {
  const { recordIds: _ignored, ...own } = asValues(values);
  const selected = idIdentifierValue(own, "record", { required: true });
  if (selected === undefined || "ids" in selected) {
    throw new InputError("Please specify the record with -r/--record-id or -R/--record-identifier");
  }
  return await manager.record(selected);
}

/** Opens the records picked by `-r`, `-R` or `-T/--record-ids`. */
export async function openRecords(
  manager: CLIRepoManager,
  values: object,
): Promise<RepoRecord[]> {
  const selected = idIdentifierValue(asValues(values), "record", { required: true });
  if (selected === undefined) return [];
  if (!("ids" in selected)) return [await manager.record(selected)];
  if (selected.ids.length === 0) {
    throw new UsageError("-T/--record-ids holds no record id: give comma-separated ids");
  }
  const records: RepoRecord[] = [];
  for (const id of selected.ids) records.push(await manager.record({ id }));
  return records;
}

/** Resolves a collection (`-c`/`-C`) or group (`-g`/`-G`) selector to the resource's id. */
export async function resolveResourceId(
  manager: CLIRepoManager,
  type: "collection" | "group",
  values: object,
): Promise<{ id: number; label: string }> {
  const selected = idIdentifierValue(asValues(values), type, { required: true });
  if (selected === undefined || "ids" in selected) {
    throw new InputError(`Please specify the ${type} by id or identifier`);
  }
  try {
    const resource = type === "collection"
      ? await manager.collection(selected)
      : await manager.group(selected);
    const meta = await resource.meta();
    // Described as everywhere else: its title, id and identifier.
    return { id: meta.id, label: String(resource) };
  } catch (error) {
    if (error instanceof ResourceNotFoundError) {
      const by = "id" in selected ? `id ${selected.id}` : `identifier '${selected.identifier}'`;
      throw new InputError(`No ${type} with ${by} exists`);
    }
    throw error;
  }
}

/** Resolves the user selector (`-u`, or `-U` with `-D`). */
export async function resolveUser(manager: CLIRepoManager, values: object): Promise<RepoUser> {
  const selected = userIdValue(asValues(values), { required: true });
  if (selected === undefined) throw new InputError("Please specify the user");
  if ("id" in selected) return await manager.user(selected);
  return await manager.user({
    username: selected.username,
    identityType: selected.identityType as IdentityType,
  });
}

/**
 * An option taking a file system path, typed for `--xmlhelp` as the reference client types it:
 * `path` (a folder) or `file`, and whether it must exist. With `checked`, a path that does not
 * exist is wrong usage (exit 2, before any request), as the reference client's `exists` path
 * types refuse it.
 */
export function pathOption<F extends string>(
  flags: F,
  description: string,
  xml: { type?: "path" | "file"; exists?: boolean; checked?: boolean } = {},
): Option<F> {
  const option = new Option(flags, description);
  setOptionType(option, xml.type ?? "path", { exists: xml.exists ?? true });
  if (xml.checked === true) option.argParser(existingPath);
  return option;
}

/** `path` itself when something is there; otherwise a usage error naming it. */
function existingPath(path: string): string {
  try {
    Deno.statSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) return path; // said by the command's own read
    throw new InvalidArgumentError(
      `Nothing exists at '${path}': check the path (nothing was written or sent)`,
    );
  }
  return path;
}

/** The direction and folder of a sync: `--from` (up) or `--to` (down), exactly one of them. */
export function syncDirection(
  options: { from?: string; to?: string },
): { direction: "up" | "down"; dir: string } {
  const { from, to } = options;
  if ((from === undefined) === (to === undefined)) {
    throw new UsageError(
      "Give exactly one of --from <folder> (upload) and --to <folder> (download)",
    );
  }
  return { direction: from === undefined ? "down" : "up", dir: (from ?? to)! };
}

/** Throws unless `--i-am-sure` was given. */
export function requireSure(sure: boolean | undefined, what: string): void {
  if (sure !== true) {
    throw new InputError(`Add --i-am-sure to ${what}: nothing was changed`);
  }
}

/** Whether `error` is an HTTP error with this status. */
export function isStatus(error: unknown, status: number): error is RequestError {
  return error instanceof RequestError && error.status === status;
}

/**
 * Runs `action`; when the server answers 404 (the link or entry acted on is not there) fails with
 * `message` instead of the server's bare status (exit 1). Any other error propagates.
 */
export async function onMissing<T>(action: () => Promise<T>, message: () => string): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!isStatus(error, 404)) throw error;
    throw new RepoApyError(message(), { cause: error });
  }
}

/**
 * Runs `action`; when the server answers 409 (the thing exists already) runs `ifExists` instead.
 * Any other error propagates.
 */
export async function onConflict(
  action: () => Promise<void>,
  ifExists: () => Promise<void> | void,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!isStatus(error, 409)) throw error;
    await ifExists();
  }
}

/** A transfer progress bar (TTY only) fed by the transfer functions' `onProgress`. */
export interface TransferProgress {
  /** Pass to the transfer's `onProgress`; bytes `resumed` count toward the bar, not the rate. */
  onProgress: (progress: { bytes: number; resumed?: number | undefined }) => void;
  /** Clears the bar. */
  done(): void;
}

/** Creates a {@linkcode TransferProgress}; total 0 or less draws no percentage. */
export function transferProgress(output: Output, label: string, total = 0): TransferProgress {
  const progress = filesProgress(output, label, { bytes: total });
  return { onProgress: (update) => progress.onProgress("", update), done: () => progress.done() };
}

/** Options of {@linkcode filesProgress}. */
export interface FilesProgressOptions {
  /** Bytes of all files (the bar's total); 0 when unknown. */
  bytes: number;
  /** Number of files, for `n/N files` on the bar; leave out for one file. */
  files?: number | undefined;
  /** Clock in milliseconds (tests). @default {performance.now} */
  now?: () => number;
}

/** One progress bar for the files of a transfer, several in flight at once. */
export interface FilesProgress {
  /**
   * Pass each file's progress here: `key` tells the files apart, `bytes` is the file's running
   * count, `resumed` the bytes it had before this run (they do not count toward the rate).
   */
  onProgress(key: string, progress: { bytes: number; resumed?: number | undefined }): void;
  /** Counts one more file done. */
  fileDone(): void;
  /** Clears the bar. */
  done(): void;
  /** `3 files, 44.8 MB in 12s (3.7 MB/s)`: what was transferred in this run, for a last line. */
  summary(files: number): string;
  /** `44.8 MB in 12s (3.7 MB/s)`: the same without the count (a single file's line). */
  transferred(): string;
}

/**
 * Creates a {@linkcode FilesProgress}: one bar (TTY, or plain lines with `--progress`) with the
 * total known before the first byte, and the numbers of the summary line.
 */
export function filesProgress(
  output: Output,
  label: string,
  options: FilesProgressOptions,
): FilesProgress {
  const { now = () => performance.now() } = options;
  const bar = createProgress(options.bytes, label, output, {
    now,
    files: options.files,
  });
  const started = now();
  const seen = new Map<string, { bytes: number; resumed: number }>();
  let sent = 0;
  return {
    onProgress(key, { bytes, resumed = 0 }) {
      const before = seen.get(key) ?? { bytes: 0, resumed: 0 };
      // Bytes that were there before this run (a resumed transfer) do not count toward the rate.
      if (resumed > before.resumed) bar.skip(resumed - before.resumed);
      const fresh = bytes - Math.max(before.bytes, resumed);
      if (fresh > 0) {
        bar.advance(fresh);
        sent += fresh;
      }
      seen.set(key, {
        bytes: Math.max(before.bytes, bytes),
        resumed: Math.max(before.resumed, resumed),
      });
    },
    fileDone: () => bar.fileDone(),
    done: () => bar.done(),
    transferred() {
      const seconds = (now() - started) / 1000;
      const rate = seconds > 0 && sent > 0 ? ` (${formatBytes(sent / seconds)}/s)` : "";
      return `${formatBytes(sent)} in ${formatDuration(seconds)}${rate}`;
    },
    summary(files) {
      return `${files} file${files === 1 ? "" : "s"}, ${this.transferred()}`;
    },
  };
}

/** Describes a record for messages: `record 'Title' (id: 1, identifier: 'x')`. */
export function describe(record: RepoRecord): string {
  return String(record);
}
