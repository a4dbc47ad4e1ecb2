// `records add-files`, `add-string-as-file`, `get-file`, `delete-file`, `delete-files` and
// `edit-file`.

import { basename } from "node:path";
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { InputError, RepoApyError } from "../../http/errors.ts";
import type { FileJson } from "../../http/protocol.ts";
import { FilesExistError, type UploadFilesDone, UploadFilesError } from "../../transfer/errors.ts";
import type { RepoRecord } from "../../transfer/record.ts";
import type {
  UploadFilesOptions,
  UploadFilesPlan,
  UploadFilesProgress,
} from "../../transfer/upload_files.ts";
import { formatBytes } from "../output.ts";
import { apyCommand, dryRun, dryRunOption, isDryRun } from "../apy_command.ts";
import { globFilter } from "../../utils/glob.ts";
import { UsageError } from "../_errors.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { fileIdOptions, type FileIdValue, fileIdValue, parseInteger } from "../options.ts";
import {
  asValues,
  describe,
  isStatus,
  openRecord,
  openRecords,
  pathOption,
  recordOptions,
  requireSure,
  status,
  transferProgress,
} from "./_records_common.ts";

function existsAlready(record: RepoRecord, names: string[], folder = false): RepoApyError {
  const list = names.map((name) => `'${name}'`).join(", ");
  return new RepoApyError(
    `The ${describe(record)} already has ${
      names.length === 1 ? "a file named" : "files named"
    } ${list}: add -f/--force to replace ${names.length === 1 ? "it" : "them"}${
      folder ? ", or --skip-existing to skip files with the same content" : ""
    }`,
  );
}

/** One progress bar for the files of an upload (several may be in flight at once). */
function uploadProgress(manager: CLIRepoManager, label: string, total: number) {
  const bar = transferProgress(manager.output, label, total);
  const sent = new Map<string, number>();
  let bytes = 0;
  let resumed = 0;
  return {
    onProgress(update: UploadFilesProgress) {
      const path = update.file.path;
      if (!sent.has(path) && (update.resumed ?? 0) > 0) {
        manager.printInfo(
          `Resuming the upload of '${update.file.name}': ${formatBytes(update.resumed!)} of ${
            formatBytes(update.file.size)
          } already on the server`,
        );
        resumed += update.resumed!;
      }
      // A running total: re-adding every file's bytes on each update is quadratic in a folder.
      bytes += update.bytes - (sent.get(path) ?? 0);
      sent.set(path, update.bytes);
      bar.onProgress({ bytes, resumed });
    },
    done: () => bar.done(),
  };
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
    throw addFilesError(record, error, options.folder);
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
    manager.printInfo(
      `Would skip '${file.name}': the ${describe(record)} has it with the same content`,
    );
  }
  if (plan.upload.length + plan.skip.length === 0) {
    manager.printWarning(`No file in the folder '${path}' matches`);
  }
}

/** `records add-files`: uploads a file, or the files of a folder (not recursive). */
export function addFilesCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("add-files")
      .description(
        "Upload a file, or the files of a folder (with --recursive its whole tree), to a record",
      )
      .addOption(
        pathOption("-n, --file-name <path>", "Path of the file or folder to upload")
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
        "Leave out files the record already has with the same name and content",
      )
      .option(
        "--concurrency <n>",
        "Small files uploaded at once",
        (value) => parseInteger(value, { min: 1 }),
        16,
      ),
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    await record.meta();
    const label = describe(record);
    const path = options.fileName;
    // Loaded when the command runs: building the help loads no transfer code (fast start-up).
    const { statUploadPath } = await import("../../transfer/upload_files.ts");
    const info = await statUploadPath(path);
    const folder = info.isDirectory;
    if (folder && options.fileDescription !== undefined) {
      throw new UsageError("-d/--file-description only works with a single file, not a folder");
    }
    const choice: UploadFilesOptions = {
      pattern: options.pattern,
      ...(options.exclude_pattern === undefined ? {} : { excludePattern: options.exclude_pattern }),
      ...(options.force === true ? { force: true } : {}),
      ...(options.skipExisting === true ? { skipExisting: true } : {}),
      ...(options.recursive === true ? { recursive: true } : {}),
      ...(options.followSymlinks === true ? { followSymlinks: true } : {}),
      onWarning: (message: string) => manager.printWarning(message),
    };
    if (options.followSymlinks === true && options.recursive !== true) {
      throw new UsageError("--follow-symlinks only works with --recursive");
    }
    if (isDryRun(manager)) {
      await planUpload(manager, record, path, { ...choice, folder });
      return;
    }
    const progress = uploadProgress(manager, `Uploading ${basename(path)}`, folder ? 0 : info.size);
    let result: UploadFilesDone;
    try {
      result = await record.uploadFiles(path, {
        ...choice,
        concurrency: options.concurrency,
        onProgress: progress.onProgress,
        onFile: ({ uploaded, skipped }) =>
          manager.printInfo(
            skipped
              ? `Skipped '${uploaded.name}': the ${label} has it with the same content`
              : `Uploaded '${uploaded.name}' (id: ${uploaded.id}) to the ${label}`,
          ),
        ...(options.fileDescription === undefined
          ? {}
          : { fileDescription: options.fileDescription }),
      });
    } catch (error) {
      throw addFilesError(record, error, folder);
    } finally {
      progress.done();
    }
    const { uploaded, skipped } = result;
    if (uploaded.length + skipped.length === 0) {
      manager.printWarning(`No file in the folder '${path}' matches: nothing was uploaded`);
    } else if (folder) {
      manager.printInfo(
        `Uploaded ${uploaded.length} file(s) to the ${label}${
          skipped.length > 0 ? `, skipped ${skipped.length} already there` : ""
        }`,
      );
    }
  });
  return command;
}

