// `records create`, `edit`, `show-info` and `delete`.

import { printDescription, printJsonLines } from "./_text_blocks.ts";
import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { RepoApyError } from "../../errors.ts";
import type { RecordJson } from "../../http/protocol.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand, dryRun, dryRunOption } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { generateIdentifier } from "../../utils/identifier.ts";
import { missingOptionFails } from "../_errors.ts";
import { searchPaginationOptions } from "../options.ts";
import { asValues, describe, openRecord, recordOptions, requireSure } from "./_records_common.ts";

const VISIBILITIES = ["private", "public"] as const;

/** `records create`: get-or-create by identifier. */
export function createRecordCommand(): CommandUnknownOpts {
  const command = missingOptionFails(new Command("create"))
    .description("Create a record, or open it when the identifier exists already")
    .requiredOption("-i, --identifier <identifier>", "Identifier of the record")
    .option("-t, --title <title>", "Title of the record (default: the identifier as typed)")
    .addOption(
      new Option("-v, --visibility <visibility>", "Visibility of a new record")
        .choices(VISIBILITIES).default("private" as const),
    )
    .option("-p, --pipe", "Print only the id of the record on stdout")
    .option("-e, --exit-not-created", "Exit with code 1 when the record existed already");
  apyCommand(command, createRecord);
  return command;
}

/** The options of `records create`. */
interface CreateRecordOptions {
  identifier: string;
  title?: string;
  visibility: "private" | "public";
  pipe?: true;
  exitNotCreated?: true;
}

/** Runs `records create`. */
async function createRecord(manager: CLIRepoManager, options: CreateRecordOptions): Promise<void> {
  const typed = options.identifier.trim();
  const normalized = generateIdentifier(typed);
  if (normalized !== typed && normalized !== "") {
    manager.output.info(
      `The identifier '${typed}' is stored as '${normalized}' (identifiers keep only a-z, 0-9, ` +
        "- and _)",
    );
  }
  const record = await manager.record({
    identifier: options.identifier,
    create: true,
    visibility: options.visibility,
    // The title is what the user typed, not the normalised identifier.
    title: options.title ?? typed,
  });
  if (record.created) {
    manager.output.info(`Created ${describe(record)}`);
  } else {
    const meta = await record.meta();
    if (options.title !== undefined && options.title !== meta.title) {
      await record.edit({ title: options.title });
      manager.output.info(`Changed the title of the ${describe(record)}`);
    }
    manager.output.info(`The ${describe(record)} exists already`);
  }
  if (options.pipe === true) manager.output.data(String(record.id));
  if (options.exitNotCreated === true && !record.created) {
    throw new RepoApyError(
      `Nothing was created: the ${describe(record)} existed already (-e/--exit-not-created)`,
    );
  }
}

type EditableField = "visibility" | "title" | "description" | "type" | "license";

/** `records edit`: one PATCH per changed attribute. */
export function editRecordCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("edit")
      .description("Edit the basic metadata of a record (one change per attribute)")
      .addOption(
        new Option("-v, --visibility <visibility>", "New visibility").choices(VISIBILITIES),
      )
      .option("-t, --title <title>", "New title")
      .option("-d, --description <description>", "New description")
      .option("-y, --type <type>", "New type")
      .option("-l, --license <license>", "New license (its name, for example CC-BY-4.0)"),
  );
  apyCommand(command, editRecord);
  return command;
}

/** The options of `records edit`. */
interface EditRecordOptions {
  visibility?: "private" | "public";
  title?: string;
  description?: string;
  type?: string;
  license?: string;
}

/** Runs `records edit`. */
async function editRecord(manager: CLIRepoManager, options: EditRecordOptions): Promise<void> {
  const record = await openRecord(manager, options);
  const wanted: [EditableField, string | undefined][] = [
    ["visibility", options.visibility],
    ["title", options.title],
    ["description", options.description],
    ["type", options.type],
    ["license", options.license],
  ];
  const given = wanted.filter((entry): entry is [EditableField, string] => entry[1] !== undefined);
  if (given.length === 0) {
    manager.output.warning("Nothing to change: give -v, -t, -d, -y or -l");
    return;
  }
  const meta = await record.refresh();
  // Named as it was before the edit: after a title change it would carry the new title.
  const label = describe(record);
  for (const [field, value] of given) {
    if ((meta[field] ?? "") === value) {
      manager.output.info(`The ${field} of the ${label} is already '${value}'`);
      continue;
    }
    await record.edit({ [field]: value } as Partial<RecordJson>);
    manager.output.info(`Changed the ${field} of the ${label} to '${value}'`);
  }
}

/** `records show-info`: description, visibility, a page of files, metadata, or `--json`. */
export function showInfoCommand(): CommandUnknownOpts {
  const command = searchPaginationOptions(
    recordOptions(
      new Command("show-info")
        .description("Show information about a record")
        .option("-d, --description", "Show the description")
        .option("-l, --filelist", "Show one page of the files")
        .option("-m, --metadata", "Show the extra metadata")
        .option("-v, --visibility", "Show the visibility"),
    ),
    { pageDescription: "Page for filelist" },
  );
  readingCommand(command, {
    what: "the record as the server sends it (with -l: plus a files list of that page)",
  });
  apyCommand(command, showInfo);
  return command;
}

/** The options of `records show-info`. */
interface ShowInfoOptions {
  description?: true;
  filelist?: true;
  metadata?: true;
  visibility?: true;
}

/** Runs `records show-info`. */
async function showInfo(manager: CLIRepoManager, options: ShowInfoOptions): Promise<void> {
  const record = await openRecord(manager, options);
  const meta = await record.refresh();
  const { page = 1, perPage = 10 } = asValues(options);
  const query = { page: Number(page), perPage: Number(perPage) };
  const mode = jsonMode(options);
  if (mode !== undefined) {
    const files = options.filelist === true ? (await record.getFiles(query)).items : undefined;
    printJson(manager.output, files === undefined ? meta : { ...meta, files }, mode);
    return;
  }
  manager.output.text(
    `Record '${meta.title}' (id: ${meta.id}, identifier: '${meta.identifier}')`,
  );
  if (options.description === true) {
    printDescription(manager, meta.plain_description ?? meta.description);
  }
  if (options.visibility === true) manager.output.text(`Visibility: ${meta.visibility}`);
  if (options.filelist === true) {
    const page = await record.getFiles(query);
    const { total_items: items, total_pages: pages } = page._pagination;
    manager.output.text(
      `Found ${items} file(s) on ${pages} page(s). Showing results of page ${query.page}:`,
    );
    for (const file of page.items) {
      manager.output.text(`  ${file.name} (id: ${file.id}, ${file.size} bytes)`);
    }
  }
  if (options.metadata === true) {
    manager.output.text("Metadata:");
    printJsonLines(manager, sortKeys(meta.extras ?? []));
  }
}

/** `records delete`: moves the record to the trash (needs `--i-am-sure`). */
export function deleteRecordCommand(): CommandUnknownOpts {
  const command = dryRunOption(recordOptions(
    new Command("delete")
      .description("Delete a record (it goes to the trash)")
      .option("--i-am-sure", "Confirm the deletion"),
  ));
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    await record.meta();
    const label = describe(record);
    if (dryRun(manager, `delete the ${label} (it would go to the trash)`)) return;
    requireSure(options.iAmSure, "delete the record");
    await record.delete();
    manager.output.info(`Deleted the ${label}`);
  });
  return command;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}
