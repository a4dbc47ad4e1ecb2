/**
 * Location of the config file.
 *
 * @module
 */

import { ConfigurationError } from "../http/errors.ts";

/** Environment variable that overrides the config file's location. */
export const CONFIG_PATH_ENV = "REPO_APY_CONFIG";

/** File name of the config file inside the home directory. */
export const CONFIG_FILE_NAME = ".repoconfig";

/**
 * Returns the path of the config file: `$REPO_APY_CONFIG` when set, else `~/.repoconfig`
 * (home from `HOME`, or `USERPROFILE` on Windows). Reads the environment only when called.
 *
 * Permissions: `--allow-env=REPO_APY_CONFIG,HOME` (`USERPROFILE` on Windows).
 *
 * @example Usage
 * ```ts ignore
 * import { configPath } from "./path.ts";
 * console.log(configPath()); // "/home/me/.repoconfig"
 * ```
 *
 * @returns The path of the config file.
 * @throws {ConfigurationError} When neither the variable nor a home directory is set.
 */
export function configPath(): string {
  const override = Deno.env.get(CONFIG_PATH_ENV);
  if (override !== undefined && override !== "") return override;
  return homePath(CONFIG_FILE_NAME, {
    missing: `or ${CONFIG_PATH_ENV} to locate the config file, or pass host and pat directly`,
  });
}

/**
 * Joins a path below the user's home directory (`HOME`, or `USERPROFILE` on Windows).
 *
 * Permissions: `--allow-env=HOME` (`USERPROFILE` on Windows).
 *
 * @example Usage
 * ```ts ignore
 * import { homePath } from "./path.ts";
 * console.log(homePath(".bashrc")); // "/home/me/.bashrc"
 * ```
 *
 * @param relative Path inside the home directory, with `/` separators.
 * @param options `missing`: end of the message when no home directory is set.
 * @returns The absolute path.
 * @throws {ConfigurationError} When no home directory is set.
 */
export function homePath(relative: string, options: { missing?: string } = {}): string {
  const windows = Deno.build.os === "windows";
  const variable = windows ? "USERPROFILE" : "HOME";
  const home = Deno.env.get(variable);
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
