// `show-info` of collections, templates and groups.

import { printDescription, printJsonLines } from "./_text_blocks.ts";
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { CollectionInfo, RepoCollection } from "../../transfer/collection.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { searchPaginationOptions } from "../options.ts";
import {
  type ManagedType,
  openResource,
  pageParams,
  printPage,
  resourceLine,
  resourceOptions,
} from "./_resources_common.ts";
import { terminalLine } from "../_terminal_text.ts";

/**
 * `<type> show-info`: title, id and identifier, plus `-d` description and `-v` visibility; a
 * collection also `-r/--records` (one page, `-p`/`-n`) and `-s/--subcollections` (its child
 * collections and the number of records in each), a template `-a/--data`. `--json` prints the
 * resource as the server sends it, with the lists asked for.
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
        .option(
          "-s, --subcollections",
          "Show the child collections and the number of records in each",
        ),
      { pageDescription: "Page of the records (-r)" },
    );
  }
  if (type === "template") command.option("-a, --data", "Show the type and content");
  readingCommand(command, {
    what: "the resource as the server sends it, with the lists asked for,",
  });
  resourceOptions(command, type);
  apyCommand(command, async (manager, options) => {
    const values = options as typeof options & ShowValues;
    const resource = await openResource(manager, type, options);
    const meta: { [field: string]: unknown } = { ...await resource.refresh() };
    const lists = type === "collection"
      ? await collectionLists(manager, resource as RepoCollection, values)
      : {};
    const mode = jsonMode(values);
    if (mode !== undefined) {
      printJson(manager.output, { ...meta, ...lists }, mode);
      return;
    }
    manager.printInfo(terminalLine(capitalized(String(resource))));
    if (values.description === true) {
      printDescription(manager, meta.plain_description ?? meta.description);
    }
    if (values.visibility === true) {
      manager.printInfo(`Visibility: ${terminalLine(meta.visibility)}`);
    }
    if (values.data === true) {
      manager.printInfo(`Type: ${terminalLine(meta.type)}`);
      manager.printInfo("Data:");
      printJsonLines(manager, meta.data);
    }
    if (lists.records !== undefined) {
      printPage(manager, lists.records, {
        what: "record(s) in the collection",
        line: resourceLine,
      });
    }
    if (lists.subcollections !== undefined) printChildren(manager, lists.subcollections);
  });
  return command;
}

interface ShowValues {
  description?: true;
  visibility?: true;
  records?: true;
  subcollections?: true;
  data?: true;
  json?: true;
  page?: number;
  perPage?: number;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The child collections, each with the number of its records. */
interface Children {
  recordCount: number;
  children: { id: number; identifier: string; title: string; recordCount: number }[];
}

async function collectionLists(
  manager: CLIRepoManager,
  collection: RepoCollection,
  values: ShowValues,
) {
  const { page, perPage } = pageParams(values);
  const records = values.records === true
    ? await collection.getRecords({ page, perPage })
    : undefined;
  let subcollections: Children | undefined;
  if (values.subcollections === true) {
    const info: CollectionInfo = await collection.info();
    const children = [];
    for (const child of info.children) {
      const count = await (await manager.collection({ id: child.id })).getRecords({ perPage: 1 });
      children.push({
        id: child.id,
        identifier: child.identifier,
        title: child.title,
        recordCount: count._pagination.total_items,
      });
    }
    subcollections = { recordCount: info.recordCount, children };
  }
  return {
    ...(records === undefined ? {} : { records }),
    ...(subcollections === undefined ? {} : { subcollections }),
  };
}

function printChildren(manager: CLIRepoManager, lists: Children): void {
  manager.printInfo(
    `Found ${lists.children.length} child collection(s); ${lists.recordCount} record(s) are ` +
      "in the collection itself:",
  );
  for (const child of lists.children) {
    manager.printInfo(`  ${resourceLine(child)}, records: ${child.recordCount}`);
  }
}
