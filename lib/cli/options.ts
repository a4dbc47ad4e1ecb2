/**
 * Shared option sets of the CLI (the reference client's option generators): functions that add
 * options to a command, plus readers that turn the parsed values into selectors.
 *
 * Flags declared with underscores (`--exclude_pattern`) also accept the kebab spelling
 * (`--exclude-pattern`): `main()` rewrites it before parsing, for every command.
 *
 * A selector given twice or not at all (`-r` with `-R`, `-U` without `-D`) fails with exit 1, not
 * the usage code 2: the Python client exits 1 there, and its exit code wins where both clients have
 * the command, so scripts migrate unedited.
 *
 * @module
 */

import {
  type CommandUnknownOpts,
  InvalidArgumentError,
  Option,
  type OptionValues,
} from "@commander-js/extra-typings";
import { InputError } from "../errors.ts";
import { MAX_PER_PAGE } from "../http/protocol.ts";
import { setOptionType } from "./_tree.ts";

/** Resource types with `--<type>-id`/`--<type>-identifier` options. */
export type IdentifiedType = "record" | "collection" | "template" | "group";

/** Options of {@linkcode idIdentifierOptions} and {@linkcode idIdentifierValue}. */
export interface IdIdentifierOptions {
  /** Suffix of the flags: `--record-id-<name>`, `--record-identifier-<name>`. */
  name?: string;
  /** Letter of the short flags (lower case for the id, upper case for the identifier). */
  char?: string;
  /** Adds `--<type>-ids`/`-T`: a comma-separated list of ids. */
  allowTokenlist?: boolean;
  /** Whether one of the options must be given (checked by {@linkcode idIdentifierValue}). */
  required?: boolean;
}

/** A resource picked on the command line. */
export type IdIdentifierValue = { id: number } | { identifier: string } | { ids: number[] };

/**
 * Parses a positive integer option value.
 *
 * @example Usage
 * ```ts
 * import { parseInteger } from "./options.ts";
 * console.log(parseInteger("5", { min: 1 })); // 5
 * ```
 *
 * @throws {InvalidArgumentError} When not an integer in range (a usage error, exit 2).
 */
export function parseInteger(value: string, range: { min?: number; max?: number } = {}): number {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  const number = Number(value.trim());
  if (!/^[+-]?\d+$/.test(value.trim()) || number < min || number > max) {
    const bounds = range.max === undefined ? `at least ${min}` : `between ${min} and ${max}`;
    throw new InvalidArgumentError(`'${value}' is not a whole number ${bounds}.`);
  }
  return number;
}

/**
 * Splits a token list (`1,2,3`) into trimmed, non-empty tokens.
 *
 * @example Usage
 * ```ts
 * import { parseTokenList } from "./options.ts";
 * console.log(parseTokenList(" a, b,,c ")); // ["a", "b", "c"]
 * ```
 */
