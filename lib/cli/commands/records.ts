/**
 * The `records` group: create, edit, inspect and delete records, transfer their files, manage
 * their metadata, links, tags and roles, search them and export them.
 *
 * Data (ids, fields, lists, `--json`, piped exports) goes to stdout; status messages, warnings,
 * errors and progress bars (on a terminal only) go to stderr. Exit codes: 0 success, 1 the operation
 * failed, 2 wrong usage.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { changing } from "../_command_kind.ts";
import { addCommands } from "./_group.ts";
import {
  createRecordCommand,
  deleteRecordCommand,
  editRecordCommand,
  showInfoCommand,
} from "./_records_basic.ts";
import { exportMetadataCommand, exportRecordCommand } from "./_records_export.ts";
import {
  addFilesCommand,
  addStringAsFileCommand,
  deleteFileCommand,
  deleteFilesCommand,
  editFileCommand,
  getFileCommand,
} from "./_records_files.ts";
import {
  addCollectionLinkCommand,
  addRecordLinkCommand,
  deleteRecordLinkCommand,
  removeCollectionLinkCommand,
  showRecordLinksCommand,
  updateRecordLinkCommand,
} from "./_records_links.ts";
import {
  addMetadataCommand,
  addMetadatumCommand,
  deleteAllMetadataCommand,
  deleteMetadatumCommand,
  getMetadatumCommand,
} from "./_records_metadata.ts";
import { roleCommands, tagCommands } from "./_roles.ts";
import { syncCommand } from "./_records_sync.ts";
import { getRecordIdsCommand, getRecordsCommand } from "./_records_search.ts";

/**
 * Builds the `records` group with all its commands (`create`, `edit`, `show-info`, `add-files`,
 * `get-file`, `add-metadatum`, `get-records`, `export`, …).
 *
 * @example Usage
 * ```ts
 * import { recordsCommand } from "./records.ts";
 * import { createGroup } from "./_group.ts";
 * const names = recordsCommand(createGroup("records", "Manage records")).commands.map((command) => command.name());
 * console.log(names.includes("add-files"), names.includes("get-record-ids")); // true true
 * ```
 */
export function recordsCommand(group: Command): Command {
  return addCommands(group, [
    ...changing(
      createRecordCommand,
      editRecordCommand,
    ),
    showInfoCommand,
    ...changing(
      addFilesCommand,
      addStringAsFileCommand,
      getFileCommand,
      syncCommand,
      deleteFileCommand,
      deleteFilesCommand,
      editFileCommand,
      addMetadatumCommand,
      addMetadataCommand,
    ),
    getMetadatumCommand,
    ...changing(
      deleteMetadatumCommand,
      deleteAllMetadataCommand,
      addRecordLinkCommand,
      deleteRecordLinkCommand,
      updateRecordLinkCommand,
    ),
    showRecordLinksCommand,
    ...changing(
      addCollectionLinkCommand,
      removeCollectionLinkCommand,
      ...tagCommands("record"),
      ...roleCommands("record"),
      deleteRecordCommand,
    ),
    getRecordsCommand,
    getRecordIdsCommand,
    ...changing(
      exportRecordCommand,
      exportMetadataCommand,
    ),
  ], EXAMPLES);
}

/** Usage examples shown at the end of `--help` of the most used commands. */
const EXAMPLES: { [command: string]: string[] } = {
  "create": [
    'repo-apy records create -i sample-17 -t "Sample 17" -p   # prints the id',
  ],
  "add-files": [
    'repo-apy records add-files -R sample-17 -n data/run3.h5 -d "Raw data"',
    "repo-apy records add-files -R sample-17 -n data/ -p '*.h5' -e '*tmp*' -f",
    "repo-apy records add-files -R sample-17 -n data/ --recursive   # names like raw/run1.h5",
  ],
  "get-file": [
    "repo-apy records get-file -R sample-17 -n run3.h5 -p out/",
    "repo-apy records get-file -R sample-17 -P '*.h5' -p out/ -u -E   # prints the written paths",
  ],
  "add-metadatum": [
    "repo-apy records add-metadatum -R sample-17 -m temperature -v 21.5 -t float -u degC",
  ],
  "add-metadata": [
    `repo-apy records add-metadata -R sample-17 -m '[{"key": "operator", "type": "str", "value": "jdoe"}]'`,
  ],
  "get-metadatum": [
    "repo-apy records get-metadatum -R sample-17 -n settings.voltage -i unit",
    "repo-apy records get-metadatum -R sample-17 -n conditions.2.value -d n/a",
  ],
  "get-records": [
    "repo-apy records get-records -q temperature -t calibrated,2026 -T and -n 50",
  ],
  "get-record-ids": [
    "repo-apy records get-record-ids -c 12 -C -p   # ids of records in collection 12 and its children",
  ],
  "export": [
    "repo-apy records export -R sample-17 -e ro-crate -p exports/ -u",
    "repo-apy records export -R sample-17 -P | jq .extras",
  ],
};
