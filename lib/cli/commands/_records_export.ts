// `records export` and `export-metadata`: to files (optionally in a folder named after the
// record) or, for JSON, to stdout.

import {
  Command,
  type CommandUnknownOpts,
  Option,
  type OptionValues,
} from "@commander-js/extra-typings";
import { EXPORT_TYPES } from "../../http/protocol.ts";
import type { RecordExportType } from "../../model/record.ts";
import { apyCommand } from "../apy_command.ts";
import { InputError } from "../../errors.ts";
import { LocalFileError } from "../../transfer/errors.ts";
import type { ProgressCallback } from "../../transfer/progress.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import {
  describe,
  openRecords,
  pathOption,
  recordOptions,
  transferProgress,
} from "./_records_common.ts";

const RECORD_EXPORT_TYPES = Object.keys(EXPORT_TYPES.record) as RecordExportType[];

interface ExportValues {
  path: string;
  name?: string | undefined;
  force?: true | undefined;
  pipe?: true | undefined;
  useFolder?: true | undefined;
}

/** Adds the options of an export of `types`; the command it returns has their types. */
function exportOptions<
  Type extends string,
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>, types: readonly Type[], defaultName = "the identifier") {
  return recordOptions(
    command
      .addOption(
        new Option("-e, --export-type <type>", "Export type").choices(types).default("json"),
      )
      .addOption(
        pathOption("-p, --path <path>", "Folder (or file) to export to", { checked: true }).default(
          ".",
        ),
      )
      .addOption(
        new Option("-n, --name <name>", `File name without extension (default: ${defaultName})`),
      )
      .addOption(
        new Option(
          "-f, --force",
          "Overwrite an existing file (without it, an existing file fails)",
        ),
      )
      .addOption(new Option("-P, --pipe", "Print the export on stdout (json only)"))
      .addOption(
        new Option("-u, --use-folder", "Export into a folder named after the identifier"),
      ),
    { allowTokenlist: true },
  );
}

/** The library options of an export to a file (see {@linkcode saveExportFile}). */
export interface ExportFileValues {
  name?: string | undefined;
  force?: boolean | undefined;
  existing: "refuse";
  useFolder?: boolean | undefined;
  signal?: AbortSignal | undefined;
  onProgress: ProgressCallback;
}

/**
 * Runs one export to a file with the library options of `-n`, `-f`, `-u`, the interrupt signal
 * and a progress line, shared by every export command: the library joins the server's identifier
 * into the path (sanitised), never the CLI. An existing file is not replaced without `-f`: the
 * export is not requested and the command fails (exit 1), as in the reference client.
 */
export async function saveExportFile(
  manager: CLIRepoManager,
  id: number,
  values: { name?: string | undefined; force?: true | undefined; useFolder?: true | undefined },
  write: (options: ExportFileValues) => Promise<string>,
): Promise<string> {
  const progress = transferProgress(manager.output, `Exporting ${id}`);
  try {
    return await write({
      name: values.name,
      force: values.force,
      existing: "refuse",
      useFolder: values.useFolder,
      signal: manager.signal,
      onProgress: progress.onProgress,
    });
  } catch (error) {
    if (error instanceof LocalFileError && error.cause instanceof Deno.errors.AlreadyExists) {
      throw new InputError(
        `A file with the name '${error.path}' already exists. File '${error.path}' was not ` +
          "replaced. Use '-f' to force overwriting existing file.",
      );
    }
    throw error;
  } finally {
    progress.done();
  }
}

/** Copies an export stream to stdout, ending with a newline. */
export async function pipeStream(manager: CLIRepoManager, stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let last = "";
  for await (const chunk of stream) {
    const text = decoder.decode(chunk, { stream: true });
    if (text !== "") {
      manager.output.writeOut(text);
      last = text;
    }
  }
  const rest = decoder.decode();
  if (rest !== "") {
    manager.output.writeOut(rest);
    last = rest;
  }
  if (!last.endsWith("\n")) manager.output.writeOut("\n");
}

/** `records export`: exports records as json, pdf, qr, rdf or ro-crate. */
export function exportRecordCommand(): CommandUnknownOpts {
  const command = exportOptions(
    new Command("export").description("Export records (json, pdf, qr, rdf or ro-crate)"),
    RECORD_EXPORT_TYPES,
  );
  apyCommand(command, exportRecord);
  return command;
}

/** The options of `records export`. */
interface ExportRecordOptions {
  exportType: RecordExportType;
  path: string;
  name?: string;
  force?: true;
  pipe?: true;
  useFolder?: true;
}

/** Runs `records export`. */
async function exportRecord(manager: CLIRepoManager, options: ExportRecordOptions): Promise<void> {
  const values: ExportValues & { exportType: RecordExportType } = options;
  const type = values.exportType;
  if (values.pipe === true && type !== "json") {
    // Exit 1, as the Python client (its exit code wins over the usage code 2).
    throw new InputError(`-P/--pipe only works with the json export, not '${type}'`);
  }
  for (const record of await openRecords(manager, options)) {
    if (values.pipe === true) {
      await pipeStream(manager, await record.exportStream("json"));
      continue;
    }
    const path = await saveExportFile(
      manager,
      record.id,
      values,
      (options) => record.export(values.path, type, options),
    );
    manager.output.info(`Exported the ${describe(record)} as ${type} to '${path}'`);
  }
}

/** `records export-metadata`: exports the extra metadata as JSON. */
export function exportMetadataCommand(): CommandUnknownOpts {
  const command = exportOptions(
    new Command("export-metadata").description("Export the extra metadata of records as JSON"),
    ["json"],
    "<identifier>-extras",
  );
  apyCommand(command, exportMetadata);
  return command;
}

/** The options of `records export-metadata`. */
interface ExportMetadataOptions {
  exportType: "json";
  path: string;
  name?: string;
  force?: true;
  pipe?: true;
  useFolder?: true;
}

/** Runs `records export-metadata`. */
async function exportMetadata(
  manager: CLIRepoManager,
  options: ExportMetadataOptions,
): Promise<void> {
  const values: ExportValues = options;
  for (const record of await openRecords(manager, options)) {
    if (values.pipe === true) {
      await pipeStream(manager, await record.exportMetadataStream());
      continue;
    }
    const path = await saveExportFile(
      manager,
      record.id,
      values,
      (options) => record.exportMetadata(values.path, options),
    );
    manager.output.info(`Exported the metadata of the ${describe(record)} to '${path}'`);
  }
}
