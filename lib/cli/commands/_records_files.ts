// `records add-files`, `add-string-as-file`, `get-file`, `delete-file`, `delete-files` and
// `edit-file`.

import { basename, relative } from "node:path";
import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { contextOf } from "../_context.ts";
import { InputError, RepoApyError } from "../../errors.ts";
import type { FileJson } from "../../http/protocol.ts";
import { FilesExistError, type UploadFilesDone, UploadFilesError } from "../../transfer/errors.ts";
import type { RepoRecord } from "../../model/record.ts";
import type { DownloadFilesOptions } from "../../transfer/download_files.ts";
import type {
  UploadFilesOptions,
  UploadFilesPlan,
  UploadFilesProgress,
} from "../../transfer/upload_files.ts";
import { formatBytes } from "../output.ts";
import { apyCommand, dryRun, dryRunOption, isDryRun } from "../apy_command.ts";
import { globFilter } from "../../utils/glob.ts";
import { nameList } from "../../utils/_name_list.ts";
import { CompletedBeforeInterrupt, UsageError } from "../_errors.ts";
import { askYesNo } from "./_confirm.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { fileIdOptions, type FileIdValue, fileIdValue, parseInteger } from "../options.ts";
import {
  asValues,
  describe,
  type FilesProgress,
  filesProgress,
  isStatus,
  openRecord,
  openRecords,
  pathOption,
  recordOptions,
  requireSure,
  transferProgress,
} from "./_records_common.ts";

/** How the upload that clashed was asked for. */
interface ClashContext {
  /** A folder upload. */
  folder?: boolean;
}

/**
 * The record has files of these names (`compared`: with other content than the local ones).
 */
function existsAlready(record: RepoRecord, names: string[], compared = true): RepoApyError {
  const one = names.length === 1;
  const count = one ? "a file" : `${names.length.toLocaleString("en-US")} files`;
  const other = compared ? ` with other content than the local ${one ? "file" : "files"}` : "";
  return new RepoApyError(
    `The ${describe(record)} already has ${count} named ${nameList(names)}${other}: nothing was ` +
      `uploaded; add -f/--force to replace ${one ? "it" : "them"}`,
  );
}

/**
 * One aggregate progress bar for the files of an upload (several may be in flight at once), set
 * up from the plan, before the first byte: `n/N files`, bytes of the total, rate and ETA.
 */
function uploadProgress(manager: CLIRepoManager, label: string, folder: boolean) {
  let bar: FilesProgress | undefined;
  const resuming = new Set<string>();
  return {
    onPlan(plan: UploadFilesPlan) {
      const bytes = plan.upload.reduce((sum, file) => sum + file.size, 0);
      bar = filesProgress(manager.output, label, {
        bytes,
        ...(folder ? { files: plan.upload.length } : {}),
      });
    },
    onProgress(update: UploadFilesProgress) {
      const { path, name, size } = update.file;
      if (!resuming.has(path) && (update.resumed ?? 0) > 0) {
        resuming.add(path);
        manager.output.info(
          `Resuming the upload of '${name}': ${formatBytes(update.resumed!)} of ${
            formatBytes(size)
          } already on the server`,
        );
      }
      bar?.onProgress(path, update);
    },
    fileDone: () => bar?.fileDone(),
    done: () => bar?.done(),
    summary: (files: number) => bar?.summary(files) ?? `${files} files`,
    transferred: () => bar?.transferred() ?? "",
  };
}

/**
 * Warns that the subfolders of a folder upload are left out (without `--recursive`), and how to
 * include them.
 */
function warnFoldersLeftOut(manager: CLIRepoManager, path: string, folders: string[]): void {
  if (folders.length === 0) return;
  manager.output.warning(
    `Left out ${folders.length} subfolder(s) of '${path}': ${
      nameList(folders.map((name) => `${name}/`))
    }: add --recursive to ` +
      `upload the whole tree (files in subfolders are named by their relative paths, e.g. ` +
      `'${folders[0]}/...')`,
  );
}

