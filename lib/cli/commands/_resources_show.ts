// `show-info` of collections, templates and groups.

import { printDescription, printJsonLines } from "./_text_blocks.ts";
import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { CollectionInfo, RepoCollection } from "../../model/collection.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand, type ApyOptions } from "../apy_command.ts";
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
import { canDrawUnicode, type TextTreeNode, treeLines } from "../_tree_text.ts";

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
          "Show the child collections as a tree (their children too), with the number of " +
            "records in each; with -r, their records too",
        ),
      { pageDescription: "Page of the records (-r)" },
    );
  }
  if (type === "template") command.option("-a, --data", "Show the type and content");
  readingCommand(command, {
    what: "the resource as the server sends it, with the lists asked for,",
  });
  resourceOptions(command, type);
  apyCommand(command, (manager, options) => showResource(manager, options, type));
  return command;
}

/** Prints the resource, with the lists asked for (a collection's records and children). */
async function showResource(
  manager: CLIRepoManager,
  options: ApyOptions,
  type: ManagedType,
): Promise<void> {
  const values = options as ApyOptions & ShowValues;
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
  manager.output.text(terminalLine(capitalized(String(resource))));
  if (values.description === true) {
    printDescription(manager, meta.plain_description ?? meta.description);
  }
  if (values.visibility === true) {
    manager.output.text(`Visibility: ${terminalLine(meta.visibility)}`);
  }
  if (values.data === true) {
    manager.output.text(`Type: ${terminalLine(meta.type)}`);
    manager.output.text("Data:");
    printJsonLines(manager, meta.data);
  }
  if (lists.subcollections !== undefined) {
    // The tree holds the records (with -r) of every collection, this one's included.
    const root = { ...lists.subcollections, title: String(meta.title), id: Number(meta.id) };
    const ascii = !canDrawUnicode();
    for (const line of treeLines(treeNode(root, true), { ascii })) manager.output.text(line);
  } else if (lists.records !== undefined) {
    printPage(manager, lists.records, {
      what: "record(s) in the collection",
      line: resourceLine,
    });
  }
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

/** A collection of the tree: its record count, first records (with -r) and children. */
interface TreeCollection {
  id: number;
  identifier: string;
  title: string;
  recordCount: number;
  /** The first page of its records (with -r). */
  records?: { id: number; identifier: string; title: string }[];
  children: TreeCollection[];
  /** Set where the tree was cut: its children were not read (depth, size or a cycle). */
  truncated?: true;
}

/** The deepest level of child collections read. */
const MAX_DEPTH = 8;
/** The most collections read for one tree. */
const MAX_NODES = 200;

async function collectionLists(
  manager: CLIRepoManager,
  collection: RepoCollection,
  values: ShowValues,
) {
  const { page, perPage } = pageParams(values);
  const records = values.records === true
    ? await collection.getRecords({ page, perPage })
    : undefined;
  let subcollections: Omit<TreeCollection, "id" | "identifier" | "title"> | undefined;
  if (values.subcollections === true) {
    // Bounded: a server whose collections point back at each other, or hold thousands of
    // levels, gets a cut tree, not an endless walk.
    const seen = new Set<number>([(await collection.meta()).id]);
    const walk = async (
      target: RepoCollection,
      depth: number,
    ): Promise<Omit<TreeCollection, "id" | "identifier" | "title">> => {
      const info: CollectionInfo = await target.info();
      const firstRecords = values.records === true
        ? (await target.getRecords({ perPage })).items.sort((a, b) => a.id - b.id).map((
          { id, identifier, title },
        ) => ({
          id,
          identifier,
          title,
        }))
        : undefined;
      const children: TreeCollection[] = [];
      // In the order they were created, whatever order the server lists them in.
      for (const child of [...info.children].sort((a, b) => a.id - b.id)) {
        const node = { id: child.id, identifier: child.identifier, title: child.title };
        if (seen.has(child.id) || seen.size >= MAX_NODES || depth >= MAX_DEPTH) {
          children.push({ ...node, recordCount: 0, children: [], truncated: true });
          continue;
        }
        seen.add(child.id);
        children.push({
          ...node,
          ...await walk(await manager.collection({ id: child.id }), depth + 1),
        });
      }
      return {
        recordCount: info.recordCount,
        ...(firstRecords === undefined ? {} : { records: firstRecords }),
        children,
      };
    };
    subcollections = await walk(collection, 1);
  }
  return {
    ...(records === undefined ? {} : { records }),
    ...(subcollections === undefined ? {} : { subcollections }),
  };
}

/** The drawn tree of a collection: its records first, then its children. */
function treeNode(
  collection: Omit<TreeCollection, "identifier"> & { identifier?: string },
  root = false,
): TextTreeNode {
  const count = `${collection.recordCount} record${collection.recordCount === 1 ? "" : "s"}`;
  const label = root
    ? `Collection '${terminalLine(collection.title)}' (id: ${collection.id}): ${count}`
    : `collection ${resourceLine({ ...collection, identifier: collection.identifier ?? "" })}, ${
      collection.truncated === true ? "not read further (too deep, too large or a cycle)" : count
    }`;
  const records = (collection.records ?? []).map((record) => ({
    label: `record ${resourceLine(record)}`,
  }));
  const more = collection.records !== undefined && collection.recordCount > records.length
    ? [{ label: `… and ${collection.recordCount - records.length} more record(s)` }]
    : [];
  return {
    label,
    children: [...records, ...more, ...collection.children.map((child) => treeNode(child))],
  };
}
