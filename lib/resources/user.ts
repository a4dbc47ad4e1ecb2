/**
 * {@linkcode RepoUser}: a user of the repository, looked up by id, by username and identity type,
 * or as the owner of the personal access token.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import {
  type CollectionJson,
  type GroupJson,
  IDENTITY_TYPES,
  type IdentityJson,
  type PageJson,
  type RecordJson,
  type TemplateJson,
  type UserJson,
} from "../http/protocol.ts";
import { identitiesPath, userPath, userResourcesPath } from "../http/paths.ts";
import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { requireText } from "./_checks.ts";
import { metaCache } from "./capabilities/cache.ts";
import { getPage } from "./capabilities/context.ts";

/** An identity provider a username belongs to. */
export type IdentityType = "local" | "ldap" | "oidc" | "shib";

/** Selects a user: by id, by username and identity type, or the token's owner. */
export type UserSelector =
  | { id: number }
  | { username: string; identityType: IdentityType }
  | { me: true };

/**
 * A user of the repository.
 *
 * @example Usage
 * ```ts
 * import { RepoManager, RepoUser } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const selector = { username: "testuser", identityType: "local" } as const;
 * const user = await RepoUser.load(manager.transport, selector);
 * assert.strictEqual(user.endpoint, "/users/1"); // manager.user({ id: 1 }) finds the same
 * assert.strictEqual((await user.meta()).identity?.username, "testuser");
 * assert.strictEqual((await user.getRecords({ per_page: 10 })).items[0]?.id, record.id);
 * assert.strictEqual((await user.identities())[0]?.username, "testuser");
 * assert.match(user.toString(), /username: testuser/);
 * ```
 */
export class RepoUser {
  /** The transport the user's requests go through. */
  readonly transport: Transport;
  /** Id of the user. */
  readonly id: number;
  #meta = metaCache<UserJson>();

  /**
   * Wraps a user whose metadata is at hand; nothing is sent.
   *
   * @param transport The transport.
   * @param meta The user as the server sent it.
   */
  constructor(transport: Transport, meta: UserJson) {
    this.transport = transport;
    this.id = meta.id;
    this.#meta.set(meta);
  }

  /**
   * Looks a user up: GET `/users/<id>`, `/users/<identity type>/<username>` or `/users/me`.
   *
   * @throws {InputError} When the selector is incomplete or the identity type unknown.
   */
  static async load(transport: Transport, selector: UserSelector): Promise<RepoUser> {
    const shape = { shape: { id: "number" } } as const;
    return new RepoUser(
      transport,
      await transport.jsonObject<UserJson>("GET", userEndpoint(selector), shape),
    );
  }

  /** Endpoint of the user, relative to the API base (`/users/1`). */
  get endpoint(): string {
    return userPath({ id: this.id });
  }

  /** The user's metadata, fetched anew when older than five minutes. */
  async meta(): Promise<UserJson> {
    return this.#meta.fresh() ??
      this.#meta.set(await this.transport.json<UserJson>("GET", this.endpoint));
  }

  /** One page of the records the user created that you can read (`shared`, `filter`, ...). */
  async getRecords(query: QueryParams = {}): Promise<PageJson<RecordJson>> {
    return await getPage(this.transport, userResourcesPath(this.id, "record"), query);
  }

  /** One page of the collections the user created, as {@linkcode RepoUser.getRecords}. */
  async getCollections(query: QueryParams = {}): Promise<PageJson<CollectionJson>> {
    return await getPage(this.transport, userResourcesPath(this.id, "collection"), query);
  }

  /** One page of the templates the user created, as {@linkcode RepoUser.getRecords}. */
  async getTemplates(query: QueryParams = {}): Promise<PageJson<TemplateJson>> {
    return await getPage(this.transport, userResourcesPath(this.id, "template"), query);
  }

  /**
   * One page of the groups the user created, or (`common: true`) the groups you share, as
   * {@linkcode RepoUser.getRecords}.
   */
  async getGroups(query: QueryParams = {}): Promise<PageJson<GroupJson>> {
    return await getPage(this.transport, userResourcesPath(this.id, "group"), query);
  }

  /** The user's identities, oldest first. */
  async identities(): Promise<IdentityJson[]> {
    return await this.transport.json("GET", identitiesPath(this.id));
  }

  /** Describes the user like `Jane Doe (id: 1, account type: local, username: jdoe)`. */
  toString(): string {
    const { displayname, identity } = this.#meta.peek() ?? { displayname: "unknown" };
    return `${displayname} (id: ${this.id}, account type: ${
      identity?.type ?? "unknown"
    }, username: ${identity?.username ?? "unknown"})`;
  }
}

function userEndpoint(selector: UserSelector): string {
  if ("id" in selector && selector.id !== undefined) {
    return userPath({ id: selector.id });
  }
  if ("username" in selector && selector.username !== undefined) {
    const username = requireText(selector.username, "username").trim();
    const type: unknown = selector.identityType;
    if (type === undefined || type === null || type === "") {
      throw new InputError(
        `No identity type given for the username '${username}': pass identityType (${
          IDENTITY_TYPES.join(", ")
        })`,
      );
    }
    if (!(IDENTITY_TYPES as readonly unknown[]).includes(type)) {
      throw new InputError(
        `Unknown identity type '${String(type)}': use one of ${IDENTITY_TYPES.join(", ")}`,
      );
    }
    return userPath({ identityType: type as IdentityType, username });
  }
  if ("me" in selector && selector.me === true) return userPath({ me: true });
  throw new InputError("No user given: pass { id }, { username, identityType } or { me: true }");
}
