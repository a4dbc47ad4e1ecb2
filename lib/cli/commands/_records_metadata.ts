// `records add-metadatum`, `add-metadata`, `get-metadatum`, `delete-metadatum` and
// `delete-all-metadata`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { InputError, RepoApyError } from "../../errors.ts";
import type { Extra } from "../../http/protocol.ts";
import { floatText } from "../../convert/_float_text.ts";
import { jsonToRepo } from "../../convert/json_to_repo.ts";
import { stringifyJson } from "../../http/_float_json.ts";
import { type JsonValue, jsonValueToPlain, parseJson } from "../../convert/parse_json.ts";
import { readBoundedText } from "../../import/read_bounded_text.ts";
import { MetadataError } from "../../resources/errors.ts";
import { validateExtras } from "../../resources/metadata.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { setOptionType } from "../_tree.ts";
import { printJson } from "../_json_output.ts";
import { apyCommand, dryRun, dryRunOption, isDryRun } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { errorLine } from "../_messages.ts";
import { describe, openRecord, pathOption, recordOptions, requireSure } from "./_records_common.ts";

/** Value types `add-metadatum -t` accepts and the metadata type each one is stored as. */
const VALUE_TYPES = { string: "str", integer: "int", float: "float", boolean: "bool" } as const;

type ValueType = keyof typeof VALUE_TYPES;

const METADATA_EXAMPLE = JSON.stringify([
  { key: "temperature", type: "float", value: 21.5, unit: "degC" },
  { key: "sample", type: "str", value: "A-1" },
  { key: "settings", type: "dict", value: [{ key: "steps", type: "int", value: 3, unit: null }] },
  { key: "tags", type: "list", value: [{ type: "str", value: "x" }] },
]);

/**
 * Converts a command-line value to a metadatum (client-reference §2.7): `integer` parses like
 * Python's `int()`, `float` like `float()`, `boolean` only takes `true`/`false`; a unit is kept
 * for integer and float only, and the result always carries `unit`.
 */
function toMetadatum(key: string, raw: string, type: ValueType, unit: string | undefined): Extra {
  let value: unknown = raw;
  if (type === "integer") {
    const text = raw.trim();
    if (!/^[+-]?\d+(?:_\d+)*$/.test(text)) {
      throw new InputError(`'${raw}' is not an integer: give digits, or use -t float or string`);
    }
    const big = BigInt(text.replaceAll("_", ""));
    value = big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(big)
      : big;
  } else if (type === "float") {
    const text = raw.trim().replace(/(?<=\d)_(?=\d)/g, "");
    const special = /^[+-]?(inf|infinity|nan)$/i.test(text);
    if (!special && !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
      throw new InputError(`'${raw}' is not a number: give for example 1.5 or 2e-3`);
    }
    value = special
      ? Number(text.replace(/inf(inity)?/i, "Infinity").replace(/nan/i, "NaN"))
      : Number(text);
  } else if (type === "boolean") {
    if (raw !== "true" && raw !== "false") {
      throw new InputError(`'${raw}' is not a boolean: give true or false`);
    }
    value = raw === "true";
  }
  const withUnit = type === "integer" || type === "float";
  if (!withUnit && unit !== undefined && unit.trim() !== "") {
    // Exit 1, as the Python client (its exit code wins over the usage code 2).
    throw new InputError(
      `-u/--unit only applies to -t integer or float, not to a ${type}: leave out -u, or give ` +
        "the value's type with -t",
    );
  }
  const [checked] = validateExtras([{
    key,
    type: VALUE_TYPES[type],
    value,
    unit: withUnit && unit !== undefined && unit.trim() !== "" ? unit : null,
  }]) as [Extra];
  return checked;
}