/** `add-files --dry-run`: what the library would upload and skip (clashes fail as they would). */
async function planUpload(
  manager: CLIRepoManager,
  record: RepoRecord,
  path: string,
  options: UploadFilesOptions & { folder: boolean },
): Promise<void> {
  const { planUploadFiles } = await import("../../transfer/upload_files.ts");
  let plan: UploadFilesPlan;
  try {
    plan = await planUploadFiles(record, path, options);
  } catch (error) {
    throw addFilesError(record, error, options);
  }
  for (const file of plan.upload) {
    dryRun(
      manager,
      `upload '${file.path}' (${formatBytes(file.size)}) as '${file.name}' to the ${
        describe(record)
      }`,
    );
  }
  for (const { file } of plan.skip) {
    manager.output.info(
      `Would skip '${file.name}': the ${describe(record)} has it with the same content`,
    );
  }
  if (options.folder) warnFoldersLeftOut(manager, path, plan.folders);
  if (plan.upload.length + plan.skip.length === 0) {
    manager.output.warning(`No file in the folder '${path}' matches`);
  }
  const bytes = plan.upload.reduce((sum, file) => sum + file.size, 0);
  const skipped = plan.skip.length > 0 ? `, skip ${plan.skip.length} already there` : "";
  dryRun(manager, `upload ${countFiles(plan.upload.length)}, ${formatBytes(bytes)}${skipped}`);
}

/** `1 file`, `50 files`. */
function countFiles(count: number): string {
  return `${count} file${count === 1 ? "" : "s"}`;
}

/** `records add-files`: uploads a file, or the files of a folder (its tree with `--recursive`). */
export function addFilesCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("add-files")
      .description(
        "Upload a file, or the files of a folder (with --recursive its whole tree), to a record",
      )
      .addOption(
        pathOption("-n, --file-name <path>", "Path of the file or folder to upload", {
          exists: false,
        })
          .makeOptionMandatory(),
      )
      .option("-d, --file-description <description>", "Description of the file (single file only)")
      .option(
        "-p, --pattern <pattern>",
        "Upload only files of the folder matching this pattern (the relative path with --recursive)",
        "*",
      )
      .option(
        "-e, --exclude_pattern <pattern>",
        "Leave out files of the folder matching this pattern",
      )
      .option("-f, --force", "Replace files of the same name")
      .option(
        "--recursive",
        "Upload subfolders too; names are paths relative to the folder (raw/run1.h5)",
      )
      .option("--follow-symlinks", "With --recursive: follow symbolic links (loops are left out)")
      .option(
        "--skip-existing",
        "With -f: still leave out files the record has with the same content (always left out without -f)",
      )
      .option(
        "--concurrency <n>",
        "Small files uploaded at once",
        (value) => parseInteger(value, { min: 1 }),
        16,
      ),
  );
  dryRunOption(command);
  apyCommand(command, addFiles);
  return command;
}

/** The options of `records add-files`. */
interface AddFilesOptions {
  fileName: string;
  fileDescription?: string;
  pattern: string;
  exclude_pattern?: string;
  force?: true;
  recursive?: true;
  followSymlinks?: true;
  skipExisting?: true;
  concurrency: number;
}

/**
 * `records add-files`: checks the options against what the path is (file or folder), then with
 * `--dry-run` prints the plan, else uploads with a progress bar and reports what was sent.
 */
async function addFiles(manager: CLIRepoManager, options: AddFilesOptions): Promise<void> {
  const record = await openRecord(manager, options);
  await record.meta();
  // Named before the upload, which drops the cached metadata the name is made of.
  const label = describe(record);
  const path = options.fileName;
  // Loaded when the command runs: building the help loads no transfer code (fast start-up).
  const { statUploadPath } = await import("../../transfer/upload_files.ts");
  const folder = (await statUploadPath(path)).isDirectory;
  const choice = uploadChoice(manager, options, folder);
  if (isDryRun(manager)) return await planUpload(manager, record, path, { ...choice, folder });
  const upload = await uploadWithProgress(manager, record, label, options, { choice, folder });
  reportUpload(manager, label, path, folder, upload);
}

