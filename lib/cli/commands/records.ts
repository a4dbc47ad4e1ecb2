/**
 * The `records` group: create, edit, inspect and delete records, transfer their files, manage
 * their metadata, links, tags and roles, search them and export them.
 *
 * Data (ids, token lists, `--json`, piped exports) goes to stdout; warnings, errors and
 * progress bars (on a terminal only) go to stderr. Exit codes: 0 success, 1 the operation
 * failed, 2 wrong usage.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { createGroup } from "./_group.ts";
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
import {
  addGroupRoleCommand,
  addTagCommand,
  addUserCommand,
  removeGroupRoleCommand,
  removeTagCommand,
  removeUserCommand,
} from "./_records_roles.ts";
import { getRecordIdsCommand, getRecordsCommand } from "./_records_search.ts";

/**
 * Builds the `records` group with all its commands (`create`, `edit`, `show-info`, `add-files`,
 * `get-file`, `add-metadatum`, `get-records`, `export`, …).
 *
 * @example Usage
 * ```ts
 * import { recordsCommand } from "./records.ts";
 * const names = recordsCommand().commands.map((command) => command.name());
 * console.log(names.includes("add-files"), names.includes("get-record-ids")); // true true
 * ```
 *
 * @returns The group.
 */
export function recordsCommand(): Command {
  const group = createGroup("records", "Manage records");
  for (
    const build of [
      createRecordCommand,
      editRecordCommand,
      showInfoCommand,
      addFilesCommand,
      addStringAsFileCommand,
      getFileCommand,
      deleteFileCommand,
      deleteFilesCommand,
      editFileCommand,
      addMetadatumCommand,
      addMetadataCommand,
      getMetadatumCommand,
      deleteMetadatumCommand,
      deleteAllMetadataCommand,
      addRecordLinkCommand,
      deleteRecordLinkCommand,
      updateRecordLinkCommand,
      showRecordLinksCommand,
      addCollectionLinkCommand,
      removeCollectionLinkCommand,
      addTagCommand,
      removeTagCommand,
      addUserCommand,
      removeUserCommand,
      addGroupRoleCommand,
      removeGroupRoleCommand,
      deleteRecordCommand,
      getRecordsCommand,
      getRecordIdsCommand,
      exportRecordCommand,
      exportMetadataCommand,
    ]
  ) {
    group.addCommand(build());
  }
  return group;
}
