// `misc import-eln`: a thin command over `importEln` of lib/import (the importer is loaded when
// the command runs, so building the help stays light).

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { ElnProgress } from "../../import/eln/errors.ts";
import { apyCommand } from "../apy_command.ts";
import { pathOption, transferProgress } from "./_records_common.ts";

/**
 * Builds `misc import-eln`: imports an `.eln` file (RO-Crate following the ELN file format) as
 * records with their files, extras, tags and links; `--dry-run` prints the plan only.
 *
 * @example Usage
 * ```ts
 * import { importElnCommand } from "./_misc_eln.ts";
 * console.log(importElnCommand().name()); // "import-eln"
 * ```
 *
 * @returns The command.
 */
export function importElnCommand(): CommandUnknownOpts {
  const command = new Command("import-eln")
    .description(
      "Import an RO-Crate file following the ELN file specification (records, files, extras, " +
        "tags, links, collection); a failed import leaves nothing behind",
    )
    .addOption(
      pathOption("-p, --path <path>", "Path of the .eln file", { type: "file" })
        .makeOptionMandatory(),
    )
    .option("--dry-run", "Print what would be created (records, files, links) and send nothing");
  apyCommand(command, async (manager, options) => {
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
    try {
      // A dry run reads the archive only (the transport is not touched): no settings needed.
      const result = await importEln(manager, options.path, { dryRun, onProgress });
      if (dryRun) {
        // importEln() hashed every file with a declared SHA-256 before it returned.
        for (const line of formatElnPlan(result.plan, { checksumsVerified: true })) {
          manager.printData(line);
        }
        return;
      }
      for (const warning of result.plan.warnings) manager.printWarning(warning);
      const where = result.collection
        ? ` into the collection '${result.collection.identifier}' (id: ${result.collection.id})`
        : "";
      manager.printInfo(`${formatElnSummary(result.totals, false)}${where}`);
    } finally {
      progress?.done();
    }
  }, { needsServer: (options) => options.dryRun !== true });
  return command;
}