/** The upload options `add-files` asks for; a usage error where they do not fit the path. */
function uploadChoice(
  manager: CLIRepoManager,
  options: AddFilesOptions,
  folder: boolean,
): UploadFilesOptions {
  if (folder && options.fileDescription !== undefined) {
    throw new UsageError("-d/--file-description only works with a single file, not a folder");
  }
  if (options.followSymlinks === true && options.recursive !== true) {
    throw new UsageError("--follow-symlinks only works with --recursive");
  }
  return {
    pattern: options.pattern,
    excludePattern: options.exclude_pattern,
    force: options.force,
    skipExisting: options.skipExisting,
    recursive: options.recursive,
    followSymlinks: options.followSymlinks,
    onWarning: (message: string) => manager.output.warning(message),
  };
}

/** What an upload of `add-files` did. */
interface UploadDone extends UploadFilesDone {
  /** Subfolders left out (without `--recursive`). */
  folders: string[];
  /** `n files, size` as the bar counted them. */
  summary: (files: number) => string;
}

/** Uploads the file or folder, with a progress bar and a line per file. */
async function uploadWithProgress(
  manager: CLIRepoManager,
  record: RepoRecord,
  label: string,
  options: AddFilesOptions,
  { choice, folder }: { choice: UploadFilesOptions; folder: boolean },
): Promise<UploadDone> {
  const path = options.fileName;
  const progress = uploadProgress(manager, `Uploading ${basename(path)}`, folder);
  let folders: string[] = [];
  try {
    const result = await record.uploadFiles(path, {
      ...choice,
      concurrency: options.concurrency,
      onPlan: (plan) => {
        folders = plan.folders;
        progress.onPlan(plan);
      },
      onProgress: progress.onProgress,
      onFile: ({ uploaded, skipped }) => {
        if (!skipped) progress.fileDone();
        // One short line per file of a folder; the record is named once, in the summary.
        if (folder) {
          manager.output.fileLine(
            skipped
              ? `Skipped '${uploaded.name}': already there with the same content`
              : `Uploaded '${uploaded.name}' (${formatBytes(uploaded.size)})`,
          );
        } else {
          manager.output.info(
            skipped
              ? `Skipped '${uploaded.name}': the ${label} has it with the same content`
              : `Uploaded '${uploaded.name}' (id: ${uploaded.id}) to the ${label}: ${progress.transferred()}`,
          );
        }
      },
      fileDescription: options.fileDescription,
    });
    return { ...result, folders, summary: progress.summary };
  } catch (error) {
    throw addFilesError(record, error, { ...choice, folder });
  } finally {
    progress.done();
  }
}

/** The summary of an upload: nothing matched, all there already, or what was sent. */
function reportUpload(
  manager: CLIRepoManager,
  label: string,
  path: string,
  folder: boolean,
  { uploaded, skipped, folders, summary }: UploadDone,
): void {
  if (folder) warnFoldersLeftOut(manager, path, folders);
  if (uploaded.length + skipped.length === 0) {
    manager.output.warning(`No file in the folder '${path}' matches: nothing was uploaded`);
  } else if (folder) {
    const leftOut = folders.length > 0 ? `; left out ${folders.length} subfolder(s)` : "";
    manager.output.info(
      uploaded.length === 0
        ? `All ${skipped.length} files are already in the ${label} with the same content: ` +
          `nothing was uploaded${leftOut}`
        : `Uploaded ${summary(uploaded.length)} to the ${label}${
          skipped.length > 0 ? `; skipped ${skipped.length} already there` : ""
        }${leftOut}`,
    );
  }
}

/** Turns the library's errors of `add-files` into messages in CLI terms. */
function addFilesError(record: RepoRecord, error: unknown, context: ClashContext): unknown {
  const folder = context.folder === true;
  if (error instanceof FilesExistError) return existsAlready(record, error.names);
  if (!(error instanceof UploadFilesError)) return error;
  const cause = error.cause;
  if (error.path !== undefined && isStatus(cause, 409)) {
    return existsAlready(record, [basename(error.path)], false);
  }
  if (!folder && error.path !== undefined) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const what = error.path === undefined
    ? "The upload was cancelled"
    : `Uploading '${error.path}' failed (${reason})`;
  const done = error.done.uploaded.length + error.done.skipped.length;
  return new RepoApyError(
    `${what}; ${done} file(s) of the folder are in the ${
      describe(record)
    }: run the same command again to continue`,
    { cause: error },
  );
}