/** Turns the library's errors of `add-files` into messages in CLI terms. */
function addFilesError(record: RepoRecord, error: unknown, folder: boolean): unknown {
  if (error instanceof FilesExistError) return existsAlready(record, error.names, folder);
  if (!(error instanceof UploadFilesError)) return error;
  const cause = error.cause;
  if (error.path !== undefined && isStatus(cause, 409)) {
    return existsAlready(record, [basename(error.path)], folder);
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
    }: run the same command again with --skip-existing to continue`,
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
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    await record.meta();
    const label = describe(record);
    let file: FileJson;
    try {
      file = await record.uploadString(
        options.string,
        options.fileName,
        options.force === true ? { force: true } : {},
      );
    } catch (error) {
      if (isStatus(error, 409)) throw existsAlready(record, [options.fileName]);
      throw error;
    }
    manager.printInfo(`Uploaded '${file.name}' (id: ${file.id}) to the ${label}`);
  });
  return command;
}

/** One progress bar for the files in flight of a multi-file download (no total: lazily listed). */
function filesProgress(manager: CLIRepoManager, record: RepoRecord) {
  const progress = transferProgress(manager.output, `Downloading files of the ${describe(record)}`);
  const seen = new Map<string, number>();
  let bytes = 0;
  return {
    onProgress(update: { file: FileJson; bytes: number }) {
      bytes += update.bytes - (seen.get(update.file.id) ?? 0);
      seen.set(update.file.id, update.bytes);
      progress.onProgress({ bytes });
    },
    done: () => progress.done(),
  };
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
      .option("-E, --pipe", "Print the written paths as a comma-separated list on stdout"),
    { allowTokenlist: true },
  ));
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const dir = options.filepath;
    const selected = fileIdValue(asValues(options));
    const records = await openRecords(manager, options);
    if (isDryRun(manager)) {
      for (const record of records) await planDownload(manager, record, dir, options, selected);
      return;
    }
    await ensureFolder(dir);
    const common = {
      keepPartial: true,
      onWarning: (message: string) => manager.printWarning(message),
      ...(options.useFolder === true ? { useFolder: true } : {}),
      ...(options.force === true ? { force: true } : {}),
      ...(options.flat === true ? { flat: true } : {}),
      ...(manager.signal === undefined ? {} : { signal: manager.signal }),
    };
    const written: string[] = [];
    for (const record of records) {
      let paths: string[];
      if (selected !== undefined) {
        const file = await selectedFile(record, selected);
        const progress = transferProgress(manager.output, `Downloading ${file.name}`, file.size);
        try {
          paths = [
            await record.downloadFile(file.id, `${dir}/`, {
              ...common,
              file,
              onProgress: progress.onProgress,
            }),
          ];
        } finally {
          progress.done();
        }
      } else {
        const progress = filesProgress(manager, record);
        try {
          paths = await record.downloadFiles(dir, {
            ...common,
            pattern: options.pattern,
            onProgress: progress.onProgress,
            ...(options.exclude_pattern === undefined
              ? {}
              : { excludePattern: options.exclude_pattern }),
          });
        } finally {
          progress.done();
        }
        if (paths.length === 0) {
          manager.printWarning(`No file of the ${describe(record)} matches: nothing downloaded`);
        }
      }
      for (const path of paths) {
        status(manager, options.pipe, `Downloaded '${path}' from the ${describe(record)}`);
      }
      written.push(...paths);
    }
    if (options.pipe === true) manager.echo(written.join(","));
  });
  return command;
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
): Promise<void> {
  const target = options.useFolder === true
    ? `${dir}/${(await record.meta()).identifier}/`
    : `${dir}/`;
  const wanted = globFilter(options.pattern, options.exclude_pattern);
  // Listed page by page as it arrives, not gathered first.
  const files = selected === undefined ? record.files() : [await selectedFile(record, selected)];
  let count = 0;
  for await (const file of files) {
    if (selected === undefined && !wanted(file.name)) continue;
    count++;
    dryRun(
      manager,
      `download '${file.name}' (${formatBytes(file.size)}) of the ${
        describe(record)
      } into '${target}'`,
    );
  }
  if (count === 0) manager.printWarning(`No file of the ${describe(record)} matches`);
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
    manager.printInfo(`Deleted the file '${file.name}' of the ${describe(record)}`);
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
    manager.printInfo(`Deleted ${count} file(s) of the ${describe(record)}`);
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
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.mimetype === undefined ? {} : { mimetype: options.mimetype }),
    });
    manager.printInfo(
      `Edited the file '${edited.name}' (mimetype: ${edited.mimetype ?? "unknown"}) of the ${
        describe(record)
      }`,
    );
  });
  return command;
}
