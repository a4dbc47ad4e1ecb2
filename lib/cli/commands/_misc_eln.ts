// `misc import-eln`: a thin command over `importEln` of lib/import (the importer is loaded when
// the command runs, so building the help stays light).

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { ElnImportError, type ElnProgress } from "../../import/eln/errors.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { type CliContext, contextOf } from "../_context.ts";
import { EXIT, ExitError } from "../_errors.ts";
import type { Output } from "../output.ts";
import { pathOption, transferProgress } from "./_records_common.ts";

/**
 * Builds `misc import-eln`: imports an `.eln` file (RO-Crate following the ELN file format) as
 * records with their files, extras, tags and links; `--dry-run` prints the plan only.
 */
export function importElnCommand(): CommandUnknownOpts {
  const command = new Command("import-eln")
    .description(
      "Import an RO-Crate file following the ELN file specification (records, files, extras, " +
        "tags, links, collection); a failed import leaves nothing behind",
    )
    .addOption(
      pathOption("-p, --path <path>", "Path of the .eln file", { type: "file", checked: true })
        .makeOptionMandatory(),
    )
    .option("--dry-run", "Print what would be created (records, files, links) and send nothing");
  apyCommand(command, (manager, options) => runImportEln(manager, options, command), {
    needsServer: (options) => options.dryRun !== true,
  });
  return command;
}

/** The options of `misc import-eln`. */
interface ImportElnCommandOptions {
  path: string;
  dryRun?: true;
}

/** Runs `misc import-eln`. */
async function runImportEln(
  manager: CLIRepoManager,
  options: ImportElnCommandOptions,
  command: CommandUnknownOpts,
): Promise<void> {
  const { importEln } = await import("../../import/eln/import_eln.ts");
  const { formatElnPlan, formatElnSummary } = await import("../../import/eln/format_eln.ts");
  const dryRun = options.dryRun === true;
  let progress: ReturnType<typeof transferProgress> | undefined;
  const onProgress = (update: ElnProgress) => {
    progress ??= transferProgress(
      manager.output,
      `Importing ${options.path}`,
      update.totals.bytes,
    );
    progress.onProgress({ bytes: update.bytes });
  };
  // The interrupt cancels the import, not the transport: the import's requests go through a
  // manager without the interrupt signal, so the rollback can still delete and purge what this
  // run created.
  const { signal } = manager;
  await using importer = signal === undefined || dryRun
    ? undefined
    : await unsignalledManager(manager, contextOf(command as CommandUnknownOpts));
  try {
    // A dry run reads the archive only (the transport is not touched): no settings needed.
    const result = await importEln(importer ?? manager, options.path, {
      dryRun,
      onProgress,
      signal,
    }).catch((error) => {
      if (signal?.aborted === true && error instanceof ElnImportError) {
        throw interrupted(manager.output, error);
      }
      throw error;
    });
    if (dryRun) {
      // importEln() hashed every file with a declared SHA-256 before it returned.
      for (const line of formatElnPlan(result.plan, { checksumsVerified: true })) {
        manager.output.text(line);
      }
      return;
    }
    for (const warning of result.plan.warnings) manager.output.warning(warning);
    const where = result.collection
      ? ` into the collection '${result.collection.identifier}' (id: ${result.collection.id})`
      : "";
    manager.output.info(`${formatElnSummary(result.totals, false)}${where}`);
  } finally {
    progress?.done();
  }
}

/**
 * A manager with the settings `manager` resolved and the run's other options, but without the
 * interrupt signal.
 */
async function unsignalledManager(
  manager: CLIRepoManager,
  context: CliContext,
): Promise<CLIRepoManager> {
  const { CLIRepoManager } = await import("../cli_manager.ts");
  const { signal: _signal, ...options } = context.managerOptions;
  const { instance: _instance, sources: _sources, ...settings } = await manager.settings();
  return new CLIRepoManager({ ...options, ...settings, output: manager.output });
}

/** Says what the interrupted import left (normally nothing active) and ends with exit 130. */
function interrupted(output: Output, error: ElnImportError): ExitError {
  const { created } = error;
  output.error(
    error.leftOver.length > 0
      ? `Interrupted: these could not be moved to the trash and are still active: ${
        error.leftOver.join(", ")
      }; delete them before running the same command again`
      : created === 0
      ? "Interrupted: the import had created nothing yet; run the same command again to import " +
        "the archive"
      : error.trashed.length > 0
      ? `Interrupted: what this import had created was deleted, but these stay in the trash ` +
        `(purging failed): ${error.trashed.join(", ")}; purge them ('repo-apy misc ` +
        "purge-resource') so that running the same command again gets the same identifiers"
      : `Interrupted: what this import had created (${created} resource(s)) was deleted for ` +
        "good; run the same command again to import the archive",
  );
  return new ExitError(EXIT.interrupted);
}