/** `records add-string-as-file`: stores a string (UTF-8) as a file. */
export function addStringAsFileCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("add-string-as-file")
      .description("Store a string as a file of a record")
      .requiredOption("-s, --string <text>", "The content of the file")
      .requiredOption("-n, --file-name <name>", "Name of the file in the record")
      .option("-f, --force", "Replace a file of the same name"),
  );
  apyCommand(command, addStringAsFile);
  return command;
}

/** The options of `records add-string-as-file`. */
interface AddStringAsFileOptions {
  string: string;
  fileName: string;
  force?: true;
}

/** Runs `records add-string-as-file`. */
async function addStringAsFile(
  manager: CLIRepoManager,
  options: AddStringAsFileOptions,
): Promise<void> {
  const record = await openRecord(manager, options);
  await record.meta();
  const label = describe(record);
  let file: FileJson;
  try {
    file = await record.uploadString(
      options.string,
      options.fileName,
      { force: options.force },
    );
  } catch (error) {
    if (isStatus(error, 409)) throw existsAlready(record, [options.fileName], false);
    throw error;
  }
  manager.output.info(`Uploaded '${file.name}' (id: ${file.id}) to the ${label}`);
}

/** Bytes above which `get-file` without `-n`/`-P` asks before downloading (on a terminal). */
const CONFIRM_BYTES = 100 * 1000 ** 2;
/** Files above which `get-file` without `-n`/`-P` asks before downloading (on a terminal). */
const CONFIRM_FILES = 20;

/** The record's files matching the globs, listed before the first byte (for the totals). */
async function matchingFiles(
  record: RepoRecord,
  options: { pattern: string; exclude_pattern?: string | undefined },
): Promise<FileJson[]> {
  const wanted = globFilter(options.pattern, options.exclude_pattern);
  const files: FileJson[] = [];
  for await (const file of record.files()) if (wanted(file.name)) files.push(file);
  return files;
}

/**
 * Before a download of every file (neither `-n`/`-i` nor `-P`): on a terminal, above
 * {@linkcode CONFIRM_BYTES} or {@linkcode CONFIRM_FILES}, asks whether to go on (`-y/--yes`
 * skips the question). Returns `false` when the answer is no.
 */
async function confirmAll(
  manager: CLIRepoManager,
  command: CommandUnknownOpts,
  what: string,
  files: FileJson[],
): Promise<boolean> {
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const input = contextOf(command).input;
  if (!input.isTerminal() || (bytes <= CONFIRM_BYTES && files.length <= CONFIRM_FILES)) {
    return true;
  }
  return await askYesNo(manager, input, `Download ${what}?`);
}

/** `records get-file`: downloads one file, or all (matching) files, of one or more records. */
export function getFileCommand(): CommandUnknownOpts {
  const command = fileIdOptions(recordOptions(
    new Command("get-file")
      .description("Download one file, or all files matching a pattern, of records")
      .addOption(
        pathOption("-p, --filepath <folder>", "Folder to download into (created if missing)")
          .default("."),
      )
      .option("-P, --pattern <pattern>", "Download only files matching this pattern", "*")
      .option("-e, --exclude_pattern <pattern>", "Leave out files matching this pattern")
      .option("-f, --force", "Overwrite existing files (default: new ones get a _<n> suffix)")
      .option("-u, --use-folder", "Download into a folder named after the record's identifier")
      .option(
        "--flat",
        "Write every file directly into the folder, '/' in names replaced by '_' (default: subfolders)",
      )
      .option(
        "-E, --pipe",
        "Print the written paths as one comma-separated line on stdout (a comma inside a file " +
          "name is printed as is, so such paths cannot be told apart: use --json)",
      )
      .addOption(
        new Option("--json", "Print the written paths as a JSON array on stdout").conflicts(
          "pipe",
        ),
      )
      .option(
        "-y, --yes",
        `Download every file without asking (asked on a terminal above ${
          formatBytes(CONFIRM_BYTES)
        } or ${CONFIRM_FILES} files when neither -n/-i nor -P is given)`,
      ),
    { allowTokenlist: true },
  ));
  dryRunOption(command);
  apyCommand(command, (manager, options) => getFile(manager, options, command));
  return command;
}

