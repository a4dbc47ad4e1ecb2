/**
 * The ground floor of the library's errors: {@linkcode RepoApyError}, which every error the
 * library throws derives from (so one `catch` handles them all), and the errors of the caller's
 * input and configuration. The errors of the wire live in `lib/http/errors.ts`; each layer above
 * adds its own (`config/`, `resources/`, `transfer/`, `import/eln/`).
 *
 * @module
 */

/**
 * Base class of every error raised by repo-apy: one `catch` handles them all, and the subclass
 * says what happened.
 *
 * @example The error family
 * ```ts
 * import {
 *   ConnectionError,
 *   MissingSchemaError,
 *   RepoApyError,
 *   RepoManager,
 *   RequestError,
 * } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * const server = await startServer();
 * const { url: host, pat } = server;
 * await using manager = new RepoManager({ host, pat });
 * // One catch for all: every error of the library is a RepoApyError.
 * await assert.rejects(manager.record({ id: 999999 }), RepoApyError);
 * // The server answered with an error status: RequestError.
 * const missing = manager.record({ id: 999999 });
 * await assert.rejects(missing, (e) => e instanceof RequestError && e.status === 404);
 * // Nothing answered: ConnectionError (TimeoutError: too late; TlsError: untrusted certificate).
 * await server[Symbol.asyncDispose]();
 * await using gone = new RepoManager({ host, pat, retry: { maxAttempts: 1 } });
 * await assert.rejects(gone.info(), (e) => e instanceof ConnectionError && e.unreachable);
 * // The caller's input (InputError) or configuration (ConfigurationError), refused before sending:
 * await using typo = new RepoManager({ host: "repo.example", pat });
 * await assert.rejects(typo.info(), (e) => e instanceof MissingSchemaError && e.host !== "");
 * // Also RepoApyErrors: RedirectError (a refused redirect), ResponseTooLargeError (JSON too big).
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
 * The configuration (config file, instance or manager options) is missing or malformed
 * ({@linkcode RepoApyError} shows the family).
 */
export class ConfigurationError extends RepoApyError {}

/**
 * Input given by the caller is invalid; nothing was sent to the server ({@linkcode RepoApyError}
 * shows the family).
 */
export class InputError extends RepoApyError {}

/**
 * The host has no `http://` or `https://` scheme ({@linkcode RepoApyError} shows the family).
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
