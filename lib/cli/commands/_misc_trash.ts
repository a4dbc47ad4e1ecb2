// `misc get-deleted-resources`, `restore-resource` and `purge-resource`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { apyCommand, type ApyOptions, dryRun, dryRunOption, isDryRun } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { inTrash, inTrashOnly, notInTrash } from "../_not_found.ts";
import { parseInteger } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { terminalLine } from "../_terminal_text.ts";
import { filteredListCommand } from "./_filtered_list.ts";

/** Resource types with a trash. */
const TRASH_TYPES = ["record", "collection", "template", "group"] as const;

/** `misc get-deleted-resources`: one page of your deleted resources, or all with `--json`. */
export function getDeletedResourcesCommand(): CommandUnknownOpts {
  return filteredListCommand({
    name: "get-deleted-resources",
    description: "List your deleted resources (the trash), newest deletion first",
    filterHelp: "Filter by identifier",
    json: "the deleted resources",
    what: "deleted resource(s)",
    page: (manager, query) => manager.misc.getDeletedResources(query),
    all: (manager, query) => manager.misc.deletedResources(query),
    line: (item) =>
      `${terminalLine(item.type)} id: ${item.id}, identifier: '${terminalLine(item.identifier)}'` +
      (item.deleted_at === undefined ? "" : `, deleted at ${terminalLine(item.deleted_at)}`),
  });
}

function trashOptions<C extends CommandUnknownOpts>(command: C): C {
  const id = new Option("-i, --item-id <id>", "ID of the resource")
    .argParser((value) => parseInteger(value, { min: 1 }))
    .makeOptionMandatory();
  setOptionType(id, "long");
  command
    .addOption(
      new Option("-t, --item-type <type>", "Type of the resource").choices(TRASH_TYPES)
        .makeOptionMandatory(),
    )
    .addOption(id);
  return command;
}

/** `misc restore-resource`: brings a deleted resource back from the trash. */
export function restoreResourceCommand(): CommandUnknownOpts {
  const command = trashOptions(
    new Command("restore-resource").description("Restore a deleted resource from the trash"),
  );
  apyCommand(command, async (manager, options) => {
    const values = options as typeof options & { itemType: string; itemId: number };
    const restored = await inTrashOnly(
      values.itemType,
      values.itemId,
      () => manager.misc.restore(values.itemType, values.itemId),
    );
    // Named as other messages name a resource (the resource classes' `toString`).
    manager.output.info(
      `Restored the ${values.itemType} '${restored.title}' (id: ${restored.id}, identifier: '${restored.identifier}')`,
    );
  });
  return command;
}

/** `misc purge-resource`: deletes a resource in the trash for good. */
export function purgeResourceCommand(): CommandUnknownOpts {
  const command = trashOptions(
    new Command("purge-resource")
      .description("Delete a resource in the trash for good (it cannot be restored afterwards)"),
  );
  dryRunOption(command);
  apyCommand(command, purgeResource);
  return command;
}

/** Runs `misc purge-resource`. */
async function purgeResource(manager: CLIRepoManager, options: ApyOptions): Promise<void> {
  const values = options as typeof options & { itemType: string; itemId: number };
  const { itemType: type, itemId: id } = values;
  if (isDryRun(manager)) {
    // The dry run checks what the real run would meet: the item must be in the trash.
    const item = await inTrash(manager.misc, type, { id });
    if (item === undefined) throw notInTrash(type, id);
    dryRun(
      manager,
      `purge the ${type} '${terminalLine(item.identifier)}' (id: ${id}) from the trash for good`,
    );
    return;
  }
  await inTrashOnly(type, id, () => manager.misc.purge(type, id));
  manager.output.info(`Purged the ${values.itemType} with id ${values.itemId}`);
}
