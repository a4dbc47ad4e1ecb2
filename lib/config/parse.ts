/**
 * Parsing and validation of the config file's text.
 *
 * @module
 */

import { parse, TomlError, type TomlValue } from "smol-toml";
import { ConfigurationError } from "../errors.ts";
import { looksLikeToken } from "./mask.ts";
import type {
  ConfigValue,
  GlobalSection,
  InstanceSection,
  RepoConfig,
  SharedSection,
} from "./types.ts";

/** Name of the table holding settings shared by all instances. */
export const GLOBAL_SECTION = "global";

/**
 * Parses and validates the text of a config file.
 *
 * `whitelist` may be a TOML array of strings or one comma-separated string; unknown keys are
 * kept in `extra`. Missing `host`/`pat` are not an error here (a fresh file has them empty):
 * {@linkcode resolveSettings} checks them when an instance is used.
 *
 * @example Usage
 * ```ts
 * import { parseConfig } from "./parse.ts";
 * const config = parseConfig(
 *   '[global]\ndefault = "main"\n[main]\nhost = "https://repo.example"\npat = "pat_x"\ntimeout = 5\n',
 *   "/home/me/.repoconfig",
 * );
 * console.log(config.global.default, config.instances.get("main")?.timeout); // "main" 5
 * ```
 *
 * @param text The file's content (TOML).
 * @param path The file's path, used in error messages.
 * @returns The parsed config.
 * @throws {ConfigurationError} When the text is not TOML or a key has the wrong type.
 */
export function parseConfig(text: string, path: string): RepoConfig {
  let table: { [key: string]: TomlValue };
  try {
    table = parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split("\n")[0] ?? "syntax error";
    // No `cause`: the TomlError quotes the lines around the error, which may hold the token.
    throw new ConfigurationError(
      `The config file ${path} is not valid TOML (line ${error.line}, column ${error.column}: ${reason}): ` +
        `quote every text value, for example 'host = "https://repo.example"', or move the file away ` +
        `and run 'repo-apy config create'`,
    );
  }
  try {
    return parseTables(table, path);
  } catch (error) {
    // A token pasted into the wrong key must not reach the message.
    const pats = Object.values(table).flatMap((value) =>
      isTable(value) && typeof value.pat === "string" && value.pat.length >= 4 ? [value.pat] : []
    );
    if (!(error instanceof ConfigurationError) || !pats.some((p) => error.message.includes(p))) {
      throw error;
    }
    let message = error.message;
    for (const pat of pats) message = message.replaceAll(pat, "<the token, not shown>");
    throw new ConfigurationError(message);
  }
}

function parseTables(table: { [key: string]: TomlValue }, path: string): RepoConfig {
  const config: RepoConfig = { global: { extra: {} }, instances: new Map() };
  for (const [name, value] of Object.entries(table)) {
    if (!isTable(value)) {
      throw new ConfigurationError(
        `The key '${name}' in ${path} is outside any table: move it under [${GLOBAL_SECTION}] or ` +
          `under an instance table such as [my_instance]`,
      );
    }
    if (name === GLOBAL_SECTION) config.global = parseGlobal(value, path);
    else config.instances.set(name, parseInstance(name, value, path));
  }
  return config;
}

type Table = { [key: string]: TomlValue };

function isTable(value: TomlValue): value is Table {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    !(value instanceof Date) && !("toJSON" in value);
}

function parseGlobal(table: Table, path: string): GlobalSection {
  const section: GlobalSection = { extra: {} };
  for (const [key, value] of Object.entries(table)) {
    switch (key) {
      case "default":
        section.default = expectString(value, key, GLOBAL_SECTION, path, '"my_instance"');
        break;
      case "experimental_features":
        section.experimentalFeatures = expectBoolean(value, key, GLOBAL_SECTION, path);
        break;
      case "host":
      case "pat":
        throw new ConfigurationError(
          `The key '${key}' is not allowed in [${GLOBAL_SECTION}] of ${path}: move it to an instance ` +
            `table such as [my_instance]`,
        );
      default:
        parseShared(section, key, value, GLOBAL_SECTION, path);
    }
  }
  return section;
}

function parseInstance(name: string, table: Table, path: string): InstanceSection {
  const section: InstanceSection = { extra: {} };
  for (const [key, value] of Object.entries(table)) {
    switch (key) {
      case "host":
        section.host = expectString(value, key, name, path, '"https://repo.example"');
        break;
      case "pat":
        section.pat = expectString(value, key, name, path, '"pat_..."');
        break;
      default:
        parseShared(section, key, value, name, path);
    }
  }
  return section;
}

function parseShared(
  section: SharedSection,
  key: string,
  value: TomlValue,
  name: string,
  path: string,
): void {
  switch (key) {
    case "timeout":
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
        throw typeError(key, name, path, "a positive number of seconds", "60", value);
      }
      section.timeout = value;
      return;
    case "verify":
      section.verify = expectBoolean(value, key, name, path);
      return;
    case "ca_bundle":
      section.caBundle = expectString(value, key, name, path, '"/etc/ssl/my-ca.pem"');
      return;
    case "base_path":
      section.basePath = expectString(value, key, name, path, '"/sub"');
      return;
    case "whitelist":
      section.whitelist = parseWhitelist(value, name, path);
      return;
    default:
      section.extra[key] = value as ConfigValue;
  }
}

function parseWhitelist(value: TomlValue, name: string, path: string): string[] {
  const example = '["https://a.example", "https://b.example"]';
  if (typeof value === "string") {
    return value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  }
  if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) {
    return value.map((entry) => (entry as string).trim()).filter((entry) => entry !== "");
  }
  throw typeError(
    "whitelist",
    name,
    path,
    "a list of hosts or one comma-separated string",
    example,
    value,
  );
}

function expectString(
  value: TomlValue,
  key: string,
  name: string,
  path: string,
  example: string,
): string {
  if (typeof value !== "string") throw typeError(key, name, path, "a quoted text", example, value);
  return value;
}

function expectBoolean(value: TomlValue, key: string, name: string, path: string): boolean {
  if (typeof value !== "boolean") {
    throw typeError(key, name, path, "true or false (without quotes)", "false", value);
  }
  return value;
}

function typeError(
  key: string,
  name: string,
  path: string,
  expected: string,
  example: string,
  value: TomlValue,
): ConfigurationError {
  return new ConfigurationError(
    `The key '${key}' in [${name}] of ${path} must be ${expected}, for example '${key} = ${example}'` +
      `, not ${describe(key, value)}`,
  );
}

function describe(key: string, value: TomlValue): string {
  if (key === "pat") return `a ${Array.isArray(value) ? "list" : typeof value}`;
  if (typeof value === "string") {
    return looksLikeToken(value)
      ? "a text that looks like a token (not shown)"
      : JSON.stringify(value);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
