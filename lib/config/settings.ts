/**
 * Resolution of the connection settings from explicit options, the config file and defaults.
 *
 * @module
 */

import { ConfigurationError } from "../http/errors.ts";
import { configPath as defaultConfigPath } from "./path.ts";
import { readConfig } from "./read.ts";
import { selectInstance } from "./select.ts";
import type { InstanceSection, RepoConfig } from "./types.ts";

/** Default request timeout in seconds. */
export const DEFAULT_TIMEOUT = 60;

/** Fully resolved settings of one connection. */
export interface ConnectionSettings {
  /** Name of the config instance used, or `undefined` when host and pat were given directly. */
  instance: string | undefined;
  /** Host as configured (scheme not validated here). */
  host: string;
  /** Personal access token. */
  pat: string;
  /** Request timeout in seconds. @default {60} */
  timeout: number;
  /** Whether TLS certificates are verified. @default {true} */
  verify: boolean;
  /** Path of a PEM file with extra CA certificates. */
  caBundle: string | undefined;
  /** Hosts redirects may go to. @default {[]} */
  whitelist: string[];
  /** Path prefix of the API on the host. @default {""} */
  basePath: string;
}

/** Options of {@linkcode resolveSettings}; each one beats the config file. */
export interface SettingsOptions {
  /** Config instance to use; forces the file to be read. */
  instance?: string | undefined;
  /** Host, for example `https://repo.example`. */
  host?: string | undefined;
  /** Personal access token. */
  pat?: string | undefined;
  /** Request timeout in seconds. */
  timeout?: number | undefined;
  /** Whether TLS certificates are verified. */
  verify?: boolean | undefined;
  /** Path of a PEM file with extra CA certificates. */
  caBundle?: string | undefined;
  /** Hosts redirects may go to. */
  whitelist?: string[] | undefined;
  /** Path prefix of the API on the host. */
  basePath?: string | undefined;
  /** Config file to read instead of {@linkcode defaultConfigPath | configPath()}. */
  configPath?: string | undefined;
  /** Called with warnings (for example a config file others may read). */
  warn?: ((message: string) => void) | undefined;
}

/**
 * Resolves connection settings: explicit option > instance table > `[global]` > default.
 *
 * The config file is read only when something is missing: an `instance` is given, or `host` or
 * `pat` is not. With both `host` and `pat` given, no file (and no environment) is touched.
 *
 * Permissions when the file is read: `--allow-env=REPO_APY_CONFIG,HOME` (unless `configPath`
 * is given) and `--allow-read=<config file>`.
 *
 * @example Usage
 * ```ts
 * import { resolveSettings } from "./settings.ts";
 * const settings = await resolveSettings({ host: "https://repo.example", pat: "pat_x" });
 * console.log(settings.timeout, settings.verify, settings.instance); // 60 true undefined
 * ```
 *
 * @param options Explicit settings, instance name, config path and warning callback.
 * @returns The resolved settings.
 * @throws {ConfigurationError} When the file is needed but missing or malformed, the instance
 * is unknown, a key is missing, or an option has a bad value.
 */
export async function resolveSettings(options: SettingsOptions): Promise<ConnectionSettings> {
  checkOptions(options);
  const needsFile = options.instance !== undefined || options.host === undefined ||
    options.pat === undefined;
  if (!needsFile) {
    return settingsFrom(options, undefined, undefined, options.host ?? "", options.pat ?? "");
  }
  const path = options.configPath ?? defaultConfigPath();
  const config = await readConfig(path, { warn: options.warn });
  const { name, section } = selectInstance(config, path, options.instance);
  const host = options.host ?? requireKey(section, "host", name, path);
  const pat = options.pat ?? requireKey(section, "pat", name, path);
  return settingsFrom(options, config, name, host, pat);
}

function settingsFrom(
  options: SettingsOptions,
  config: RepoConfig | undefined,
  name: string | undefined,
  host: string,
  pat: string,
): ConnectionSettings {
  const section = name === undefined ? undefined : config?.instances.get(name);
  const global = config?.global;
  return {
    instance: name,
    host,
    pat,
    timeout: options.timeout ?? section?.timeout ?? global?.timeout ?? DEFAULT_TIMEOUT,
    verify: options.verify ?? section?.verify ?? global?.verify ?? true,
    caBundle: options.caBundle ?? section?.caBundle ?? global?.caBundle,
    whitelist: [...(options.whitelist ?? section?.whitelist ?? global?.whitelist ?? [])],
    basePath: options.basePath ?? section?.basePath ?? global?.basePath ?? "",
  };
}

function checkOptions(options: SettingsOptions): void {
  const { timeout } = options;
  if (timeout !== undefined && (!Number.isFinite(timeout) || timeout <= 0)) {
    throw new ConfigurationError(
      `The option 'timeout' must be a positive number of seconds, for example 60, not ${timeout}`,
    );
  }
}

function requireKey(
  section: InstanceSection,
  key: "host" | "pat",
  name: string,
  path: string,
): string {
  const value = section[key];
  if (value === undefined || value.trim() === "") {
    throw new ConfigurationError(
      `Please define the key '${key}' for instance '${name}' in ${path} ` +
        `(repo-apy config set-${key} -I ${name})`,
    );
  }
  return value.trim();
}