/** The options of `records get-file` its action reads (besides the record and file selectors). */
interface GetFileOptions {
  filepath: string;
  pattern: string;
  exclude_pattern?: string | undefined;
  force?: true | undefined;
  useFolder?: true | undefined;
  flat?: true | undefined;
  pipe?: true | undefined;
  json?: true | undefined;
  yes?: true | undefined;
}

/**
 * `records get-file`: with `--dry-run` the plan; else each record's selected file (`-n`/`-i`) or
 * matching files, then the written paths (`--json`, `-E/--pipe`).
 */
async function getFile(
  manager: CLIRepoManager,
  options: GetFileOptions,
  command: CommandUnknownOpts,
): Promise<void> {
  const selected = fileIdValue(asValues(options));
  const records = await openRecords(manager, options);
  if (isDryRun(manager)) return await planDownloads(manager, records, options, selected);
  const run = await startDownloads(manager, options, command);
  const written: string[] = [];
  for (const record of records) {
    const paths = selected === undefined
      ? await downloadMatching(run, record, options)
      : await downloadSelected(run, record, selected);
    if (paths === undefined) break;
    written.push(...paths);
  }
  if (options.json === true) manager.output.json(written);
  else if (options.pipe === true) manager.output.data(written.join(","));
}

/** `get-file --dry-run`: what would be downloaded of every record, then the totals. */
async function planDownloads(
  manager: CLIRepoManager,
  records: readonly RepoRecord[],
  options: GetFileOptions,
  selected: FileIdValue | undefined,
): Promise<void> {
  const total = { files: 0, bytes: 0 };
  for (const record of records) {
    const planned = await planDownload(manager, record, options.filepath, options, selected);
    total.files += planned.files;
    total.bytes += planned.bytes;
  }
  dryRun(manager, `download ${countFiles(total.files)}, ${formatBytes(total.bytes)}`);
}

/** What the downloads of one `get-file` run share. */
interface DownloadRun {
  manager: CLIRepoManager;
  command: CommandUnknownOpts;
  /** The folder downloaded into. */
  dir: string;
  /** Creates the folder, once, before the first file is written. */
  ready: () => Promise<void>;
  /** The options of every record's download. */
  common: DownloadFilesOptions;
  /** Every file was asked for (no `-P`, no `-y`): a large download is confirmed first. */
  everything: boolean;
}

/** Sets up a run's downloads; a folder in the way (a file, a special file) is said here. */
async function startDownloads(
  manager: CLIRepoManager,
  options: GetFileOptions,
  command: CommandUnknownOpts,
): Promise<DownloadRun> {
  const dir = options.filepath;
  // Created when the first file is downloaded: a question answered no (or cancelled) leaves
  // nothing behind.
  let folderReady: Promise<void> | undefined;
  const ready = () => folderReady ??= ensureFolder(dir);
  // Something in the way (a file, a special file) is said before anything is listed.
  const missing = await Deno.lstat(dir).then(
    () => false,
    (error) => error instanceof Deno.errors.NotFound,
  );
  if (!missing) await ready();
  const common = {
    keepPartial: true,
    // A path written for one record is never written again for another, not even with -f.
    claimed: new Set<string>(),
    onWarning: (message: string) => manager.output.warning(message),
    useFolder: options.useFolder,
    force: options.force,
    flat: options.flat,
    signal: manager.signal,
  };
  const everything = command.getOptionValueSource("pattern") === "default" &&
    options.yes !== true;
  return { manager, command, dir, ready, common, everything };
}

/** Downloads the one file `-n`/`-i` names of `record`; returns its path. */
async function downloadSelected(
  run: DownloadRun,
  record: RepoRecord,
  selected: FileIdValue,
): Promise<string[]> {
  const { manager, dir } = run;
  const resuming = resumeNotice(manager);
  const file = await selectedFile(record, selected);
  await run.ready();
  const progress = transferProgress(manager.output, `Downloading ${file.name}`, file.size);
  let present = false;
  let paths: string[];
  try {
    // One file goes through the same download as many: a name with `/` (raw/run1.h5)
    // becomes subfolders unless --flat, and the folders on the way are checked.
    paths = await record.downloadFiles(dir, {
      ...run.common,
      files: [file],
      onProgress: (update) => {
        resuming(file, update);
        progress.onProgress(update);
      },
      onPresent: () => present = true,
    });
  } finally {
    progress.done();
  }
  manager.output.info(
    present
      ? `Already here: '${paths[0]}' has the size and checksum of the file of the ${
        describe(record)
      }; nothing was downloaded`
      : `Downloaded '${paths[0]}' from the ${describe(record)}`,
  );
  return paths;
}

