/**
 * Resolution of the connection settings from explicit options, the config file and defaults.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { envGranted, grantedEnv } from "../http/_env.ts";
import { CONFIG_PATH_ENV, configPath as defaultConfigPath, SETTINGS_ENV } from "./path.ts";
import type { DirectSetting } from "./errors.ts";
import { configTokens, holdsToken } from "./mask.ts";
import { GLOBAL_SECTION } from "./parse.ts";
import { readConfig } from "./read.ts";
import { selectInstance } from "./select.ts";
import type { InstanceSection, RepoConfig } from "./types.ts";
import { checkConnectionText, checkSettingText } from "../http/setting_text.ts";

import { DEFAULT_TIMEOUT } from "../http/_transport_types.ts";

export { DEFAULT_TIMEOUT };

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
  /**
   * Where the host and the token came from: given directly (`option`), an environment variable
   * (`environment`: `REPO_APY_HOST`, `REPO_APY_PAT`) or the config instance (`config`), so a
   * message about a rejected token or an unreachable host names the right place to fix.
   */
  sources?: { host: SettingSource; pat: SettingSource };
}

/** Where a setting came from (see {@linkcode ConnectionSettings.sources}). */
export type SettingSource = "option" | "environment" | "config";

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
  /**
   * Reads an environment variable ({@linkcode SETTINGS_ENV}); `undefined` for an unset one.
   * Default: `Deno.env.get` for the variables Deno grants access to, without prompting.
   */
  env?: ((name: string) => string | undefined) | undefined;
}

function fromEnv(
  env: (name: string) => string | undefined,
  key: keyof typeof SETTINGS_ENV,
): string | undefined {
  const name = SETTINGS_ENV[key];
  const value = env(name)?.trim();
  if (value === undefined || value === "") return undefined;
  checkSettingText(value, SETTING_NAMES[key], `from the environment variable ${name}`);
  return value;
}

const SETTING_NAMES = {
  host: "the host",
  pat: "the personal access token",
  instance: "the instance name",
  caBundle: "the CA bundle",
  verify: "the verify setting",
} as const;

/** The TLS settings of the environment (`REPO_APY_CA_BUNDLE`, `REPO_APY_VERIFY`), where set. */
function tlsFromEnv(
  env: (name: string) => string | undefined,
): { caBundle?: string; verify?: boolean } {
  const caBundle = fromEnv(env, "caBundle");
  const verify = fromEnv(env, "verify");
  if (verify === undefined) return caBundle === undefined ? {} : { caBundle };
  const flag = /^(true|1|yes|on)$/i.test(verify)
    ? true
    : /^(false|0|no|off)$/i.test(verify)
    ? false
    : undefined;
  if (flag === undefined) {
    throw new ConfigurationError(
      `${SETTINGS_ENV.verify} must be true or false, not '${verify}': set it to false to skip ` +
        `verifying the certificate (unsafe), or give your CA's PEM file in ${SETTINGS_ENV.caBundle}`,
    );
  }
  return { ...(caBundle === undefined ? {} : { caBundle }), verify: flag };
}

/**
 * Resolves connection settings: explicit option > environment (`REPO_APY_HOST`, `REPO_APY_PAT`,
 * `REPO_APY_INSTANCE`, `REPO_APY_CA_BUNDLE`, `REPO_APY_VERIFY`) > instance table > `[global]` >
 * default. The TLS variables are what gives a private CA (or `verify = false`) where the config
 * file is not read (host and token from the environment, as in CI).
 *
 * With both `host` and `pat` given (and no `instance`), no environment and no file is touched.
 * Otherwise the variables are read where Deno grants access to them
 * (`--allow-env=REPO_APY_HOST,REPO_APY_PAT,REPO_APY_INSTANCE,REPO_APY_CA_BUNDLE,REPO_APY_VERIFY`);
 * the config file is read only
 * when the host or PAT is still missing or an instance is named.
 *
 * Permissions when the file is read: `--allow-env=REPO_APY_CONFIG,HOME` (unless `configPath`
 * is given) and `--allow-read=<config file>`. Without them, the error names what is missing.
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
 * @throws {ConfigFileError} When the file is needed but missing or may not be read (`missing`
 * names the settings that could be given instead).
 * @throws {ConfigurationError} When the file is malformed, the instance
 * is unknown, a key is missing, or an option has a bad value.
 */
