// `show-info` of collections, templates and groups.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { apyCommand } from "../apy_command.ts";
import { searchPaginationOptions } from "../options.ts";
import {
  type CollectionLike,
  type ManagedType,
  openResource,
  pageQuery,
  printable,
  printPageHeader,
  printResources,
  resourceOptions,
} from "./_resources_common.ts";

/**
 * `<type> show-info`: title, id and identifier, plus `-d` description and `-v` visibility; a
 * collection also `-r/--records` and `-s/--subcollections` (one page each, `-p`/`-n`), a template
 * `-a/--data`. `--json` prints the resource as the server sends it (with the asked lists).
 */
export function showResourceCommand(type: ManagedType): CommandUnknownOpts {
  let command = new Command("show-info")
    .description(`Show information about a ${type}`)
    .option("-d, --description", "Show the description")
    .option("-v, --visibility", "Show the visibility");
  if (type === "collection") {
    command = searchPaginationOptions(
      command
        .option("-r, --records", "Show one page of the records in the collection")
        .option("-s, --subcollections", "Show one page of the child collections"),
      { pageDescription: "Page of the records and child collections" },
    );
  }
  if (type === "template") command.option("-a, --data", "Show the content of the template");
  command.option("--json", "Print the resource as the server sends it (JSON) on stdout");
  resourceOptions(command, type);
  apyCommand(command, async (manager, options) => {
    const values = options as typeof options & {
      records?: true;
      subcollections?: true;
      data?: true;
      json?: true;
    };
    const resource = await openResource(manager, type, options);
    const meta = await resource.refresh();
    const lists = type === "collection"
      ? await collectionLists(resource as CollectionLike, values, pageQuery(options))
      : {};
    if (values.json === true) {
      manager.output.json({ ...meta, ...lists });
      return;
    }
    manager.printInfo(printable(capitalized(String(resource))));
    if (options.description === true) {
      manager.printInfo(`Description: ${printable(meta.plain_description ?? meta.description)}`);
    }
    if (options.visibility === true) manager.printInfo(`Visibility: ${meta.visibility}`);
    if (values.data === true) {
      manager.printInfo(`Type: ${printable(meta.type)}`);
      manager.printInfo(`Data:\n${printable(JSON.stringify(meta.data ?? null, null, 2))}`);
    }
    if (lists.records !== undefined) {
      printPageHeader(manager, lists.records, "record(s) in the collection");
      printResources(manager, lists.records.items);
    }
    if (lists.collections !== undefined) {
      printPageHeader(manager, lists.collections, "child collection(s)");
      printResources(manager, lists.collections.items);
    }
  });
  return command;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

async function collectionLists(
  collection: CollectionLike,
  values: { records?: true; subcollections?: true },
  query: { page: number; per_page: number },
) {
  return {
    ...(values.records === true ? { records: await collection.getRecords(query) } : {}),
    ...(values.subcollections === true
      ? { collections: await collection.getCollections(query) }
      : {}),
  };
}
