/**
 * The `templates` group: create, edit, inspect, delete and export templates (record templates
 * and extras templates) and manage their roles.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { changing } from "../_command_kind.ts";
import { addCommands } from "./_group.ts";
import {
  createResourceCommand,
  deleteResourceCommand,
  editResourceCommand,
} from "./_resources_basic.ts";
import { exportResourceCommand } from "./_resources_export.ts";
import { roleCommands } from "./_roles.ts";
import { getTemplatesCommand } from "./_resources_search.ts";
import { showResourceCommand } from "./_resources_show.ts";

/**
 * Builds the `templates` group with the reference client's commands (`create`, `edit` whose
 * title flag is `-i/--title`, `show-info`, `get-templates`, `export` with `-e/--export_type`, …).
 */
export function templatesCommand(group: Command): Command {
  return addCommands(group, [
    ...changing(
      () => createResourceCommand("template"),
      () => editResourceCommand("template"),
    ),
    () => showResourceCommand("template"),
    ...changing(
      () => deleteResourceCommand("template"),
      ...roleCommands("template"),
    ),
    getTemplatesCommand,
    ...changing(
      () => exportResourceCommand("template"),
    ),
  ], EXAMPLES);
}

const EXAMPLES: { [command: string]: string[] } = {
  "create": [
    `repo-apy templates create -i sample-extras -y extras -d '[{"key": "temperature", "type": "float"}]'`,
    `repo-apy templates create -i sample-record -d '{"title": "Sample", "tags": ["raw"]}' -p`,
  ],
  "edit": ['repo-apy templates edit -T sample-extras -i "Sample extras"   # -i is the title here'],
  "show-info": ["repo-apy templates show-info -T sample-extras -a"],
  "export": [
    "repo-apy templates export -T sample-extras -e json-schema -P | jq .",
    "repo-apy templates export -T sample-extras --export_type shacl -p exports/",
  ],
};