export async function resolveSettings(options: SettingsOptions): Promise<ConnectionSettings> {
  checkOptions(options);
  if (options.instance === undefined && options.host !== undefined && options.pat !== undefined) {
    return settingsFrom(options, undefined, undefined, options.host, options.pat);
  }
  const env = options.env ?? grantedEnv;
  // The environment's TLS settings lose to the options, and beat the config file.
  const withEnv: SettingsOptions = { ...tlsFromEnv(env), ...definedOnly(options) };
  const host = options.host ?? fromEnv(env, "host");
  const pat = options.pat ?? fromEnv(env, "pat");
  const instance = options.instance ?? fromEnv(env, "instance");
  const source = (given: string | undefined, found: string | undefined): SettingSource =>
    given !== undefined ? "option" : found !== undefined ? "environment" : "config";
  const sources = { host: source(options.host, host), pat: source(options.pat, pat) };
  if (instance === undefined && host !== undefined && pat !== undefined) {
    return { ...settingsFrom(withEnv, undefined, undefined, host, pat), sources };
  }
  const missing = [
    ...(host === undefined ? ["host" as const] : []),
    ...(pat === undefined ? ["pat" as const] : []),
  ];
  if (options.configPath === undefined && options.env === undefined) checkConfigAccess(missing);
  const path = options.configPath ??
    defaultConfigPath({ missing, env: options.env });
  const config = await readConfig(path, { warn: options.warn, missing });
  const { name, section } = selectInstance(config, path, instance);
  checkConnectionText(section, `in [${name}] of ${path}`);
  checkConnectionText(config.global, `in [${GLOBAL_SECTION}] of ${path}`);
  return {
    ...settingsFrom(
      withEnv,
      config,
      name,
      host ?? requireKey(section, "host", name, path),
      pat ?? requireKey(section, "pat", name, path),
    ),
    sources,
  };
}

/**
 * Without access to the variables that locate the config file, says which setting is missing
 * instead of failing on a permission the caller never meant to use.
 */
function checkConfigAccess(missing: readonly DirectSetting[]): void {
  const home = Deno.build.os === "windows" ? "USERPROFILE" : "HOME";
  const blocked = [CONFIG_PATH_ENV, home].filter((name) => !envGranted(name));
  if (blocked.length === 0) return;
  const what = missing.length === 0
    ? "An instance was named, so the config file is needed"
    : `No ${missing.join(" and no ")} was given`;
  throw new ConfigurationError(
    `${what}: pass ${missing.length === 0 ? "host and pat" : missing.join(" and ")} ` +
      `to RepoManager, set ${
        (missing.length === 0 ? ["host", "pat"] as const : missing).map((key) => SETTINGS_ENV[key])
          .join(" and ")
      } (with --allow-env for ${
        missing.length === 1 ? "it" : "them"
      }), or allow reading the config file (--allow-env=${blocked.join(",")} and --allow-read)`,
  );
}

/** The options that are set (an `undefined` one must not hide the environment's value). */
function definedOnly(options: SettingsOptions): SettingsOptions {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as SettingsOptions;
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
  const settings: ConnectionSettings = {
    sources: { host: "option", pat: "option" },
    instance: name,
    host,
    pat,
    timeout: options.timeout ?? section?.timeout ?? global?.timeout ?? DEFAULT_TIMEOUT,
    verify: options.verify ?? section?.verify ?? global?.verify ?? true,
    caBundle: options.caBundle ?? section?.caBundle ?? global?.caBundle,
    whitelist: [...(options.whitelist ?? section?.whitelist ?? global?.whitelist ?? [])],
    basePath: options.basePath ?? section?.basePath ?? global?.basePath ?? "",
  };
  checkNoPastedToken(settings, [pat, ...(config === undefined ? [] : configTokens(config))]);
  return settings;
}

/**
 * A token pasted as the host, the CA bundle or the base path would be echoed by every message
 * about that setting: refused here, without showing it.
 */
function checkNoPastedToken(settings: ConnectionSettings, known: readonly string[]): void {
  const { instance } = settings;
  if (instance !== undefined && holdsToken(instance, known)) {
    throw new ConfigurationError(
      `The instance's name looks like a personal access token (not shown): give the instance a ` +
        `name such as 'my_instance' (repo-apy config rename-instance), and the token as its 'pat'`,
    );
  }
  const fields = [
    ["host", settings.host, "the repository's URL, for example 'https://repo.example'"],
    ["ca_bundle", settings.caBundle, "the path of a PEM file"],
    ["base_path", settings.basePath, "a path such as '/sub'"],
  ] as const;
  for (const [key, value, expected] of fields) {
    if (value === undefined || !holdsToken(value, known)) continue;
    throw new ConfigurationError(
      `The setting '${key}'${instance === undefined ? "" : ` of the instance '${instance}'`} ` +
        `looks like a personal access token (not shown): write ${expected} there, and the token ` +
        `as 'pat'`,
    );
  }
}

function checkOptions(options: SettingsOptions): void {
  checkConnectionText(options, "given as an option");
  if (options.instance !== undefined) {
    checkSettingText(options.instance, SETTING_NAMES.instance, "given as an option");
  }
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
