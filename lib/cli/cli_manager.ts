/**
 * {@linkcode CLIRepoManager}: the {@linkcode RepoManager} the CLI commands get, tied to the CLI's
 * output and verbosity.
 *
 * @module
 */

import type { ConnectionSettings } from "../config/settings.ts";
import { RepoManager, type RepoManagerOptions } from "../manager/repo_manager.ts";
import type { ResourceSelector } from "../resources/resource.ts";
import type { RepoUser, UserSelector } from "../resources/user.ts";
import type { RepoCollection } from "../model/collection.ts";
import type { RepoRecord } from "../model/record.ts";
import type { RepoGroup } from "../resources/group.ts";
import type { RepoTemplate } from "../model/template.ts";
import { explainLookup, explainUserLookup } from "./_not_found.ts";
import { Output, type Verbosity } from "./output.ts";

/** Options of a {@linkcode CLIRepoManager}. */
export interface CLIRepoManagerOptions extends RepoManagerOptions {
  /** Where messages go; default: the process's stdout/stderr. */
  output?: Output;
  /** Verbosity to set on the output. Default: the output's current one (`info` for a new one). */
  verbose?: Verbosity;
}

/**
 * A manager for CLI commands: library diagnostics and config warnings go to the CLI output.
 *
 * @example Messages on the CLI's output, the PAT hidden (permissions: `--allow-net` for the host)
 * ```ts
 * import { CLIRepoManager, Output } from "@repo/apy/cli/kit";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * const err: string[] = [];
 * const output = new Output({ stdout: () => {}, stderr: (text) => err.push(text) });
 * await using manager = new CLIRepoManager({ host: server.url, pat: server.pat, output, verbose: "debug" });
 * assert.strictEqual(manager.isVerbose("debug"), true);
 * assert.strictEqual((await manager.info()).version, "1.13.0");
 * assert.ok(err.length > 0); // the request was logged at debug verbosity
 * manager.output.info(`token ${(await manager.settings()).pat}`);
 * assert.ok(!err.join("").includes(server.pat)); // the PAT never is printed
 * ```
 *
 * @example Lookups that say why they failed
 * ```ts
 * import { CLIRepoManager } from "@repo/apy/cli/kit";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new CLIRepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "gone", create: true });
 * await record.delete();
 * await assert.rejects(manager.record({ id: record.id }), /is in the trash: restore it/);
 * await assert.rejects(manager.collection({ id: 9999 }), /No collection with id 9999 exists/);
 * await assert.rejects(
 *   manager.user({ username: "jdoe", identityType: "local" }),
 *   /No user 'jdoe' \(account type local\) exists/,
 * );
 * ```
 */
export class CLIRepoManager extends RepoManager {
  /**
   * Where commands print, hiding this manager's token: `text` for lines meant for people (made
   * safe for the terminal), `data` for byte-exact data, `info`, `warning`, `error` and `debug` for
   * messages on stderr at their verbosity.
   */
  readonly output: Output;
  /** Cancels the command (Ctrl-C): pass it to transfers so they can leave resumable data. */
  readonly signal: AbortSignal | undefined;

  /**
   * Creates the manager (`output` and `verbose` besides the manager's options); nothing is read or
   * sent yet.
   */
  constructor(options: CLIRepoManagerOptions = {}) {
    const { output = new Output(), verbose, ...rest } = options;
    if (verbose !== undefined) output.verbosity = verbose;
    super({
      ...rest,
      log: rest.log ?? output.logger(),
      warn: rest.warn ?? ((message: string) => output.warning(message)),
    });
    this.output = output;
    this.signal = rest.signal;
  }

  /** The resolved settings; the PAT is registered with the output so it is never printed. */
  override async settings(): Promise<ConnectionSettings> {
    const settings = await super.settings();
    this.output.addSecret(settings.pat);
    return settings;
  }

  /**
   * Opens a record like {@linkcode RepoManager.record}; when that fails, the error says why in
   * the user's terms: the record is in the trash (and how to restore it), no record has that id,
   * or the account has no role in it.
   */
  override async record(selector: ResourceSelector): Promise<RepoRecord> {
    return await this.#explained("record", selector, () => super.record(selector));
  }

  /**
   * Opens a collection like {@linkcode RepoManager.collection}, with errors as for
   * {@linkcode CLIRepoManager.record}.
   */
  override async collection(selector: ResourceSelector): Promise<RepoCollection> {
    return await this.#explained("collection", selector, () => super.collection(selector));
  }

  /**
   * Opens a template like {@linkcode RepoManager.template}, with errors as for
   * {@linkcode CLIRepoManager.record}.
   */
  override async template(selector: ResourceSelector): Promise<RepoTemplate> {
    return await this.#explained("template", selector, () => super.template(selector));
  }

  /**
   * Opens a group like {@linkcode RepoManager.group}, with errors as for
   * {@linkcode CLIRepoManager.record}.
   */
  override async group(selector: ResourceSelector): Promise<RepoGroup> {
    return await this.#explained("group", selector, () => super.group(selector));
  }

  /** Opens a user like {@linkcode RepoManager.user}; a user that does not exist is named. */
  override async user(selector: UserSelector): Promise<RepoUser> {
    try {
      return await super.user(selector);
    } catch (error) {
      if ("me" in selector) throw error;
      throw explainUserLookup(selector, error);
    }
  }

  async #explained<T>(type: string, selector: ResourceSelector, open: () => Promise<T>) {
    try {
      return await open();
    } catch (error) {
      // Creating (get-or-create) reports its own errors; a lookup says why it failed.
      if ("create" in selector && selector.create === true) throw error;
      const named = "id" in selector && typeof selector.id === "number"
        ? { id: selector.id }
        : { identifier: String((selector as { identifier?: unknown }).identifier ?? "") };
      throw await explainLookup(this.misc, type, named, error);
    }
  }

  /** Whether a message of `level` is printed (the output's {@linkcode Output.isVerbose}). */
  isVerbose(level: Verbosity): boolean {
    return this.output.isVerbose(level);
  }
}
