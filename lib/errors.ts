/**
 * The ground floor of the library's errors: {@linkcode RepoApyError}, which every error the
 * library throws derives from (so one `catch` handles them all), and the errors of the caller's
 * input and configuration. The errors of the wire live in `lib/http/errors.ts`; each layer above
 * adds its own (`config/`, `resources/`, `transfer/`, `import/eln/`).
 *
 * @example Usage
 * ```ts
 * import { InputError, RepoApyError } from "./errors.ts";
 * console.log(new InputError("empty identifier") instanceof RepoApyError); // true
 * ```
 *
 * @module
 */

/**
 * Base class of every error raised by repo-apy.
 *
 * @example One catch for every library error
 * ```ts
 * import { RepoApyError, RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * await assert.rejects(manager.record({ id: 999999 }), RepoApyError);
 * ```
 */
export class RepoApyError extends Error {
  /**
   * Creates the error.
   *
   * @param message What went wrong and what to do about it.
   * @param options Standard error options (`cause`).
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The configuration (config file, instance or manager options) is missing or malformed.
 *
 * @example A host without a scheme
 * ```ts
 * import { ConfigurationError, RepoManager } from "@repo/apy";
 * import assert from "node:assert";
 *
 * await using manager = new RepoManager({ host: "repo.example.org", pat: "pat_x" });
 * await assert.rejects(manager.info(), ConfigurationError); // nothing was sent
 * ```
 */
export class ConfigurationError extends RepoApyError {}

/**
 * Input given by the caller is invalid; nothing was sent to the server.
 *
 * @example Usage
 * ```ts
 * import { InputError, RepoApyError } from "@repo/apy";
 * import assert from "node:assert";
 *
 * const error = new InputError("The identifier is empty: give one with letters or digits");
 * assert.ok(error instanceof RepoApyError);
 * assert.strictEqual(error.name, "InputError");
 * ```
 */
export class InputError extends RepoApyError {}

/**
 * The host has no `http://` or `https://` scheme.
 *
 * @example Usage
 * ```ts
 * import { MissingSchemaError, RepoManager } from "@repo/apy";
 * import assert from "node:assert";
 *
 * await using manager = new RepoManager({ host: "repo.example.org", pat: "pat_x" });
 * await assert.rejects(manager.info(), (error) => {
 *   assert.ok(error instanceof MissingSchemaError);
 *   assert.strictEqual(error.host, "repo.example.org");
 *   return true;
 * });
 * ```
 */
export class MissingSchemaError extends ConfigurationError {
  /** The host as it was given. */
  readonly host: string;

  /**
   * Creates the error for a host without a scheme.
   *
   * @param host The host as it was given.
   */
  constructor(host: string) {
    super(
      `The host '${host}' has no scheme: write it with 'https://' (or 'http://'), for example 'https://${host}'`,
    );
    this.host = host;
  }
}
