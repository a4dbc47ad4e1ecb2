/**
 * The config file could not be found or read. The fields say why, which file, and which
 * settings the caller could give directly instead, so a caller (the CLI) words its own advice.
 *
 * @module
 */

import { ConfigurationError } from "../errors.ts";

/**
 * Why the config file is not available: `notFound` (no file at the path), `notPermitted` (Deno
 * was not granted read access), `notReadable` (the OS refused to read it), `noHome` (no home
 * directory to look in, and no config path given).
 */
export type ConfigFileProblem = "notFound" | "notPermitted" | "notReadable" | "noHome";

/** A connection setting that can be given without a config file. */
export type DirectSetting = "host" | "pat";

/** Fields of a {@linkcode ConfigFileError}. */
export interface ConfigFileErrorInit extends ErrorOptions {
  /** Why the file is not available. */
  problem: ConfigFileProblem;
  /** The config file's path; `undefined` for `noHome`. */
  path?: string | undefined;
  /** The environment variable naming the home directory (`HOME`, `USERPROFILE`), for `noHome`. */
  homeVariable?: string | undefined;
  /** Settings still missing, which could be given directly instead. @default {["host", "pat"]} */
  missing?: readonly DirectSetting[] | undefined;
  /** For `notFound`: the Python client's config file (`~/.kadiconfig`) when one exists. */
  kadiconfig?: string | undefined;
}

/**
 * The config file is needed but could not be found or read.
 *
 * @example Usage
 * ```ts
 * import { ConfigFileError, ConfigurationError, RepoManager } from "@repo/apy";
 * import assert from "node:assert";
 *
 * const dir = await Deno.makeTempDir();
 * await using manager = new RepoManager({ configPath: `${dir}/none.toml` });
 * await assert.rejects(manager.info(), (error) => {
 *   assert.ok(error instanceof ConfigFileError && error instanceof ConfigurationError);
 *   assert.strictEqual(error.problem, "notFound");
 *   assert.strictEqual(error.path, `${dir}/none.toml`);
 *   return true;
 * });
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class ConfigFileError extends ConfigurationError {
  /** Why the file is not available. */
  readonly problem: ConfigFileProblem;
  /** The config file's path; `undefined` when no home directory was found. */
  readonly path: string | undefined;
  /** The variable naming the home directory, for `noHome`; otherwise `undefined`. */
  readonly homeVariable: string | undefined;
  /** Settings still missing that could be given directly instead of reading the file. */
  readonly missing: readonly DirectSetting[];
  /** For `notFound`: the Python client's config file, which `config import-kadiconfig` converts. */
  readonly kadiconfig: string | undefined;

  /**
   * Creates the error.
   *
   * @param message The whole message.
   * @param init Why, which file, what is missing, and the `cause`.
   */
  constructor(message: string, init: ConfigFileErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.problem = init.problem;
    this.path = init.path;
    this.homeVariable = init.homeVariable;
    this.missing = [...(init.missing ?? ["host", "pat"])];
    this.kadiconfig = init.kadiconfig;
  }
}
