/**
 * The `misc` group (alias `miscellaneous`): the trash, licenses, roles, tags and the instance
 * information.
 *
 * @module
 */

import type { Command, CommandUnknownOpts } from "@commander-js/extra-typings";
import { changing } from "../_command_kind.ts";
import { addCommands } from "./_group.ts";
import { getLicensesCommand, getRolesCommand, getTagsCommand } from "./_misc_lists.ts";
import {
  getDeletedResourcesCommand,
  purgeResourceCommand,
  restoreResourceCommand,
} from "./_misc_trash.ts";
import { getRepoInfoCommand } from "./_repo_info.ts";
import { MISC_IMPORT_COMMANDS } from "./_misc_imports.ts";
import { importElnCommand } from "./_misc_eln.ts";

/**
 * The import commands (`import-eln`, `import-json-schema`, `import-shacl`, `reuse-collection`)
 * are built in their own file and registered here: add their builders to this list.
 */
const IMPORT_COMMANDS: readonly (() => CommandUnknownOpts)[] = [
  importElnCommand,
  ...MISC_IMPORT_COMMANDS,
];

/**
 * Builds the `misc` group: `get-repo-info`, `get-deleted-resources`, `restore-resource`,
 * `purge-resource`, `get-licenses`, `get-roles`, `get-tags` (and the import commands).
 */
export function miscCommand(group: Command): Command {
  return addCommands(group, [
    getRepoInfoCommand,
    getDeletedResourcesCommand,
    ...changing(
      restoreResourceCommand,
      purgeResourceCommand,
    ),
    getLicensesCommand,
    getRolesCommand,
    getTagsCommand,
    ...changing(
      ...IMPORT_COMMANDS,
    ),
  ], EXAMPLES);
}

const EXAMPLES: { [command: string]: string[] } = {
  "get-deleted-resources": ["repo-apy misc get-deleted-resources -f sample"],
  "restore-resource": ["repo-apy misc restore-resource -t record -i 17"],
  "purge-resource": ["repo-apy misc purge-resource -t template -i 4"],
  "get-roles": ["repo-apy misc get-roles -t collection"],
  "get-tags": ["repo-apy misc get-tags -t record -f calib"],
  "import-eln": [
    "repo-apy misc import-eln -p experiment.eln --dry-run",
    "repo-apy misc import-eln -p experiment.eln",
  ],
};
