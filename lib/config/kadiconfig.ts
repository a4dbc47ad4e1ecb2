/**
 * The Python client's config file (`~/.kadiconfig`, INI as Python's `configparser` reads it),
 * converted to ours, so nobody retypes hosts and tokens.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { homePath, type PathOptions } from "./path.ts";
import type { ConfigValue, GlobalSection, InstanceSection, RepoConfig } from "./types.ts";

/** Name of the Python client's config file in the home directory. */
export const KADICONFIG_FILE_NAME = ".kadiconfig";

/**
 * Where the Python client keeps its config file: `~/.kadiconfig`.
 *
 * @example Usage
 * ```ts
 * import { kadiconfigPath } from "./kadiconfig.ts";
 * console.log(kadiconfigPath({ os: "linux", env: () => "/home/me" })); // "/home/me/.kadiconfig"
 * ```
 *
 * @param options The platform and environment.
 * @returns The path.
 * @throws {ConfigurationError} When no home directory is set.
 */
export function kadiconfigPath(options: PathOptions = {}): string {
  return homePath(KADICONFIG_FILE_NAME, options);
}

/** configparser's booleans (`getboolean`), lower-cased. */
const BOOLEANS: { [text: string]: boolean } = {
  "1": true,
  yes: true,
  true: true,
  on: true,
  "0": false,
  no: false,
  false: false,
  off: false,
};

/** configparser sections: `DEFAULT` values apply to every other section. */
function parseIni(text: string, path: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let lastKey: string | undefined;
  const lines = text.replace(/^\ufeff/, "").split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const where = `${path}, line ${index + 1}`;
    if (/^\s*([#;].*)?$/.test(line)) {
      lastKey = undefined;
      continue;
    }
    if (/^\s/.test(line) && section !== undefined && lastKey !== undefined) {
      // A continuation line (indented) belongs to the value above.
      section.set(lastKey, `${section.get(lastKey)}\n${line.trim()}`);
      continue;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      const name = header[1]!;
      if (sections.has(name)) throw new ConfigurationError(`${where}: section [${name}] twice`);
      section = new Map();
      sections.set(name, section);
      lastKey = undefined;
      continue;
    }
    const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (!entry || section === undefined) {
      throw new ConfigurationError(
        `${where}: ${section === undefined ? "a value before any [section]" : "not 'key = value'"}`,
      );
    }
    // configparser lower-cases keys; '%%' is a literal '%' (its basic interpolation).
    lastKey = entry[1]!.trim().toLowerCase();
    section.set(lastKey, entry[2]!.trim().replaceAll("%%", "%"));
  }
  const defaults = sections.get("DEFAULT");
  sections.delete("DEFAULT");
  if (defaults !== undefined) {
    for (const values of sections.values()) {
      for (const [key, value] of defaults) if (!values.has(key)) values.set(key, value);
    }
  }
  return sections;
}

/** The settings both `[global]` and instances may have, converted to our types. */
function sharedSettings(
  values: Map<string, string>,
  where: string,
): InstanceSection & GlobalSection {
  const section: InstanceSection & GlobalSection = { extra: {} };
  for (const [key, value] of values) {
    switch (key) {
      case "host":
      case "pat":
      case "default":
        section[key] = value;
        break;
      case "timeout": {
        const seconds = Number(value);
        if (value === "" || !Number.isFinite(seconds) || seconds <= 0) {
          throw new ConfigurationError(`${where}: timeout '${value}' is not a positive number`);
        }
        section.timeout = seconds;
        break;
      }
      case "verify":
      case "experimental_features": {
        const flag = BOOLEANS[value.toLowerCase()];
        if (flag === undefined) {
          throw new ConfigurationError(`${where}: ${key} '${value}' is not true or false`);
        }
        if (key === "verify") section.verify = flag;
        else section.experimentalFeatures = flag;
        break;
      }
      case "ca_bundle":
        section.caBundle = value;
        break;
      case "base_path":
        section.basePath = value;
        break;
      case "whitelist":
        section.whitelist = value.split(",").map((host) => host.trim()).filter((host) => host);
        break;
      default:
        section.extra[key] = value as ConfigValue;
    }
  }
  return section;
}

/**
 * Converts the text of a Python client config file (`~/.kadiconfig`, INI) into a config:
 * `[global]` (`default`, and `verify`, `timeout`, … for every instance) and one instance per
 * other section with `host`, `pat`, `timeout`, `verify`, `ca_bundle`, `whitelist` and
 * `base_path`. Keys the client does not know are kept as text. Keys are read case-insensitively,
 * booleans as configparser reads them (`yes`/`no`, `on`/`off`, `1`/`0`, `true`/`false`).
 *
 * @example Usage
 * ```ts
 * import { parseKadiconfig } from "./kadiconfig.ts";
 * const config = parseKadiconfig(
 *   "[global]\ndefault = main\nverify = False\n\n[main]\nhost = https://repo.example\npat = pat_x\ntimeout = 60\n",
 *   "~/.kadiconfig",
 * );
 * console.log(config.global.default, config.global.verify); // "main" false
 * console.log(config.instances.get("main")?.timeout); // 60
 * ```
 *
 * @param text The file's text.
 * @param path The file's path, for error messages.
 * @returns The config.
 * @throws {ConfigurationError} When the file is no INI file or a value has the wrong type.
 */
export function parseKadiconfig(text: string, path: string): RepoConfig {
  const sections = parseIni(text, path);
  const config: RepoConfig = { global: { extra: {} }, instances: new Map() };
  for (const [name, values] of sections) {
    const where = `${path} [${name}]`;
    const section = sharedSettings(values, where);
    if (name === "global") {
      const { host: _host, pat: _pat, ...global } = section;
      config.global = global;
      continue;
    }
    const { default: _default, experimentalFeatures: _experimental, ...instance } = section;
    config.instances.set(name, instance);
  }
  const chosen = config.global.default;
  if (chosen !== undefined && !config.instances.has(chosen)) {
    throw new ConfigurationError(`${path}: the default instance '${chosen}' has no section`);
  }
  return config;
}
