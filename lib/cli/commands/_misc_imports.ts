// `misc import-json-schema`, `import-shacl` and `reuse-collection`: thin commands over
// `importJsonSchema`, `importShacl` and `reuseCollection` of lib/import.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { InputError } from "../../errors.ts";
// The importers load the transfer layer: imported when a command runs, so building the help stays
// light (tests/cli/startup_test.ts).
import type { TemplateImportOptions } from "../../import/import_json_schema.ts";
import type { ReuseCollectionOptions } from "../../import/reuse_collection.ts";
import type { TemplateKind } from "../../import/template_draft.ts";
import type { RepoTemplate } from "../../model/template.ts";
import { contextOf } from "../_context.ts";
import { setOptionType } from "../_tree.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { parseInteger, parseTokenList } from "../options.ts";
import { pathOption } from "./_records_common.ts";

const TEMPLATE_KINDS = ["extras", "record"] as const;

type TemplateImporter = (
  target: CLIRepoManager,
  path: string,
  options: TemplateImportOptions,
) => Promise<RepoTemplate>;

function templateImportCommand(
  name: string,
  what: string,
  importer: () => Promise<TemplateImporter>,
): CommandUnknownOpts {
  const command = new Command(name)
    .description(`Create a template from a ${what} file`)
    .addOption(
      pathOption("-p, --path <path>", `Path of the ${what} file`, {
        type: "file",
        checked: true,
      })
        .makeOptionMandatory(),
    )
    .addOption(
      new Option("-y, --type <type>", "Type of the template").choices(TEMPLATE_KINDS)
        .default("extras" as TemplateKind),
    );
  apyCommand(command, async (manager, options) => {
    const template = await (await importer())(manager, options.path, {
      templateType: options.type,
    });
    const meta = await template.meta();
    manager.output.info(
      `Created the template '${meta.title}' (id: ${meta.id}, identifier: '${meta.identifier}') ` +
        `from '${options.path}'`,
    );
  });
  return command;
}

/** `misc import-json-schema`: a JSON Schema file becomes a template. */
export function importJsonSchemaCommand(): CommandUnknownOpts {
  return templateImportCommand(
    "import-json-schema",
    "JSON Schema",
    async () => (await import("../../import/import_json_schema.ts")).importJsonSchema,
  );
}

/** `misc import-shacl`: a SHACL shapes file becomes a template. */
export function importShaclCommand(): CommandUnknownOpts {
  return templateImportCommand(
    "import-shacl",
    "SHACL (Turtle)",
    async () => (await import("../../import/import_shacl.ts")).importShacl,
  );
}

/**
 * Positions from text such as `1-3,5` (1-based, each within 1..`count`), in the order given,
 * without repeats.
 */
export function parseRanges(text: string, count: number): number[] {
  const result = new Set<number>();
  for (const part of parseTokenList(text)) {
    const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    const first = Number(match?.[1]);
    const last = match?.[2] === undefined ? first : Number(match[2]);
    if (match === null || first < 1 || last > count || first > last) {
      throw new InputError(
        `'${part}' is not a number or range between 1 and ${count}: write e.g. 1-3,5`,
      );
    }
    for (let n = first; n <= last; n++) result.add(n);
  }
  return [...result];
}

function parseIds(text: string, flag: string): number[] {
  return parseTokenList(text).map((token) => {
    if (!/^\d+$/.test(token) || Number(token) < 1) {
      // Exit 1, as the Python client ("Invalid input format."): its exit code wins.
      throw new InputError(`'${token}' in ${flag} is not a record id: give ids such as 3,7`);
    }
    return Number(token);
  });
}

/** What a question shows: on stderr like a status message, but also with `-q` (it needs an answer). */
function show(manager: CLIRepoManager, text: string): void {
  manager.output.prompt(`${text}\n`);
}

async function ask(manager: CLIRepoManager, command: CommandUnknownOpts, question: string) {
  show(manager, question);
  const answer = await contextOf(command).input.readLine();
  if (answer === null) throw new InputError("No answer (end of input): nothing was changed");
  return answer.trim();
}

