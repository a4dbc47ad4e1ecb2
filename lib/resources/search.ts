/**
 * {@linkcode RepoSearch}: searching records, collections, templates, groups and users — every
 * page as an async iterator, one page, a user's resources, and all matching ids.
 *
 * @module
 */

import { paginate } from "../http/paginate.ts";
import { listPath, userResourcesPath } from "../http/paths.ts";
import {
  type CollectionJson,
  type GroupJson,
  MAX_PER_PAGE,
  type PageJson,
  type RecordJson,
  type TemplateJson,
  type UserJson,
} from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { type ListOptions, wireQuery } from "../http/list_options.ts";
import type { QueryParams, QueryValue } from "../http/url.ts";
import { allItems, getPage, PAGES_AHEAD } from "./capabilities/context.ts";
import { TooManyResultsError } from "./errors.ts";

/** Types that can be searched (the same as `UserResourceType` of `@repo/apy/http`). */
export type SearchType = "record" | "collection" | "template" | "group";

/** What a search of each type returns. */
export interface SearchResultJson {
  /** Records. */
  record: RecordJson;
  /** Collections. */
  collection: CollectionJson;
  /** Templates. */
  template: TemplateJson;
  /** Groups. */
  group: GroupJson;
}

/** One query object of the record search's extras filter (server-api §8.3). */
export interface ExtrasQuery {
  /** How it joins the previous query (`and` binds tighter than `or`; the first is ignored). */
  link?: "and" | "or";
  /** Key (nested keys as `a.b`, list members by 1-based index). */
  key?: string;
  /** Value type to match. */
  type?: "str" | "numeric" | "bool" | "date";
  /** String value (fuzzy; double quotes force an exact match). */
  str?: string;
  /** Numeric range (inclusive) and unit. */
  numeric?: { min?: number; max?: number; unit?: string };
  /** Boolean value. */
  bool?: boolean | "true" | "false";
  /** Date range (ISO 8601, inclusive). */
  date?: { min?: string; max?: string };
}

/** Search parameters; each is sent only to the types that know it (server-api §5.1, §9–§12). */
export interface SearchParams {
  /** Search text (title, identifier, ...). */
  query?: string;
  /** Sort order: `_score`, `±last_modified`, `±created_at`, `±title`, `±identifier`. */
  sort?: string;
  /** `private` or `public`; omitted for both. */
  visibility?: "private" | "public";
  /** Only resources with explicit permissions for you. */
  explicitPermissions?: boolean;
  /** Only resources created by these users. */
  user?: number | number[];
  /** Records and collections: tags. */
  tags?: string[];
  /** Whether resources need any (`or`, default) or all (`and`) tags. */
  tagOperator?: "or" | "and";
  /** Records: type(s); templates: `record` or `extras`. */
  type?: string | string[];
  /** Records: only in these collections. */
  collections?: number[];
  /** Records: include the records of the collections' descendants. */
  childCollections?: boolean;
  /** Records: only with files of these MIME types. */
  mimetypes?: string[];
  /** Records: the extras filter (sent as JSON). */
  extras?: ExtrasQuery[];
  /** Groups: only groups you are a member of. */
  memberOnly?: boolean;
  /** Page number, from 1. */
  page?: number;
  /** Items per page (at most 100). */
  perPage?: number;
}

/** Parameters of a user search (`GET /users`). */
export interface UserSearchParams {
  /** Display name or username. */
  filter?: string;
  /** Include inactive users. */
  inactive?: boolean;
  /** Page number, from 1. */
  page?: number;
  /** Items per page (at most 100). */
  perPage?: number;
}

/** Options of {@linkcode RepoSearch.searchResourceIds}. */
export interface ResourceIdsOptions {
  /** Joins the ids. @default {","} */
  separator?: string;
  /** Refuse (before fetching them all) when more resources match. @default {Infinity} */
  limit?: number;
}

/**
 * Turns search parameters into the query the server reads: wire names, the extras filter as
 * one JSON parameter, empty lists left out.
 *
 * @param params The parameters.
 * @returns The query.
 *
 * @example Usage
 * ```ts
 * import { searchQuery } from "./search.ts";
 * import assert from "node:assert";
 *
 * assert.deepStrictEqual(searchQuery({ query: "x", perPage: 10, tags: [] }), { query: "x", per_page: 10 });
 * ```
 */
export function searchQuery(params: SearchParams | UserSearchParams): QueryParams {
  const options: ListOptions = {};
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    options[name] = name === "extras" ? JSON.stringify(value) : value as QueryValue;
  }
  return wireQuery(options);
}