/**
 * Downloads the files of `record` matching `-P`/`-e`; returns their paths, none when no file
 * matches, and undefined when the person declined the download (the run stops).
 */
async function downloadMatching(
  run: DownloadRun,
  record: RepoRecord,
  options: GetFileOptions,
): Promise<string[] | undefined> {
  const { manager, dir } = run;
  const files = await matchingFiles(record, options);
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  const what = `${countFiles(files.length)}, ${formatBytes(bytes)}, of the ${describe(record)}`;
  if (files.length === 0) {
    manager.output.warning(`No file of the ${describe(record)} matches: nothing downloaded`);
    return [];
  }
  manager.output.info(`Downloading ${what} into '${dir}'`);
  const short = `${countFiles(files.length)} (${formatBytes(bytes)})`;
  if (run.everything && !await confirmAll(manager, run.command, short, files)) {
    // The person said no: not an error, and nothing was created.
    manager.output.info(
      `Nothing was downloaded from the ${describe(record)}: narrow it with -n or -P, or ` +
        "add -y/--yes to download every file without the question",
    );
    return undefined;
  }
  await run.ready();
  const { paths, present, summary } = await downloadWithProgress(run, record, files, bytes);
  manager.output.info(
    `Downloaded ${summary(paths.length - present)} from the ${describe(record)}${
      present > 0 ? `; ${present} already here` : ""
    }`,
  );
  return paths;
}

/**
 * Downloads `files` of `record` with one bar for all and a line per file; returns the paths, how
 * many were there already, and the bar's `n files, size`. Interrupted, it says how many are here.
 */
async function downloadWithProgress(
  run: DownloadRun,
  record: RepoRecord,
  files: FileJson[],
  bytes: number,
): Promise<{ paths: string[]; present: number; summary: (files: number) => string }> {
  const { manager, dir } = run;
  const resuming = resumeNotice(manager);
  const progress = filesProgress(manager.output, "Downloading", { bytes, files: files.length });
  let present = 0;
  let downloaded = 0;
  try {
    const paths = await record.downloadFiles(dir, {
      ...run.common,
      files,
      onProgress: (update) => {
        resuming(update.file, update);
        progress.onProgress(update.file.id, update);
      },
      onFile: (path) => {
        downloaded++;
        progress.fileDone();
        // One short line per file: its path in the folder (the folder is named above).
        manager.output.fileLine(`Downloaded '${relative(dir, path)}'`);
      },
      onPresent: (path, file) => {
        present++;
        // Counted as done, not toward the rate: nothing was transferred.
        progress.onProgress(file.id, { bytes: file.size, resumed: file.size });
        progress.fileDone();
        manager.output.fileLine(`Already here: '${relative(dir, path)}'`);
      },
    });
    return { paths, present, summary: (count) => progress.summary(count) };
  } catch (error) {
    if (manager.signal?.aborted !== true) throw error;
    // The interrupt line says what is complete: those files are kept.
    throw new CompletedBeforeInterrupt(
      `${downloaded + present} of ${countFiles(files.length)} ${
        downloaded + present === 1 ? "is" : "are"
      } here${present > 0 ? ` (${present} already before this run)` : ""}`,
      error,
    );
  } finally {
    progress.done();
  }
}

/** Says once per file that a download resumes from a partial file of an earlier run. */
function resumeNotice(manager: CLIRepoManager) {
  const said = new Set<string>();
  return (file: FileJson, update: { resumed?: number | undefined }) => {
    if (said.has(file.id) || (update.resumed ?? 0) <= 0) return;
    said.add(file.id);
    manager.output.info(
      `Resuming the download of '${file.name}': ${formatBytes(update.resumed!)} of ${
        formatBytes(file.size)
      } already here`,
    );
  };
}

