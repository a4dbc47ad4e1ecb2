// `misc get-deleted-resources`, `restore-resource` and `purge-resource`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import { parseInteger, searchPaginationOptions } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { readingCommand } from "../_command_kind.ts";
import { printList } from "./_list_output.ts";
import { terminalLine } from "../_terminal_text.ts";

/** Resource types with a trash. */
const TRASH_TYPES = ["record", "collection", "template", "group"] as const;

/** `misc get-deleted-resources`: one page of your deleted resources, or all with `--json`. */
export function getDeletedResourcesCommand(): CommandUnknownOpts {
  const command = readingCommand(
    searchPaginationOptions(
      new Command("get-deleted-resources")
        .description("List your deleted resources (the trash), newest deletion first")
        .option("-f, --filter <text>", "Filter by identifier", ""),
    ),
    { list: true, what: "the deleted resources" },
  );
  apyCommand(command, async (manager, options) => {
    const filter = options.filter ? { filter: options.filter } : {};
    await printList(manager, options, {
      what: "deleted resource(s)",
      page: (paging) => manager.misc.getDeletedResources({ ...paging, ...filter }),
      all: (perPage) => manager.misc.deletedResources({ perPage, ...filter }),
      line: (item) =>
        `${terminalLine(item.type)} id: ${item.id}, identifier: '${
          terminalLine(item.identifier)
        }'` +
        (item.deleted_at === undefined ? "" : `, deleted at ${terminalLine(item.deleted_at)}`),
    });
  });
  return command;
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
    const restored = await manager.misc.restore(values.itemType, values.itemId);
    // Named as other messages name a resource (the resource classes' `toString`).
    manager.printInfo(
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
  apyCommand(command, async (manager, options) => {
    const values = options as typeof options & { itemType: string; itemId: number };
    const what = `purge the ${values.itemType} with id ${values.itemId} from the trash for good`;
    if (dryRun(manager, what)) return;
    await manager.misc.purge(values.itemType, values.itemId);
    manager.printInfo(`Purged the ${values.itemType} with id ${values.itemId}`);
  });
  return command;
}