/**
 * Every search method, sharing the manager's transport (`manager.search`).
 *
 * @example Resources and their ids
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true, tags: ["raw"] });
 * const found = await Array.fromAsync(manager.search.searchResources("record", { tags: ["raw"] }));
 * assert.deepStrictEqual(found.map((item) => item.id), [record.id]);
 * const page = await manager.search.searchResourcesPage("record", { page: 1, perPage: 10 });
 * assert.strictEqual(page.items[0]?.id, record.id);
 * const ids = await manager.search.resourceIds("record", {}, { limit: 1000 });
 * assert.deepStrictEqual(ids, [record.id]);
 * assert.strictEqual(await manager.search.searchResourceIds("record"), `${record.id}`);
 * ```
 *
 * @example Users and what they created
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const page = await manager.search.searchUsers({ filter: "testuser" });
 * assert.deepStrictEqual(page.items.map((user) => user.identity?.username), ["testuser"]);
 * const [user] = await Array.fromAsync(manager.search.users({ filter: "testuser" }));
 * const created = await manager.search.searchUserResources("record", user!.id, { perPage: 10 });
 * assert.strictEqual(created.items[0]?.id, record.id);
 * const all = await Array.fromAsync(manager.search.userResources("record", user!.id));
 * assert.deepStrictEqual(all.map((item) => item.id), [record.id]);
 * ```
 */
export class RepoSearch {
  /** The transport searches go through. */
  readonly transport: Transport;

  /**
   * Creates the search object; nothing is sent.
   *
   * @param transport The transport.
   */
  constructor(transport: Transport) {
    this.transport = transport;
  }

  /** Iterates over the resources of a type matching `params`, up to four pages read ahead. */
  searchResources<T extends SearchType>(
    type: T,
    params: SearchParams = {},
  ): AsyncGenerator<SearchResultJson[T], void, undefined> {
    return allItems(this.transport, listPath(type), searchQuery(params));
  }

  /** One page of the resources of a type matching `params`. */
  searchResourcesPage<T extends SearchType>(
    type: T,
    params: SearchParams = {},
  ): Promise<PageJson<SearchResultJson[T]>> {
    return getPage(this.transport, listPath(type), searchQuery(params));
  }

  /**
   * One page of the resources a user created that you can read; with `shared: true`, the
   * resources you created that are shared with that user.
   */
  searchUserResources<T extends SearchType>(
    type: T,
    user: number,
    params: { filter?: string; sort?: string; shared?: boolean; page?: number; perPage?: number } =
      {},
  ): Promise<PageJson<SearchResultJson[T]>> {
    return getPage(this.transport, userResourcesPath(user, type), searchQuery(params));
  }

  /** Iterates over what {@linkcode RepoSearch.searchUserResources} pages through. */
  userResources<T extends SearchType>(
    type: T,
    user: number,
    params: { filter?: string; sort?: string; shared?: boolean; perPage?: number } = {},
  ): AsyncGenerator<SearchResultJson[T], void, undefined> {
    return allItems(this.transport, userResourcesPath(user, type), searchQuery(params));
  }

  /**
   * The ids of every resource matching `params` (`page` and `perPage` are ignored).
   *
   * @throws {TooManyResultsError} When more than `limit` resources match (checked on the first
   * page).
   */
  async resourceIds(
    type: SearchType,
    params: SearchParams = {},
    options: Pick<ResourceIdsOptions, "limit"> = {},
  ): Promise<number[]> {
    const { limit = Infinity } = options;
    const { page: _page, perPage: _perPage, ...rest } = params;
    const query = searchQuery({ ...rest, perPage: MAX_PER_PAGE });
    const ids: number[] = [];
    const pages = paginate<{ id: number }>(this.transport, listPath(type), query, {
      ahead: PAGES_AHEAD,
    });
    for await (const page of pages) {
      const total = page._pagination.total_items;
      if (total > limit) throw new TooManyResultsError(total, limit);
      ids.push(...page.items.map((item) => item.id));
      if (ids.length > limit) throw new TooManyResultsError(ids.length, limit);
    }
    return ids;
  }

  /**
   * The ids of {@linkcode RepoSearch.resourceIds}, joined by `separator` (`,` by default).
   *
   * @throws {TooManyResultsError} When more than `limit` resources match.
   */
  async searchResourceIds(
    type: SearchType,
    params: SearchParams = {},
    options: ResourceIdsOptions = {},
  ): Promise<string> {
    const { separator = ",", ...rest } = options;
    return (await this.resourceIds(type, params, rest)).join(separator);
  }

  /** One page of users, newest first; `filter` matches display name or username (`GET /users`). */
  searchUsers(params: UserSearchParams = {}): Promise<PageJson<UserJson>> {
    return getPage(this.transport, listPath("user"), searchQuery(params));
  }

  /** Iterates over the users matching `params`. */
  users(params: UserSearchParams = {}): AsyncGenerator<UserJson, void, undefined> {
    return allItems(this.transport, listPath("user"), searchQuery(params));
  }
}