/** A yes/no question as click asks it: `[Y/n]` or `[y/N]`, empty takes the default, else again. */
async function confirm(
  manager: CLIRepoManager,
  command: CommandUnknownOpts,
  question: string,
  yes: boolean,
): Promise<boolean> {
  for (;;) {
    const answer = (await ask(manager, command, `${question} [${yes ? "Y/n" : "y/N"}]:`))
      .toLowerCase();
    if (answer === "") return yes;
    if (answer === "y" || answer === "yes") return true;
    if (answer === "n" || answer === "no") return false;
    manager.output.error("Error: invalid input");
  }
}

/** The record selection: modified (copied with the suffix) and linked unchanged. */
interface ReuseSelection {
  modified: number[];
  linked: number[];
}

/**
 * The records to copy (`-r`: all or ids) and to link unchanged (`-l`: ids of the others), checked
 * against the collection's records as the reference client checks them (exit 1).
 */
function selection(
  records: { id: number }[],
  values: { records?: string | undefined; linked_records?: string | undefined },
): ReuseSelection {
  const all = records.map((record) => record.id);
  const inCollection = (ids: number[], among: number[]) => {
    const invalid = ids.filter((id) => !among.includes(id));
    if (invalid.length > 0) throw new InputError(`Invalid record IDs: ${invalid.join(", ")}.`);
    return ids;
  };
  const modified = values.records === undefined
    ? []
    : values.records.trim().toLowerCase() === "all"
    ? all
    : inCollection(parseIds(values.records, "-r/--records"), all);
  const remaining = all.filter((id) => !modified.includes(id));
  const linked = values.linked_records === undefined
    ? []
    : inCollection(parseIds(values.linked_records, "-l/--linked_records"), remaining);
  return { modified, linked };
}

/**
 * Asks what the reference client asks, in its order: modify all records? (else which), link
 * some of the others unchanged? (which), copy the extras values?, and the suffix; a question
 * whose option was given is not asked.
 */
async function interactiveSelection(
  manager: CLIRepoManager,
  command: CommandUnknownOpts,
  records: { id: number; identifier: string }[],
  values: { records?: string | undefined; linked_records?: string | undefined },
): Promise<ReuseSelection> {
  const given = selection(records, values);
  show(manager, "Records available in the collection:");
  records.forEach((record, index) => show(manager, `${index + 1}: ${record.identifier}`));
  let modified = given.modified;
  if (values.records === undefined) {
    if (await confirm(manager, command, "Do you want to modify all records?", true)) {
      modified = records.map((record) => record.id);
    } else {
      const answer = await ask(
        manager,
        command,
        "Enter record numbers or ranges separated by a comma (e.g. 1-3,5), or press Enter to " +
          "skip modifying records:",
      );
      modified = answer === ""
        ? []
        : parseRanges(answer, records.length).map((n) => records[n - 1]!.id);
    }
  }
  const names = (ids: number[]) =>
    ids.map((id) => `'${records.find((record) => record.id === id)?.identifier}'`).join(", ");
  manager.output.info(`Selected records for modification: [${names(modified)}]`);
  const remaining = records.filter((record) => !modified.includes(record.id));
  let linked = given.linked;
  if (
    values.linked_records === undefined && remaining.length > 0 &&
    await confirm(
      manager,
      command,
      "Do you also want to link some records to the collection without modification?",
      false,
    )
  ) {
    show(manager, "Records available for linking:");
    remaining.forEach((record, index) => show(manager, `${index + 1}: ${record.identifier}`));
    const answer = await ask(
      manager,
      command,
      "Enter record numbers or ranges to link, separated by commas (e.g. 1-3,5):",
    );
    linked = parseRanges(answer, remaining.length).map((n) => remaining[n - 1]!.id);
  }
  manager.output.info(`Selected records for linkage: [${names(linked)}]`);
  return { modified, linked };
}