export function parseTokenList(value: string, separator = ","): string[] {
  return value.split(separator).map((token) => token.trim()).filter((token) => token !== "");
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function camel(flag: string): string {
  return flag.replace(/^--/, "").split("-").map((part, index) =>
    index === 0 ? part : capitalize(part)
  )
    .join("");
}

function idFlags(type: string, name: string | undefined) {
  const suffix = name === undefined ? "" : `-${name}`;
  return {
    id: `--${type}-id${suffix}`,
    identifier: `--${type}-identifier${suffix}`,
    ids: `--${type}-ids`,
  };
}

/**
 * Adds `-r/--record-id` (integer) and `-R/--record-identifier` (likewise `-c/-C` collection,
 * `-t/-T` template, `-g/-G` group); with `name`, `--<type>-id-<name>`/`--<type>-identifier-<name>`;
 * with `allowTokenlist`, `-T/--<type>-ids`.
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { idIdentifierOptions, idIdentifierValue } from "./options.ts";
 * const command = idIdentifierOptions(new Command("show"), "record", { required: true });
 * command.parse(["-r", "7"], { from: "user" });
 * console.log(idIdentifierValue(command.opts(), "record")); // { id: 7 }
 * ```
 */
export function idIdentifierOptions<C extends CommandUnknownOpts>(
  command: C,
  type: IdentifiedType,
  options: IdIdentifierOptions = {},
): C {
  const { name, allowTokenlist = false } = options;
  const letter = options.char ?? (name === undefined ? type.charAt(0) : name.charAt(0));
  const flags = idFlags(type, name);
  const about = name === undefined ? `the ${type}` : `the ${type} (${name})`;
  const id = new Option(`-${letter.toLowerCase()}, ${flags.id} <id>`, `ID of ${about}`)
    .argParser((value) => parseInteger(value, { min: 1 }));
  setOptionType(id, "long");
  command.addOption(id);
  command.addOption(
    new Option(
      `-${letter.toUpperCase()}, ${flags.identifier} <identifier>`,
      `Identifier of ${about}`,
    ),
  );
  if (allowTokenlist) {
    const ids = new Option(`-T, ${flags.ids} <ids>`, `Comma-separated IDs of ${type}s`)
      .argParser((value) => parseTokenList(value).map((token) => parseInteger(token, { min: 1 })));
    setOptionType(ids, "tokenlist");
    command.addOption(ids);
  }
  return command;
}

/**
 * Reads the options added by {@linkcode idIdentifierOptions} (the same `name`): `undefined` when
 * none was given and none is required.
 *
 * @throws {InputError} When none was given but one is required, or more than one was given.
 */
export function idIdentifierValue(
  values: OptionValues,
  type: IdentifiedType,
  options: Pick<IdIdentifierOptions, "name" | "required"> = {},
): IdIdentifierValue | undefined {
  const flags = idFlags(type, options.name);
  const id = values[camel(flags.id)];
  const identifier = values[camel(flags.identifier)];
  const ids = values[camel(flags.ids)];
  const given = [id, identifier, ids].filter((value) => value !== undefined).length;
  if (given > 1) {
    throw new InputError(`Please specify either the id or the identifier of the ${type}, not both`);
  }
  if (typeof id === "number") return { id };
  if (typeof identifier === "string") return { identifier };
  if (Array.isArray(ids)) return { ids: ids.filter((entry) => typeof entry === "number") };
  if (options.required === true) {
    throw new InputError(
      `Please specify either the id or the identifier of the ${type} (${flags.id} or ${flags.identifier})`,
    );
  }
  return undefined;
}

/** A user picked on the command line. */
export type UserIdValue = { id: number } | { username: string; identityType: string };

/** Identity types the CLI accepts for `-D/--identity-type`. */
export const CLI_IDENTITY_TYPES = ["ldap", "local", "shib"] as const;

/**
 * Adds `-u/--user` (integer id), `-U/--username` and `-D/--identity-type` (`ldap|local|shib`).
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { userIdOptions, userIdValue } from "./options.ts";
 * const command = userIdOptions(new Command("show"));
 * command.parse(["-U", "jdoe", "-D", "local"], { from: "user" });
 * console.log(userIdValue(command.opts())); // { username: "jdoe", identityType: "local" }
 * ```
 */
export function userIdOptions<C extends CommandUnknownOpts>(command: C): C {
  const id = new Option("-u, --user <id>", "ID of the user")
    .argParser((value) => parseInteger(value, { min: 1 }));
  setOptionType(id, "long");
  command.addOption(id);
  command.addOption(new Option("-U, --username <username>", "Username of the user"));
  command.addOption(
    new Option("-D, --identity-type <type>", "Identity type of the user").choices(
      CLI_IDENTITY_TYPES,
    ),
  );
  return command;
}

/**
 * Reads the options added by {@linkcode userIdOptions}: `undefined` when none was given and none
 * is required.
 *
 * @throws {InputError} When a username comes without identity type, or none is given but required.
 */
export function userIdValue(
  values: OptionValues,
  options: { required?: boolean } = {},
): UserIdValue | undefined {
  const { user, username, identityType } = values;
  if (typeof user === "number") return { id: user };
  if (typeof username === "string") {
    if (typeof identityType !== "string") {
      throw new InputError(
        `Please specify the identity type of the user '${username}' with -D/--identity-type (${
          CLI_IDENTITY_TYPES.join(", ")
        })`,
      );
    }
    return { username, identityType };
  }
  if (options.required === true) {
    throw new InputError(
      "Please specify either the id (-u) or the username (-U with -D) of the user",
    );
  }
  return undefined;
}

/** A file picked on the command line. */
export type FileIdValue = { fileId: string } | { fileName: string };

/**
 * Adds `-n/--file-name` and `-i/--file-id`; with `name: "x"`, `--x-name`/`-x` and `--x-id`/`-X`.
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { fileIdOptions, fileIdValue } from "./options.ts";
 * const command = fileIdOptions(new Command("get"));
 * command.parse(["-n", "data.csv"], { from: "user" });
 * console.log(fileIdValue(command.opts())); // { fileName: "data.csv" }
 * ```
 */
export function fileIdOptions<C extends CommandUnknownOpts>(
  command: C,
  options: { name?: string; char?: string } = {},
): C {
  const { name } = options;
  if (name === undefined) {
    command.addOption(new Option("-n, --file-name <name>", "Name of the file"));
    command.addOption(new Option("-i, --file-id <id>", "ID of the file"));
  } else {
    const letter = options.char ?? name.charAt(0);
    command.addOption(
      new Option(`-${letter.toLowerCase()}, --${name}-name <name>`, `Name of the ${name}`),
    );
    command.addOption(
      new Option(`-${letter.toUpperCase()}, --${name}-id <id>`, `ID of the ${name}`),
    );
  }
  return command;
}

/**
 * Reads the options added by {@linkcode fileIdOptions} (the same `name`): `undefined` when none
 * was given and none is required.
 *
 * @throws {InputError} When both or (if required) none are given.
 */
export function fileIdValue(
  values: OptionValues,
  options: { name?: string; required?: boolean } = {},
): FileIdValue | undefined {
  const prefix = options.name ?? "file";
  const fileName = values[camel(`--${prefix}-name`)];
  const fileId = values[camel(`--${prefix}-id`)];
  if (fileName !== undefined && fileId !== undefined) {
    throw new InputError(`Please specify either the name or the id of the ${prefix}, not both`);
  }
  if (typeof fileId === "string") return { fileId };
  if (typeof fileName === "string") return { fileName };
  if (options.required === true) {
    throw new InputError(
      `Please specify either the name or the id of the ${prefix} (--${prefix}-name or --${prefix}-id)`,
    );
  }
  return undefined;
}

/**
 * Adds `-p/--page` (integer ≥ 1, default 1; `pageDescription` is its help text) and
 * `-n/--per-page` (1–100, default 10).
 *
 * @example Usage
 * ```ts
 * import { Command } from "@commander-js/extra-typings";
 * import { searchPaginationOptions } from "./options.ts";
 * const command = searchPaginationOptions(new Command("search"));
 * command.parse(["-n", "50"], { from: "user" });
 * console.log(command.opts()); // { page: 1, perPage: 50 }
 * ```
 */
export function searchPaginationOptions<C extends CommandUnknownOpts>(
  command: C,
  options: { pageDescription?: string } = {},
): C {
  const page = new Option("-p, --page <page>", options.pageDescription ?? "Page of the results")
    .argParser((value) => parseInteger(value, { min: 1 }))
    .default(1);
  const perPage = new Option("-n, --per-page <count>", `Results per page (1-${MAX_PER_PAGE})`)
    .argParser((value) => parseInteger(value, { min: 1, max: MAX_PER_PAGE }))
    .default(10);
  setOptionType(page, "long_range", { min: 1 });
  setOptionType(perPage, "long_range", { min: 1, max: MAX_PER_PAGE });
  command.addOption(page);
  command.addOption(perPage);
  return command;
}
