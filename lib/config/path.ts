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
  const windows = Deno.build.os === "windows";
  const home = Deno.env.get(windows ? "USERPROFILE" : "HOME");
  if (home === undefined || home === "") {
    throw new ConfigurationError(
      `Cannot find the home directory: set ${
        windows ? "USERPROFILE" : "HOME"
      } or ${CONFIG_PATH_ENV} to locate the config file, or pass host and pat directly`,
    );
  }
  const separator = windows ? "\\" : "/";
  return home.endsWith(separator) || home.endsWith("/")
    ? `${home}${CONFIG_FILE_NAME}`
    : `${home}${separator}${CONFIG_FILE_NAME}`;
}
