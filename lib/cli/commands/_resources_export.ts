// `collections export` and `templates export`: to a file (optionally in a folder named after the
// identifier) or, for the JSON types, to stdout.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { EXPORT_TYPES } from "../../http/protocol.ts";
import { apyCommand, type ApyOptions } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { pipeStream, saveExportFile } from "./_records_export.ts";
import { pathOption } from "./_records_common.ts";
import { openResource, resourceOptions } from "./_resources_common.ts";
import { InputError } from "../../errors.ts";

/** Export types that may be piped to stdout (text the terminal can take). */
const PIPEABLE = ["json", "json-schema"];

/**
 * `<type> export`. Templates spell the type flag `-e/--export_type` (the reference client's
 * spelling; `--export-type` works too), collections `-e/--export-type`.
 */
export function exportResourceCommand(type: "collection" | "template"): CommandUnknownOpts {
  const types = Object.keys(EXPORT_TYPES[type]);
  const pipeable = types.filter((name) => PIPEABLE.includes(name));
  const typeFlag = type === "template" ? "--export_type" : "--export-type";
  const command = resourceOptions(
    new Command("export")
      .description(`Export a ${type} (${types.join(", ")})`)
      .addOption(
        new Option(`-e, ${typeFlag} <type>`, "Export type").choices(types).default("json"),
      )
      .addOption(
        pathOption("-p, --path <path>", "Folder (or file) to export to", { checked: true }).default(
          ".",
        ),
      )
      .option("-n, --name <name>", "File name without extension (default: the identifier)")
      .option("-f, --force", "Overwrite an existing file (without it, an existing file fails)")
      .option("-P, --pipe", `Print the export on stdout (${pipeable.join(" or ")} only)`)
      .option("-u, --use-folder", "Export into a folder named after the identifier"),
    type,
  );
  apyCommand(command, (manager, options) => runExportResource(manager, options, type, pipeable));
  return command;
}

/** Exports the resource to a file, or pipes it (`pipeable`: the types `-P` takes). */
async function runExportResource(
  manager: CLIRepoManager,
  options: ApyOptions,
  type: "collection" | "template",
  pipeable: readonly string[],
): Promise<void> {
  const values = options as ApyOptions & {
    exportType?: string;
    export_type?: string;
    path: string;
    name?: string;
    force?: true;
    pipe?: true;
    useFolder?: true;
  };
  const exportType = values.exportType ?? values.export_type ?? "json";
  if (values.pipe === true && !pipeable.includes(exportType)) {
    // Exit 1, as the Python client (its exit code wins over the usage code 2).
    throw new InputError(
      `-P/--pipe only works with the ${pipeable.join(" and ")} exports, not '${exportType}'`,
    );
  }
  // `-e` has been checked against the type's export types (the library checks them again).
  // Imported here, not at the top: building the command tree (help) needs no transfer code.
  const { exportResource, exportStream } = await import("../../transfer/export.ts");
  const resource = await openResource(manager, type, options);
  if (values.pipe === true) {
    const signal = manager.signal;
    await pipeStream(manager, await exportStream(resource, { signal, exportType }));
    return;
  }
  const path = await saveExportFile(
    manager,
    resource.id,
    values,
    (fileOptions) => exportResource(resource, values.path, { ...fileOptions, exportType }),
  );
  manager.output.info(`Exported the ${resource} as ${exportType} to '${path}'`);
}
