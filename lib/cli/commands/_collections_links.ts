// `collections add-record-link`, `remove-record-link`, `add-collection-link` and
// `remove-collection-link`.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import { onConflict, openRecord, recordOptions } from "./_records_common.ts";
import { openResource, resourceOptions } from "./_resources_common.ts";

/** `collections add-record-link` / `remove-record-link`: a record in the collection. */
export function recordLinkCommand(action: "add" | "remove"): CommandUnknownOpts {
  const command = recordOptions(resourceOptions(
    new Command(`${action}-record-link`).description(
      action === "add" ? "Add a record to a collection" : "Remove a record from a collection",
    ),
    "collection",
  ));
  if (action === "remove") dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const collection = await openResource(manager, "collection", options);
    const record = await openRecord(manager, options);
    await collection.meta();
    if (action === "remove") {
      if (dryRun(manager, `remove the ${record} from the ${collection}`)) return;
      await collection.removeRecordLink(record.id);
      manager.printInfo(`Removed the ${record} from the ${collection}`);
      return;
    }
    await onConflict(async () => {
      await collection.addRecordLink(record.id);
      manager.printInfo(`Added the ${record} to the ${collection}`);
    }, () => manager.printInfo(`The ${record} is in the ${collection} already`));
  });
  return command;
}

/**
 * `collections add-collection-link` / `remove-collection-link`: a child collection (`-l/-L`)
 * of the parent (`-c/-C`).
 */
export function collectionLinkCommand(action: "add" | "remove"): CommandUnknownOpts {
  const command = resourceOptions(
    resourceOptions(
      new Command(`${action}-collection-link`).description(
        action === "add"
          ? "Make a collection (-l/-L) a child of another one (-c/-C)"
          : "Remove a child collection (-l/-L) from its parent (-c/-C)",
      ),
      "collection",
    ),
    "collection",
    { name: "child", char: "l" },
  );
  if (action === "remove") dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const parent = await openResource(manager, "collection", options);
    const child = await openResource(manager, "collection", options, { name: "child" });
    await parent.meta();
    await child.meta();
    if (action === "remove") {
      if (dryRun(manager, `remove the child ${child} from the ${parent}`)) return;
      await parent.removeCollectionLink(child.id);
      manager.printInfo(`Removed the child ${child} from the ${parent}`);
      return;
    }
    await parent.addCollectionLink(child.id);
    manager.printInfo(`Made the ${child} a child of the ${parent}`);
  });
  return command;
}
