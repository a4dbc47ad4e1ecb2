// `collections add-record-link`, `remove-record-link`, `add-collection-link` and
// `remove-collection-link`.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { InputError } from "../../errors.ts";
import type { RepoCollection } from "../../model/collection.ts";
import { apyCommand, type ApyOptions, dryRun, dryRunOption } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { onConflict, onMissing, openRecord, recordOptions } from "./_records_common.ts";
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
  apyCommand(command, (manager, options) => linkRecord(manager, options, action));
  return command;
}

/** Adds the record to the collection, or removes it from there (`remove`). */
async function linkRecord(
  manager: CLIRepoManager,
  options: ApyOptions,
  action: "add" | "remove",
): Promise<void> {
  const collection = await openResource(manager, "collection", options);
  const record = await openRecord(manager, options);
  await collection.meta();
  if (action === "remove") {
    if (dryRun(manager, `remove the ${record} from the ${collection}`)) return;
    await onMissing(
      () => collection.removeRecordLink(record.id),
      () => `The ${record} is not in the ${collection}: nothing to remove`,
    );
    manager.output.info(`Removed the ${record} from the ${collection}`);
    return;
  }
  await onConflict(async () => {
    await collection.addRecordLink(record.id);
    manager.output.info(`Added the ${record} to the ${collection}`);
  }, () => manager.output.info(`The ${record} is in the ${collection} already`));
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
  apyCommand(command, (manager, options) => linkCollection(manager, options, action));
  return command;
}

/** Makes the child collection a child of the parent, or removes the link (`remove`). */
async function linkCollection(
  manager: CLIRepoManager,
  options: ApyOptions,
  action: "add" | "remove",
): Promise<void> {
  const parent = await openResource(manager, "collection", options);
  const child = await openResource(manager, "collection", options, { name: "child" });
  await parent.meta();
  await child.meta();
  if (action === "remove") {
    if (dryRun(manager, `remove the child ${child} from the ${parent}`)) return;
    await onMissing(
      () => parent.removeCollectionLink(child.id),
      () => `The ${child} is not a child of the ${parent}: nothing to remove`,
    );
    manager.output.info(`Removed the child ${child} from the ${parent}`);
    return;
  }
  await onConflict(async () => {
    await parent.addCollectionLink(child.id);
    manager.output.info(`Made the ${child} a child of the ${parent}`);
  }, async () => {
    // The server answers 409 for three reasons; the collections say which one it was.
    if (await isChild(parent, child.id)) {
      manager.output.info(
        `Link from the ${parent} to the ${child} already exists. Nothing to do.`,
      );
      return;
    }
    if (child.id === parent.id || await isBelow(manager, parent.id, child.id)) {
      throw new InputError(
        `Cannot make the ${child} a child of the ${parent}: that would be a cycle (the ${parent} ` +
          `${child.id === parent.id ? "is the same collection" : `is below the ${child}`})`,
      );
    }
    throw new InputError(
      `Cannot make the ${child} a child of the ${parent}: the server refused it (409), most ` +
        `likely because the ${child} has another parent already (a collection has one ` +
        "parent at most): remove it from that parent first",
    );
  });
}

/** Collections the cycle check visits at most (each costs a request). */
const MAX_VISITED = 1000;

async function isChild(parent: RepoCollection, childId: number): Promise<boolean> {
  for await (const child of parent.collections()) if (child.id === childId) return true;
  return false;
}

/** Whether `id` is a descendant of `ancestorId` (bounded breadth-first walk down the tree). */
async function isBelow(manager: CLIRepoManager, id: number, ancestorId: number): Promise<boolean> {
  const seen = new Set([ancestorId]);
  const pending = [ancestorId];
  while (pending.length > 0 && seen.size <= MAX_VISITED) {
    const collection = await manager.collection({ id: pending.shift()! });
    for await (const child of collection.collections()) {
      if (child.id === id) return true;
      if (!seen.has(child.id)) {
        seen.add(child.id);
        pending.push(child.id);
      }
    }
  }
  return false;
}