/** `records add-metadatum`: adds one metadatum. */
export function addMetadatumCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("add-metadatum")
      .description("Add one metadatum to a record")
      .requiredOption("-m, --metadatum <key>", "Key of the metadatum")
      .requiredOption("-v, --value <value>", "Value of the metadatum")
      .addOption(
        new Option("-t, --type <type>", "Type of the value")
          .choices(Object.keys(VALUE_TYPES) as ValueType[]).default("string" as ValueType),
      )
      .option("-u, --unit <unit>", "Unit of the value (integer and float only)")
      .option("-f, --force", "Replace a metadatum with the same key"),
  );
  apyCommand(command, async (manager, options) => {
    const metadatum = toMetadatum(options.metadatum, options.value, options.type, options.unit);
    const record = await openRecord(manager, options);
    if (options.force !== true && await record.checkMetadatum(metadatum.key ?? "")) {
      // A failure (exit 1), as in the reference client: scripts rely on it.
      throw new InputError(
        `The ${describe(record)} has a metadatum '${metadatum.key}' already: nothing changed ` +
          "(add -f/--force to replace it)",
      );
    }
    await record.addMetadatum(metadatum, { force: options.force });
    manager.output.info(`Added the metadatum '${metadatum.key}' to the ${describe(record)}`);
  });
  return command;
}

function wrongFormat(reason: string): InputError {
  return new InputError(
    `The metadata have the wrong format: ${reason}\n` +
      "Give a JSON list of metadata entries, for example:\n" + METADATA_EXAMPLE +
      '\nor plain JSON such as {"sample": "A-17", "mass": 3} (add --plain if it looks like entries)',
  );
}

const ENTRY_KEYS = new Set(["key", "type", "value", "unit", "description", "term", "validation"]);

/** Largest `-p` file read (as the template importers). */
const MAX_METADATA_FILE_BYTES = 16 * 1024 * 1024;

/**
 * An object with only the keys of a metadata entry and a `type` or a `key`: the repository's
 * own form (an entry missing its `type` is still one, and is reported, not taken as data).
 */
function looksLikeEntry(value: JsonValue): value is Map<string, JsonValue> {
  return value instanceof Map && (value.has("type") || value.has("key")) &&
    [...value.keys()].every((key) => ENTRY_KEYS.has(key));
}

/** An entry without a `type`: a usage error with an example of the right form. */
function checkTypes(entries: readonly JsonValue[]): void {
  const typeless = entries.find((entry) => entry instanceof Map && !entry.has("type"));
  if (!(typeless instanceof Map)) return;
  const key = typeless.get("key");
  const example = JSON.stringify([{
    key: typeof key === "string" ? key : "x",
    type: "int",
    value: 1,
  }]);
  // Exit 1, as the Python client (the server refuses such entries): its exit code wins.
  throw new InputError(
    `The metadata look like entries, but the entry with the key '${key}' has no 'type': give ` +
      `each entry one of str, int, float, bool, date, dict, list, for example ${example} ` +
      "(or add --plain to store the JSON as plain data)",
  );
}

interface MetadataFlags {
  plain?: true;
  convertInvalidInts?: true;
  fallbackValue?: string;
}

/**
 * Reads `-m`/`-p` text: the repository's entry form (a list of entries or one entry) is
 * validated as is; anything else, or anything with `--plain`, is plain JSON converted with
 * `jsonToRepo` (numbers read losslessly, so `1.0` stays a float; dates normalised so the server
 * takes every form `isoparse` accepts).
 */
function parseMetadata(text: string, flags: MetadataFlags): Extra[] {
  let data: JsonValue;
  try {
    data = parseJson(text);
  } catch (error) {
    throw wrongFormat(`not valid JSON (${error instanceof Error ? error.message : error})`);
  }
  // A lone value (null, a string, a number) has no key: no metadata, not a key "1".
  if (!(data instanceof Map) && !Array.isArray(data)) return [];
  // Entries when any element looks like one (a list mixing entries and data is refused by the
  // entry check below); plain data only with --plain or when nothing looks like an entry.
  const entries = Array.isArray(data) ? data.some(looksLikeEntry) : looksLikeEntry(data);
  if (flags.plain !== true && entries) checkTypes(Array.isArray(data) ? data : [data]);
  try {
    if (flags.plain === true || !entries) {
      const fallback = flags.fallbackValue;
      return validateExtras(jsonToRepo(data, {
        convertInvalidInts: flags.convertInvalidInts === true,
        normalizeDates: true,
        ...fallback === undefined ? {} : { fallbackValue: fallbackOf(fallback) },
      }));
    }
    return validateExtras(jsonValueToPlain(Array.isArray(data) ? data : [data]));
  } catch (error) {
    // Invalid metadata is said from the error's fields (the entry, the allowed types).
    if (error instanceof MetadataError) throw wrongFormat(errorLine(error));
    if (error instanceof InputError) throw wrongFormat(error.message);
    throw error;
  }
}

