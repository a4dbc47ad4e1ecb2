// `records add-record-link`, `delete-record-link`, `update-record-link`, `show-record-links-to`,
// `add-collection-link` and `remove-collection-link`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import type { RecordLinkJson } from "../../http/protocol.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { InputError, RepoApyError } from "../../errors.ts";
import type { RepoRecord } from "../../model/record.ts";
import {
  idIdentifierOptions,
  idIdentifierValue,
  parseInteger,
  searchPaginationOptions,
} from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { printList } from "./_list_output.ts";
import {
  asValues,
  describe,
  onConflict,
  onMissing,
  openRecord,
  recordOptions,
  resolveResourceId,
} from "./_records_common.ts";

function linkIdOption() {
  const option = new Option("-l, --record-link-id <id>", "ID of the record link (not a record id)")
    .argParser((value) => parseInteger(value, { min: 1 }))
    .makeOptionMandatory();
  setOptionType(option, "long");
  return option;
}

/** `records add-record-link`: links a record to one or more records. */
export function addRecordLinkCommand(): CommandUnknownOpts {
  const command = idIdentifierOptions(
    recordOptions(
      new Command("add-record-link")
        .description("Link a record to other records")
        .requiredOption("-n, --name <name>", "Name of the link")
        .option("-t, --term <iri>", "IRI of a term describing the link"),
    ),
    "record",
    { name: "link", allowTokenlist: true },
  );
  apyCommand(command, addRecordLink);
  return command;
}

/** The options of `records add-record-link`. */
interface AddRecordLinkOptions {
  name: string;
  term?: string;
}

/** Runs `records add-record-link`. */
async function addRecordLink(
  manager: CLIRepoManager,
  options: AddRecordLinkOptions,
): Promise<void> {
  const record = await openRecord(manager, options);
  const target = idIdentifierValue(asValues(options), "record", {
    name: "link",
    required: true,
  });
  let targets: number[];
  if (target === undefined) targets = [];
  else if ("ids" in target) targets = target.ids;
  else if ("id" in target) targets = [target.id];
  else targets = [(await manager.record({ identifier: target.identifier })).id];
  if (targets.length === 0) throw new InputError("Please specify the records to link to");
  for (const id of targets) {
    await onConflict(async () => {
      const link = await record.linkRecord(
        id,
        options.name,
        options.term === undefined ? {} : { termIri: options.term },
      );
      manager.output.info(
        `Linked the ${describe(record)} to record ${id} as '${link.name}' (link id: ${link.id})`,
      );
    }, () => {
      // The server answers 409 for a link to the record itself too: refused, not "exists".
      if (id === record.id) {
        throw new RepoApyError(
          `Cannot link the ${describe(record)} to itself: the server refused it (409)`,
        );
      }
      manager.output.info(`The link '${options.name}' to record ${id} exists already`);
    });
  }
}

/** `records delete-record-link`: deletes a link by link id. */
export function deleteRecordLinkCommand(): CommandUnknownOpts {
  const command = dryRunOption(recordOptions(
    new Command("delete-record-link").description("Delete a link of a record").addOption(
      linkIdOption(),
    ),
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const what = `delete the link ${options.recordLinkId} of the ${describe(record)}`;
    if (dryRun(manager, what)) return;
    await onMissing(
      () => record.deleteRecordLink(Number(options.recordLinkId)),
      () => staleLink(record, options.recordLinkId),
    );
    manager.output.info(`Deleted the link ${options.recordLinkId} of the ${describe(record)}`);
  });
  return command;
}

/** `records update-record-link`: renames a link. */
export function updateRecordLinkCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("update-record-link")
      .description("Change the name of a link of a record")
      .addOption(linkIdOption())
      .requiredOption("-n, --name <name>", "New name of the link"),
  );
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const link = await onMissing(
      () => record.updateRecordLink(Number(options.recordLinkId), { name: options.name }),
      () => staleLink(record, options.recordLinkId),
    );
    manager.output.info(`Renamed the link ${link.id} of the ${describe(record)} to '${link.name}'`);
  });
  return command;
}