/** `misc reuse-collection`: copies a collection for a new run (interactive or not). */
export function reuseCollectionCommand(): CommandUnknownOpts {
  const collectionId = new Option("-c, --collection-id <id>", "ID of the collection to reuse")
    .argParser((value) => parseInteger(value, { min: 1 }))
    .makeOptionMandatory();
  setOptionType(collectionId, "long");
  const command = new Command("reuse-collection")
    .description(
      "Reuse a collection: a child collection with copies of its records (identifiers with a " +
        "suffix), records to reuse unchanged, and the record links re-created",
    )
    .addOption(collectionId)
    .option("-s, --suffix <suffix>", "Suffix of the new identifiers (required unless -i)")
    .option("-l, --linked_records <ids>", "Records to reuse unchanged (comma-separated ids)")
    .option(
      "-r, --records <records>",
      "Records to copy with the suffix: all, or comma-separated ids",
    )
    .option("-i, --interactive", "Choose the records, suffix and extras values at prompts")
    .option("-v, --extras_value", "Keep the values of the extra metadata in the copies");
  apyCommand(command, (manager, options) => runReuseCollection(manager, options, command));
  return command;
}

/** The options of `misc reuse-collection`. */
interface ReuseCollectionCommandOptions {
  collectionId: number;
  suffix?: string;
  linked_records?: string;
  records?: string;
  interactive?: true;
  extras_value?: true;
}

/** Runs `misc reuse-collection`. */
async function runReuseCollection(
  manager: CLIRepoManager,
  options: ReuseCollectionCommandOptions,
  command: CommandUnknownOpts,
): Promise<void> {
  const id = options.collectionId as number;
  const choices = await reuseChoices(manager, options, command);
  const { reuseCollection } = await import("../../import/reuse_collection.ts");
  const reused = await reuseCollection(manager, id, choices);
  const meta = await reused.collection.meta();
  const copied = [...reused.records].filter(([from, to]) => from !== to).length;
  manager.output.info(
    `Created the collection '${meta.identifier}' (id: ${meta.id}) with ${copied} copied and ` +
      `${reused.records.size - copied} reused record(s) and ${reused.links} link(s)`,
  );
}

/**
 * What `reuse-collection` copies and links: from `-r`/`-l` and `-s`, or asked at prompts with
 * `-i` (the records, whether to keep metadata values, then the suffix).
 */
async function reuseChoices(
  manager: CLIRepoManager,
  options: ReuseCollectionCommandOptions,
  command: CommandUnknownOpts,
): Promise<ReuseCollectionOptions> {
  const interactive = options.interactive === true;
  let suffix = options.suffix?.trim() === "" ? undefined : options.suffix;
  if (!interactive && suffix === undefined) {
    // Exit 1, as the Python client: its exit code wins over the usage code 2.
    throw new InputError("Give the suffix with -s/--suffix (or choose at prompts with -i)");
  }
  const collection = await manager.collection({ id: options.collectionId as number });
  // In the server's order, as the reference client numbers them for the prompts.
  const records = await Array.fromAsync(collection.records({ perPage: 100 }));
  const { modified, linked } = interactive
    ? await interactiveSelection(manager, command, records, options)
    : selection(records, options);
  if (modified.length === 0 && linked.length === 0) {
    throw new InputError(
      interactive
        ? "No records were selected for linkage or modification."
        : "No records provided. Use --records or --linked_records in non-interactive mode.",
    );
  }
  let keepExtrasValues = options.extras_value === true;
  if (interactive && !keepExtrasValues) {
    keepExtrasValues = await confirm(
      manager,
      command,
      "Do you want to copy values from record extra metadata?",
      false,
    );
  }
  while (suffix === undefined || suffix === "") {
    suffix = await ask(
      manager,
      command,
      "Enter a suffix to append to identifiers of modified records and collection:",
    );
  }
  return { suffix, linkedRecordIds: linked, records: [...modified, ...linked], keepExtrasValues };
}

/** The import commands of this file, for the `misc` group. */
export const MISC_IMPORT_COMMANDS: readonly (() => CommandUnknownOpts)[] = [
  importJsonSchemaCommand,
  importShaclCommand,
  reuseCollectionCommand,
];
