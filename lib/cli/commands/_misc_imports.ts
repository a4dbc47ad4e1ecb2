// `misc import-json-schema`, `import-shacl` and `reuse-collection`: thin commands over
// `importJsonSchema`, `importShacl` and `reuseCollection` of lib/import.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { InputError } from "../../http/errors.ts";
import { UsageError } from "../_errors.ts";
// The importers load the transfer layer: imported when a command runs, so building the help stays
// light (tests/cli/startup_test.ts).
import type { TemplateImportOptions } from "../../import/import_json_schema.ts";
import type { ReuseCollectionOptions } from "../../import/reuse_collection.ts";
import type { TemplateKind } from "../../import/template_draft.ts";
import type { RepoTemplate } from "../../transfer/template.ts";
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
      pathOption("-p, --path <path>", `Path of the ${what} file`, { type: "file" })
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
    manager.printInfo(
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
      throw new UsageError(`'${token}' in ${flag} is not a record id: give ids such as 3,7`);
    }
    return Number(token);
  });
}

async function ask(manager: CLIRepoManager, command: CommandUnknownOpts, question: string) {
  manager.printInfo(question);
  const answer = await contextOf(command).input.readLine();
  if (answer === null) throw new InputError("No answer (end of input): nothing was changed");
  return answer.trim();
}

/** Asks which records to copy and reuse, the suffix and whether to keep extras values. */
async function interactiveChoices(
  manager: CLIRepoManager,
  command: CommandUnknownOpts,
  collectionId: number,
  given: { suffix?: string | undefined },
): Promise<ReuseCollectionOptions> {
  const collection = await manager.collection({ id: collectionId });
  const records = (await Array.fromAsync(collection.records({ perPage: 100 })))
    .sort((a, b) => a.id - b.id);
  if (records.length === 0) throw new InputError("The collection has no records to reuse");
  manager.printInfo(`Records of the collection ${collectionId}:`);
  records.forEach((record, index) =>
    manager.printInfo(
      `  ${index + 1}: ${record.title} (id: ${record.id}, identifier: '${record.identifier}')`,
    )
  );
  const pick = (numbers: number[]) => numbers.map((n) => records[n - 1]!.id);
  const chosen = await ask(manager, command, "Records to carry over (e.g. 1-3,5; empty: all):");
  const selected = chosen === "" || chosen === "all"
    ? "all"
    : pick(parseRanges(chosen, records.length));
  const linked = await ask(
    manager,
    command,
    "Of these, records to reuse unchanged instead of copying (e.g. 2,4; empty: none):",
  );
  const suffix = given.suffix ?? await ask(manager, command, "Suffix for the new identifiers:");
  const keep = await ask(manager, command, "Keep the values of the extra metadata? [y/N]:");
  const linkedIds = linked === "" ? [] : pick(parseRanges(linked, records.length));
  return {
    suffix,
    linkedRecordIds: linkedIds,
    records: selected === "all" ? "all" : [...new Set([...selected, ...linkedIds])],
    keepExtrasValues: /^y(es)?$/i.test(keep),
  };
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
    .option("-r, --records <records>", "Records to carry over: all, or comma-separated ids", "all")
    .option("-i, --interactive", "Choose the records, suffix and extras values at prompts")
    .option("-v, --extras_value", "Keep the values of the extra metadata in the copies");
  apyCommand(command, async (manager, options) => {
    const id = options.collectionId as number;
    let choices: ReuseCollectionOptions;
    if (options.interactive === true) {
      choices = await interactiveChoices(manager, command as CommandUnknownOpts, id, {
        suffix: options.suffix,
      });
      if (options.extras_value === true) choices.keepExtrasValues = true;
    } else {
      if (options.suffix === undefined || options.suffix.trim() === "") {
        throw new UsageError("Give the suffix with -s/--suffix (or choose at prompts with -i)");
      }
      const records = options.records.trim().toLowerCase() === "all"
        ? "all" as const
        : parseIds(options.records, "-r/--records");
      choices = {
        suffix: options.suffix,
        linkedRecordIds: options.linked_records === undefined
          ? []
          : parseIds(options.linked_records, "-l/--linked_records"),
        records,
        keepExtrasValues: options.extras_value === true,
      };
    }
    const { reuseCollection } = await import("../../import/reuse_collection.ts");
    const reused = await reuseCollection(manager, id, choices);
    const meta = await reused.collection.meta();
    const copied = [...reused.records].filter(([from, to]) => from !== to).length;
    manager.printInfo(
      `Created the collection '${meta.identifier}' (id: ${meta.id}) with ${copied} copied and ` +
        `${reused.records.size - copied} reused record(s) and ${reused.links} link(s)`,
    );
  });
  return command;
}

/** The import commands of this file, for the `misc` group. */
export const MISC_IMPORT_COMMANDS: readonly (() => CommandUnknownOpts)[] = [
  importJsonSchemaCommand,
  importShaclCommand,
  reuseCollectionCommand,
];
