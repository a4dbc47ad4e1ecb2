/**
 * Writing the config file to disk.
 *
 * @module
 */

import { stringify } from "smol-toml";
import { ConfigurationError } from "../errors.ts";
import { GLOBAL_SECTION } from "./parse.ts";
import type { GlobalSection, InstanceSection, RepoConfig, SharedSection } from "./types.ts";

/**
 * Writes the config file atomically (a temporary file next to it, then a rename) with mode
 * `0600`, so other users cannot read the token and readers never see a half-written file.
 *
 * Permissions: `--allow-read` and `--allow-write` for the file's directory.
 *
 * @example Usage
 * ```ts
 * import { writeConfig } from "./write.ts";
 * const dir = await Deno.makeTempDir();
 * await writeConfig(`${dir}/.repoconfig`, {
 *   global: { default: "main", extra: {} },
 *   instances: new Map([["main", { host: "https://repo.example", pat: "pat_x", extra: {} }]]),
 * });
 * console.log(await Deno.readTextFile(`${dir}/.repoconfig`));
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param path Path of the config file; a symlink is followed and its target replaced.
 * @param config The config to write.
 * @returns Resolves once the file is in place.
 * @throws {ConfigurationError} When the file cannot be written.
 */
export async function writeConfig(path: string, config: RepoConfig): Promise<void> {
  const text = stringifyConfig(config);
  const target = await Deno.realPath(path).catch(() => path);
  const temp = `${target}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.rename(temp, target);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigurationError(
      `Cannot write the config file ${path} (${reason}): check that its directory exists and is ` +
        `writable, or set REPO_APY_CONFIG to another path`,
      { cause: error },
    );
  }
}

/**
 * Renders a config as TOML text, `[global]` first.
 *
 * @example Usage
 * ```ts
 * import { stringifyConfig } from "./write.ts";
 * const text = stringifyConfig({ global: { default: "main", extra: {} }, instances: new Map() });
 * console.log(text); // [global]\ndefault = "main"
 * ```
 *
 * @param config The config to render.
 * @returns TOML text.
 */
export function stringifyConfig(config: RepoConfig): string {
  const table: { [key: string]: unknown } = { [GLOBAL_SECTION]: globalTable(config.global) };
  for (const [name, section] of config.instances) table[name] = instanceTable(section);
  return `${stringify(table).trim()}\n`;
}

function globalTable(section: GlobalSection): { [key: string]: unknown } {
  const table: { [key: string]: unknown } = {};
  if (section.default !== undefined) table.default = section.default;
  if (section.experimentalFeatures !== undefined) {
    table.experimental_features = section.experimentalFeatures;
  }
  return { ...table, ...sharedTable(section) };
}

function instanceTable(section: InstanceSection): { [key: string]: unknown } {
  const table: { [key: string]: unknown } = {};
  if (section.host !== undefined) table.host = section.host;
  if (section.pat !== undefined) table.pat = section.pat;
  return { ...table, ...sharedTable(section) };
}

function sharedTable(section: SharedSection): { [key: string]: unknown } {
  const table: { [key: string]: unknown } = {};
  if (section.timeout !== undefined) table.timeout = section.timeout;
  if (section.verify !== undefined) table.verify = section.verify;
  if (section.caBundle !== undefined) table.ca_bundle = section.caBundle;
  if (section.whitelist !== undefined) table.whitelist = section.whitelist;
  if (section.basePath !== undefined) table.base_path = section.basePath;
  return { ...table, ...section.extra };
}