/** `--fallback-value`: JSON when it parses (`0`, `""`, `false`), else the text as a string. */
function fallbackOf(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return text;
  }
}

/** `records add-metadata`: adds several metadata from a JSON string or file. */
export function addMetadataCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("add-metadata")
      .description(
        "Add metadata to a record from a JSON string or file: a list of metadata entries, or " +
          "plain JSON converted to entries",
      )
      .option("-m, --metadata <json>", "The metadata as a JSON string")
      .addOption(pathOption("-p, --file <path>", "Path of a JSON file holding the metadata", {
        checked: true,
      }))
      .option("-f, --force", "Replace (flat) metadata with the same key")
      .option("--plain", "Convert the JSON as plain data even where it looks like metadata entries")
      .option(
        "--convert-invalid-ints",
        "Plain JSON: store integers beyond ±(2^53−1) as strings instead of refusing them",
      )
      .option(
        "--fallback-value <value>",
        "Plain JSON: use this value for null instead of leaving the key out (JSON such as 0 or " +
          "'\"\"'; other text is taken as a string)",
      ),
  );
  apyCommand(command, addMetadata);
  return command;
}

/** The options of `records add-metadata`. */
interface AddMetadataOptions {
  metadata?: string;
  file?: string;
  force?: true;
  plain?: true;
  convertInvalidInts?: true;
  fallbackValue?: string;
}

/** Runs `records add-metadata`. */
async function addMetadata(manager: CLIRepoManager, options: AddMetadataOptions): Promise<void> {
  if ((options.metadata === undefined) === (options.file === undefined)) {
    // Exit 1, as the Python client (its exit code wins over the usage code 2).
    throw new InputError("Give the metadata either with -m/--metadata or with -p/--file");
  }
  const text = options.file === undefined
    ? options.metadata
    : await readBoundedText(options.file, MAX_METADATA_FILE_BYTES);
  const metadata = parseMetadata(text ?? "", options);
  if (metadata.length === 0) {
    manager.output.warning(
      "Nothing changed: the metadata given are empty (give a JSON object or a list of " +
        "metadata entries)",
    );
    return;
  }
  const record = await openRecord(manager, options);
  const before = JSON.stringify((await record.refresh()).extras ?? []);
  const after = await record.addMetadata(metadata, { force: options.force });
  if (JSON.stringify(after.extras ?? []) === before) {
    manager.output.warning(
      `Nothing changed: the ${describe(record)} has these keys already (add -f/--force to ` +
        "replace flat entries)",
    );
    return;
  }
  manager.output.info(`Added the metadata to the ${describe(record)}`);
}

/**
 * The printed form of a metadatum's value, unit or type, as the Python client prints it: a float
 * with its decimal point (`1000.0`), a boolean as `True`/`False`, nothing for an absent unit or
 * value (an empty line); a nested entry's value as JSON (floats kept as floats).
 */
function show(metadatum: Extra, what: "value" | "unit" | "type"): string {
  const value: unknown = metadatum[what];
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number" && what === "value" && metadatum.type === "float") {
    return floatText(value);
  }
  return stringifyJson(value);
}

/** `-n/--name` of `get-metadatum`: a token list separated by `.` (as `--xmlhelp` says). */
function metadatumPathOption() {
  const option = new Option(
    "-n, --name <name>",
    "Key of the metadatum; nested keys are joined with '.', list items are 1-based indices",
  ).makeOptionMandatory();
  setOptionType(option, "tokenlist", { separator: "." });
  return option;
}

