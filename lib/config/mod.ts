/**
 * The config file (`~/.repoconfig`, or `$REPO_APY_CONFIG`): location, parsing, writing, and the
 * resolution of connection settings (explicit option > instance table > `[global]` > default).
 *
 * @example Usage
 * ```ts
 * import { resolveSettings } from "./mod.ts";
 * const settings = await resolveSettings({ host: "https://repo.example", pat: "pat_x", timeout: 5 });
 * console.log(settings.timeout); // 5
 * ```
 *
 * @module
 */

export type {
  ConfigValue,
  GlobalSection,
  InstanceSection,
  RepoConfig,
  SharedSection,
} from "./types.ts";
export {
  ConfigFileError,
  type ConfigFileErrorInit,
  type ConfigFileProblem,
  type DirectSetting,
} from "./errors.ts";
export {
  CONFIG_FILE_NAME,
  CONFIG_PATH_ENV,
  configPath,
  homePath,
  type PathOptions,
  SETTINGS_ENV,
} from "./path.ts";
export { GLOBAL_SECTION, parseConfig } from "./parse.ts";
export { MAX_CONFIG_BYTES, readConfig, type ReadConfigOptions } from "./read.ts";
export { stringifyConfig, writeConfig } from "./write.ts";
export { type SelectedInstance, selectInstance } from "./select.ts";
export {
  type ConnectionSettings,
  DEFAULT_TIMEOUT,
  resolveSettings,
  type SettingsOptions,
  type SettingSource,
} from "./settings.ts";
export {
  configTokens,
  holdsToken,
  looksLikeToken,
  maskHost,
  shownHost,
  shownName,
  TOKEN_NOT_SHOWN,
} from "./mask.ts";

// The base classes of `ConfigFileError` (at home in `@repo/apy/http` and `@repo/apy`).
export { ConfigurationError, RepoApyError } from "../errors.ts";