/** A link id the record does not have (deleted meanwhile, or another record's). */
function staleLink(record: RepoRecord, linkId: number): string {
  return `The ${describe(record)} has no link with id ${linkId} (a link id, not a record id): ` +
    `list its links with 'repo-apy records show-record-links-to -r ${record.id}'`;
}

function linkLine(link: RecordLinkJson, direction: "in" | "out"): string {
  const other = direction === "out" ? link.record_to : link.record_from;
  const about = other === undefined
    ? "a record"
    : `record '${other.title}' (id: ${other.id}, identifier: '${other.identifier}')`;
  const term = link.term ? `, term: ${link.term}` : "";
  return `  ${link.id}: '${link.name}' ${direction === "out" ? "to" : "from"} ${about}${term}`;
}

/** `records show-record-links-to`: lists the links from (`out`) or to (`in`) a record. */
export function showRecordLinksCommand(): CommandUnknownOpts {
  const command = readingCommand(
    searchPaginationOptions(recordOptions(
      new Command("show-record-links-to")
        .description("Show the links from (out) or to (in) a record")
        .addOption(
          new Option("-d, --direction <direction>", "Links from the record (out) or to it (in)")
            .choices(["in", "out"] as const).default("out" as const),
        ),
    )),
    { list: true, what: "the links" },
  );
  apyCommand(command, showRecordLinks);
  return command;
}

/** The options of `records show-record-links-to`. */
interface ShowRecordLinksOptions {
  direction: "out" | "in";
}

/** Runs `records show-record-links-to`. */
async function showRecordLinks(
  manager: CLIRepoManager,
  options: ShowRecordLinksOptions,
): Promise<void> {
  const record = await openRecord(manager, options);
  const { direction } = options;
  if (jsonMode(options) !== undefined) {
    await printList(manager, options, {
      what: "link(s)",
      page: ({ page, perPage }) => record.getRecordLinks({ direction, page, perPage }),
      all: (perPage) => record.recordLinks({ direction, perPage }),
      line: (link) => linkLine(link, direction),
    });
    return;
  }
  const { page: wanted = 1, perPage = 10 } = asValues(options);
  const page = await record.getRecordLinks({
    direction,
    page: Number(wanted),
    perPage: Number(perPage),
  });
  const { total_items: items, total_pages: pages, page: current } = page._pagination;
  manager.output.text(
    `Found ${items} link(s) ${options.direction === "out" ? "from" : "to"} the ${
      describe(record)
    } on ${pages} page(s). Showing results of page ${current}:`,
  );
  for (const link of page.items) manager.output.text(linkLine(link, options.direction));
}

/** `records add-collection-link`: adds the record to a collection. */
export function addCollectionLinkCommand(): CommandUnknownOpts {
  const command = idIdentifierOptions(
    recordOptions(new Command("add-collection-link").description("Add a record to a collection")),
    "collection",
  );
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const collection = await resolveResourceId(manager, "collection", options);
    await onConflict(async () => {
      await record.addCollectionLink(collection.id);
      manager.output.info(`Added the ${describe(record)} to the ${collection.label}`);
    }, () => manager.output.info(`The ${describe(record)} is in the ${collection.label} already`));
  });
  return command;
}

/** `records remove-collection-link`: removes the record from a collection. */
export function removeCollectionLinkCommand(): CommandUnknownOpts {
  const command = dryRunOption(idIdentifierOptions(
    recordOptions(
      new Command("remove-collection-link").description("Remove a record from a collection"),
    ),
    "collection",
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    const collection = await resolveResourceId(manager, "collection", options);
    if (dryRun(manager, `remove the ${describe(record)} from the ${collection.label}`)) return;
    await onMissing(
      () => record.removeCollectionLink(collection.id),
      () => `The ${describe(record)} is not in the ${collection.label}: nothing to remove`,
    );
    manager.output.info(`Removed the ${describe(record)} from the ${collection.label}`);
  });
  return command;
}