/** `records get-metadatum`: prints a (nested) metadatum's value, unit or type. */
export function getMetadatumCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("get-metadatum")
      .description("Print the value, unit or type of a (nested) metadatum of a record")
      .addOption(metadatumPathOption())
      .addOption(
        new Option("-i, --information <information>", "What to print")
          .choices(["value", "unit", "type"] as const).default("value" as const),
      )
      .option(
        "-p, --pipe",
        "Print only the requested information (the default too; kept for compatibility)",
      )
      .option("-d, --default <value>", "Print this value when the metadatum is absent"),
  );
  readingCommand(command, {
    what: "the whole entry as the server stores it (an absent one with -d: the default as a " +
      "JSON string)",
    conflicts: ["pipe", "information"],
  });
  apyCommand(command, getMetadatum);
  return command;
}

/** The options of `records get-metadatum`. */
interface GetMetadatumOptions {
  name: string;
  information: "value" | "type" | "unit";
  pipe?: true;
  default?: string;
}

/** Runs `records get-metadatum`. */
async function getMetadatum(manager: CLIRepoManager, options: GetMetadatumOptions): Promise<void> {
  const record = await openRecord(manager, options);
  const metadatum = await record.getMetadatum(options.name);
  const what = options.information;
  if (metadatum === undefined) {
    if (options.default === undefined) {
      throw new RepoApyError(
        `The ${describe(record)} has no metadatum '${options.name}' (give -d/--default to ` +
          "print a value instead)",
      );
    }
    manager.output.info(
      `The ${describe(record)} has no metadatum '${options.name}': printing the default`,
    );
    const mode = jsonMode(options);
    if (mode !== undefined) printJson(manager.output, options.default, mode);
    else manager.output.data(options.default);
    return;
  }
  const mode = jsonMode(options);
  if (mode !== undefined) {
    printJson(manager.output, metadatum, mode);
    return;
  }
  if (!(what in metadatum)) {
    // A str, bool, date, dict or list entry has no unit: exit 1, as the Python client.
    throw new RepoApyError(
      `The metadatum '${options.name}' of the ${describe(record)} has no ${what} (a ` +
        `${metadatum.type} entry has none)`,
    );
  }
  const value = show(metadatum, what);
  // The whole output is the value: bare, so `$(repo-apy records get-metadatum …)` is the value.
  manager.output.data(value);
}

/** `records delete-metadatum`: removes one top-level metadatum. */
export function deleteMetadatumCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("delete-metadatum")
      .description("Delete a top-level metadatum of a record")
      .requiredOption("-m, --metadatum <key>", "Key of the metadatum"),
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    if (!await record.checkMetadatum(options.metadatum)) {
      manager.output.warning(
        `The ${describe(record)} has no metadatum '${options.metadatum}': nothing changed`,
      );
      return;
    }
    const what = `delete the metadatum '${options.metadatum}' of the ${describe(record)}`;
    if (dryRun(manager, what)) return;
    await record.removeMetadatum(options.metadatum);
    manager.output.info(`Deleted the metadatum '${options.metadatum}' of the ${describe(record)}`);
  });
  return command;
}

/** `records delete-all-metadata`: removes all metadata (needs `--i-am-sure`). */
export function deleteAllMetadataCommand(): CommandUnknownOpts {
  const command = recordOptions(
    new Command("delete-all-metadata")
      .description("Delete all metadata of a record")
      .option("--i-am-sure", "Confirm deleting all metadata"),
  );
  dryRunOption(command);
  apyCommand(command, async (manager, options) => {
    const record = await openRecord(manager, options);
    if (isDryRun(manager)) {
      for (const extra of (await record.meta()).extras ?? []) {
        dryRun(manager, `delete the metadatum '${extra.key}' of the ${describe(record)}`);
      }
      return;
    }
    requireSure(options.iAmSure, "delete all metadata of the record");
    await record.removeAllMetadata();
    manager.output.info(`Deleted all metadata of the ${describe(record)}`);
  });
  return command;
}
