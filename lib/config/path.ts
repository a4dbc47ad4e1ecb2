/**
 * Location of the config file.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";
import { ConfigFileError, type DirectSetting } from "./errors.ts";

/** Environment variable that overrides the config file's location. */
export const CONFIG_PATH_ENV = "REPO_APY_CONFIG";

/**
 * Environment variables with connection settings, as `GH_TOKEN` for gh: they beat the config
 * file and lose to explicit options. Read only when Deno grants `--allow-env` for them.
 */
export const SETTINGS_ENV = {
  host: "REPO_APY_HOST",
  pat: "REPO_APY_PAT",
  instance: "REPO_APY_INSTANCE",
  /** A PEM file of extra CA certificates (the config file's `ca_bundle`). */
  caBundle: "REPO_APY_CA_BUNDLE",
  /** `false` turns TLS verification off (the config file's `verify`); `true` turns it on. */
  verify: "REPO_APY_VERIFY",
} as const;

/** File name of the config file inside the home directory. */
export const CONFIG_FILE_NAME = ".repoconfig";

/** Options of {@linkcode configPath} and {@linkcode homePath}: the platform and environment. */
export interface PathOptions {
  /**
   * Whose conventions apply: on `windows` the home directory is `USERPROFILE` and the separator
   * `\`; elsewhere `HOME` and `/`.
   * @default {Deno.build.os}
   */
  os?: typeof Deno.build.os | undefined;
  /**
   * Reads an environment variable.
   * @default {(name) => Deno.env.get(name)}
   */
  env?: ((name: string) => string | undefined) | undefined;
}

/**
 * Returns the path of the config file: `$REPO_APY_CONFIG` when set, else `.repoconfig` in the
 * home directory (`$HOME/.repoconfig`; `%USERPROFILE%\.repoconfig` on Windows). Reads the
 * environment only when called.
 *
 * Permissions: `--allow-env=REPO_APY_CONFIG,HOME` (`USERPROFILE` on Windows).
 *
 * @example Usage
 * ```ts
 * import { configPath } from "./path.ts";
 * const env = (name: string) => ({ USERPROFILE: "C:\\Users\\me" } as Record<string, string>)[name];
 * console.log(configPath({ os: "windows", env })); // "C:\\Users\\me\\.repoconfig"
 * ```
 *
 * @param options The platform and environment (default: the running process's); `missing`: the
 * settings the caller still lacks, for the error.
 * @returns The path of the config file.
 * @throws {ConfigFileError} When neither the variable nor a home directory is set (`noHome`).
 */
export function configPath(
  options: PathOptions & { missing?: readonly DirectSetting[] | undefined } = {},
): string {
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const override = env(CONFIG_PATH_ENV);
  if (override !== undefined && override !== "") return override;
  try {
    return homePath(CONFIG_FILE_NAME, {
      ...options,
      missing: `or ${CONFIG_PATH_ENV} to locate the config file, or pass host and pat directly`,
    });
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    throw new ConfigFileError(error.message, {
      problem: "noHome",
      homeVariable: homeVariable(options),
      missing: options.missing,
    });
  }
}

function homeVariable(options: PathOptions): string {
  return (options.os ?? Deno.build.os) === "windows" ? "USERPROFILE" : "HOME";
}

/**
 * Joins a path below the user's home directory (`HOME`, or `USERPROFILE` on Windows).
 *
 * Permissions: `--allow-env=HOME` (`USERPROFILE` on Windows).
 *
 * @example Usage
 * ```ts
 * import { homePath } from "./path.ts";
 * console.log(homePath(".bashrc", { os: "linux", env: () => "/home/me" })); // "/home/me/.bashrc"
 * ```
 *
 * @param relative Path inside the home directory, with `/` separators.
 * @param options `missing`: end of the message when no home directory is set; the platform and
 * environment.
 * @returns The absolute path.
 * @throws {ConfigurationError} When no home directory is set.
 */
export function homePath(
  relative: string,
  options: PathOptions & { missing?: string } = {},
): string {
  const windows = (options.os ?? Deno.build.os) === "windows";
  const env = options.env ?? ((name: string) => Deno.env.get(name));
  const variable = homeVariable(options);
  const home = env(variable);
  if (home === undefined || home === "") {
    throw new ConfigurationError(
      `Cannot find the home directory: set ${variable} ${
        options.missing ?? "to your home directory"
      }`,
    );
  }
  const separator = windows ? "\\" : "/";
  const base = home.endsWith(separator) || home.endsWith("/") ? home : `${home}${separator}`;
  return `${base}${windows ? relative.replaceAll("/", separator) : relative}`;
}