/** Creates the download folder (and its parents) like `export` does; a file there is an error. */
async function ensureFolder(dir: string): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch (error) {
    if (
      !(error instanceof Deno.errors.AlreadyExists || error instanceof Deno.errors.NotADirectory)
    ) {
      throw error;
    }
  }
  let info: Deno.FileInfo | undefined;
  try {
    info = await Deno.stat(dir);
  } catch {
    info = undefined;
  }
  if (info?.isDirectory !== true) {
    throw new InputError(
      `'${dir}' is not a folder: give a folder (or a new folder's path) with -p/--filepath`,
    );
  }
}

/** `get-file --dry-run`: lists what would be downloaded, and where. */
async function planDownload(
  manager: CLIRepoManager,
  record: RepoRecord,
  dir: string,
  options: { pattern: string; exclude_pattern?: string | undefined; useFolder?: true | undefined },
  selected: ReturnType<typeof fileIdValue>,
): Promise<{ files: number; bytes: number }> {
  const target = options.useFolder === true
    ? `${dir}/${(await record.meta()).identifier}/`
    : `${dir}/`;
  const wanted = globFilter(options.pattern, options.exclude_pattern);
  // Listed page by page as it arrives, not gathered first.
  const files = selected === undefined ? record.files() : [await selectedFile(record, selected)];
  let count = 0;
  let bytes = 0;
  for await (const file of files) {
    if (selected === undefined && !wanted(file.name)) continue;
    count++;
    bytes += file.size;
    dryRun(
      manager,
      `download '${file.name}' (${formatBytes(file.size)}) of the ${
        describe(record)
      } into '${target}'`,
    );
  }
  if (count === 0) manager.output.warning(`No file of the ${describe(record)} matches`);
  return { files: count, bytes };
}

/** The file `selected` names, by id or by name. */
function selectedFile(record: RepoRecord, selected: FileIdValue): Promise<FileJson> {
  return "fileId" in selected
    ? record.getFileInfo(selected.fileId)
    : record.getFileByName(selected.fileName);
}

/** The file `-n/--file-name` or `-i/--file-id` names (a usage error when neither is given). */
function fileOf(record: RepoRecord, options: object): Promise<FileJson> {
  // `required` throws the usage error when neither is given.
  return selectedFile(record, fileIdValue(asValues(options), { required: true })!);
}

/** `records delete-file`: deletes one file. */
export function deleteFileCommand(): CommandUnknownOpts {
  const command = fileIdOptions(recordOptions(
    new Command("delete-file").description("Delete a file of a record"),
  ));
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const file = await fileOf(record, options);
    if (dryRun(manager, `delete the file '${file.name}' of the ${describe(record)}`)) return;
    await record.deleteFile(file.id);
    manager.output.info(`Deleted the file '${file.name}' of the ${describe(record)}`);
  });
  return command;
}

/** `records delete-files`: deletes every file (needs `--i-am-sure`). */
export function deleteFilesCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("delete-files")
      .description("Delete all files of a record")
      .option("--i-am-sure", "Confirm deleting every file"),
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    if (isDryRun(manager)) {
      for await (const file of record.files()) {
        dryRun(manager, `delete the file '${file.name}' of the ${describe(record)}`);
      }
      return;
    }
    requireSure(options.iAmSure, "delete all files of the record");
    const count = await record.deleteAllFiles();
    manager.output.info(`Deleted ${count} file(s) of the ${describe(record)}`);
  });
  return command;
}

/** `records edit-file`: renames a file or changes its MIME type. */
export function editFileCommand(): CommandUnknownOpts {
  const command = fileIdOptions(recordOptions(
    new Command("edit-file")
      .description("Change the name or MIME type of a file of a record")
      .option("-a, --name <name>", "New name of the file (must not be used by another file)")
      .option("-m, --mimetype <mimetype>", "New MIME type, for example text/plain"),
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const file = await fileOf(record, options);
    const edited = await record.editFile(file.id, {
      name: options.name,
      mimetype: options.mimetype,
    });
    manager.output.info(
      `Edited the file '${edited.name}' (mimetype: ${edited.mimetype ?? "unknown"}) of the ${
        describe(record)
      }`,
    );
  });
  return command;
}
