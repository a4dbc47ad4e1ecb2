/**
 * Types of a parsed config file (`~/.repoconfig`).
 *
 * @example Usage
 * ```ts
 * import type { RepoConfig } from "./types.ts";
 * const config: RepoConfig = {
 *   global: { default: "main", extra: {} },
 *   instances: new Map([["main", { host: "https://repo.example", pat: "pat_x", extra: {} }]]),
 * };
 * console.log(config.instances.size); // 1
 * ```
 *
 * @module
 */

/** A value of a key the client does not know (any TOML value). */
export type ConfigValue =
  | string
  | number
  | boolean
  | Date
  | ConfigValue[]
  | { [key: string]: ConfigValue };

/** Settings allowed both in `[global]` and in an instance table. */
export interface SharedSection {
  /** `timeout`: request timeout in seconds (positive number). */
  timeout?: number;
  /** `verify`: whether TLS certificates are verified. */
  verify?: boolean;
  /** `ca_bundle`: path of a PEM file with extra CA certificates. */
  caBundle?: string;
  /** `whitelist`: hosts (`scheme://host[:port]`) redirects may go to. */
  whitelist?: string[];
  /** `base_path`: path prefix of the API on the host (for example `/sub`). */
  basePath?: string;
  /** Keys the client does not know, kept as they are so a rewrite does not lose them. */
  extra: { [key: string]: ConfigValue };
}

/** The `[global]` table. */
export interface GlobalSection extends SharedSection {
  /** `default`: name of the instance used when none is given. */
  default?: string;
  /** `experimental_features`: enables experimental CLI groups. */
  experimentalFeatures?: boolean;
}

/** One instance table, such as `[my_instance]`. */
export interface InstanceSection extends SharedSection {
  /** `host`: base URL of the repository, for example `https://repo.example`. */
  host?: string;
  /** `pat`: personal access token. */
  pat?: string;
}

/** A whole config file. */
export interface RepoConfig {
  /** The `[global]` table (empty when the file has none). */
  global: GlobalSection;
  /** Instance tables by name, in file order. */
  instances: Map<string, InstanceSection>;
}
