/**
 * {@linkcode RepoManager}: the entry point of the library. One manager holds one transport (one
 * connection pool) and hands it to every resource it opens.
 *
 * @module
 */

import {
  type ConnectionSettings,
  resolveSettings,
  type SettingsOptions,
} from "../config/settings.ts";
import { type Logger, type LogLevel, stderrLogger } from "../http/log.ts";
import { userPath } from "../http/paths.ts";
import type { InfoJson, UserJson } from "../http/protocol.ts";
import type { RetryOptions } from "../http/retry.ts";
import { Transport } from "../http/transport.ts";
import { RepoGroup } from "../resources/group.ts";
import { RepoMisc } from "../resources/misc.ts";
import type { ResourceSelector } from "../resources/resource.ts";
import { RepoSearch } from "../resources/search.ts";
import { RepoUser, type UserSelector } from "../resources/user.ts";
// The classes with file transfers are imported when a record, collection or template is opened:
// a command that only lists or searches starts without the transfer engine.
import type { RepoCollection } from "../model/collection.ts";
import type { RepoRecord } from "../model/record.ts";
import type { RepoTemplate } from "../model/template.ts";
import { openResource } from "../resources/resource.ts";

/** Options of a {@linkcode RepoManager}; each one beats the config file. */
export interface RepoManagerOptions extends SettingsOptions {
  /** Replaces the built-in fetch; TLS options then don't apply. */
  fetch?: typeof fetch;
  /** Receives diagnostics (requests, retries, config warnings). */
  log?: Logger;
  /**
   * Without `log`: print diagnostics of this level and above to stderr. Without both, the
   * library prints nothing.
   */
  verbose?: LogLevel;
  /** Bounds of the retry policy. */
  retry?: RetryOptions;
  /** Cancels every request of this manager (e.g. on Ctrl-C), besides each request's own signal. */
  signal?: AbortSignal;
}

/**
 * Talks to one repository instance. Permissions: `--allow-net` for the host; reading the config
 * file (`~/.repoconfig` or `$REPO_APY_CONFIG`) when `host` or `pat` is not given.
 *
 * @example Opening resources
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true, title: "Sample 1" });
 * assert.strictEqual(record.created, true);
 * assert.strictEqual((await manager.record({ id: record.id })).created, false);
 * await manager.collection({ identifier: "batch-1", create: true });
 * await manager.template({ identifier: "t", create: true, type: "extras", data: [] });
 * await manager.group({ identifier: "team", create: true });
 * const user = await manager.user({ username: "testuser", identityType: "local" });
 * assert.strictEqual((await manager.patUser()).id, user.id);
 * assert.strictEqual((await manager.info()).version, "1.13.0");
 * await manager.close(); // also what `await using` does at the end of the scope
 * ```
 *
 * @example Settings without a config file
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import assert from "node:assert";
 *
 * await using manager = new RepoManager({ host: "http://127.0.0.1:5000", pat: "pat_x" });
 * const settings = await manager.settings(); // explicit host and PAT: no config file is read
 * assert.strictEqual(settings.host, "http://127.0.0.1:5000");
 * ```
 */
export class RepoManager implements AsyncDisposable {
  /** The transport every request of this manager goes through. */
  readonly transport: Transport;
  /** Every search method (records, collections, templates, groups, users). */
  readonly search: RepoSearch;
  /** Trash, licenses, roles, tags and server information. */
  readonly misc: RepoMisc;
  #options: RepoManagerOptions;
  #settings: Promise<ConnectionSettings> | undefined;

  /**
   * Creates the manager. Nothing is read or sent until the first request: the config file
   * (`~/.repoconfig` or `$REPO_APY_CONFIG`) is read then, and only if `host` or `pat` is missing
   * or an `instance` is named.
   *
   * @param options Host, PAT, instance and transport options.
   */
  constructor(options: RepoManagerOptions = {}) {
    const log = options.log ?? (options.verbose ? stderrLogger(options.verbose) : undefined);
    this.#options = { ...options, ...(log ? { log } : {}) };
    this.transport = new Transport({
      settings: () => this.settings(),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(log ? { log } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    this.search = new RepoSearch(this.transport);
    this.misc = new RepoMisc(this.transport);
  }

  /**
   * The resolved connection settings (explicit options, then config file, then defaults).
   *
   * @throws {ConfigurationError} When the config file is needed but missing or wrong.
   */
  settings(): Promise<ConnectionSettings> {
    const log = this.#options.log;
    this.#settings ??= resolveSettings({
      ...this.#options,
      ...(log && !this.#options.warn ? { warn: (message: string) => log.warning(message) } : {}),
    });
    const settings = this.#settings;
    settings.catch(() => {
      if (this.#settings === settings) this.#settings = undefined;
    });
    return settings;
  }

  /** Alias of {@linkcode RepoMisc.getInfo}: information about the repository instance. */
  async info(): Promise<InfoJson> {
    return await this.misc.getInfo();
  }

  /** The user owning the personal access token (`GET /users/me`). */
  async patUser(): Promise<UserJson> {
    return await this.transport.json<UserJson>("GET", userPath({ me: true }));
  }

  /**
   * Opens a record by id or identifier; with `create: true` a missing one is created with the
   * given metadata, its title the identifier by default ({@linkcode openResource}).
   */
  async record(selector: ResourceSelector): Promise<RepoRecord> {
    const { RepoRecord } = await import("../model/record.ts");
    return await openResource(this.transport, RepoRecord, selector);
  }

  /**
   * Opens a user by id, by user name and identity type, or the token's owner with `{ me: true }`
   * ({@linkcode RepoUser.load}).
   */
  async user(selector: UserSelector): Promise<RepoUser> {
    return await RepoUser.load(this.transport, selector);
  }

  /** Opens a collection by id or identifier, as {@linkcode RepoManager.record} does. */
  async collection(selector: ResourceSelector): Promise<RepoCollection> {
    const { RepoCollection } = await import("../model/collection.ts");
    return await openResource(this.transport, RepoCollection, selector);
  }

  /** Opens a template by id or identifier; created with `create: true`, `type` and `data`. */
  async template(selector: ResourceSelector): Promise<RepoTemplate> {
    const { RepoTemplate } = await import("../model/template.ts");
    return await openResource(this.transport, RepoTemplate, selector);
  }

  /** Opens a group by id or identifier, as {@linkcode RepoManager.record} does. */
  async group(selector: ResourceSelector): Promise<RepoGroup> {
    return await openResource(this.transport, RepoGroup, selector);
  }

  /** Closes the connection pool; `await using` does it at the end of the scope. */
  async close(): Promise<void> {
    await this.transport.close();
  }

  /** Closes the connection pool (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
