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

export * from "./types.ts";
export * from "./errors.ts";
export * from "./path.ts";
export * from "./parse.ts";
export * from "./read.ts";
export * from "./write.ts";
export * from "./select.ts";
export * from "./settings.ts";
export * from "./mask.ts";

// The base classes of `ConfigFileError` (at home in `@repo/apy/http` and `@repo/apy`).
export { ConfigurationError, RepoApyError } from "../errors.ts";
