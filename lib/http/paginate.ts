/**
 * Pagination as async iterators: pages are fetched one at a time, following the server's `next`
 * link until there is none.
 *
 * @example Usage
 * ```ts
 * import { paginate, paginateItems } from "./paginate.ts";
 * import { Transport } from "./transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * for await (const page of paginate(transport, "/licenses", { per_page: 2 })) {
 *   console.log(page.items.length <= 2); // true
 * }
 * const licenses = await Array.fromAsync(paginateItems(transport, "/licenses"));
 * console.log(licenses.length > 0); // true
 * ```
 *
 * @module
 */

import { RepoApyError } from "./errors.ts";
import type { PageJson } from "./protocol.ts";
import type { RequestOptions, Transport } from "./transport.ts";
import type { QueryParams } from "./url.ts";

/** Options of {@linkcode paginate}. */
export interface PaginateOptions extends Pick<RequestOptions, "signal"> {
  /**
   * Stop after this many pages.
   *
   * @default {MAX_PAGES}
   */
  maxPages?: number;
}

/** Pages read at most by {@linkcode paginate} (a million items at 100 per page). */
export const MAX_PAGES = 10_000;

/**
 * Yields every page of a paginated endpoint, starting at `query.page` (default 1).
 *
 * The server's links are not trusted to end: reading stops when there is no `next` link, when
 * `total_pages` is reached, and after `maxPages` pages; it fails with {@linkcode RepoApyError}
 * (no page is yielded twice) when a `next` link was visited before or is the page's own, when the
 * page number does not advance, or when an item id repeats.
 *
 * @example Usage
 * ```ts
 * import { paginate, RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * await manager.record({ identifier: "a", create: true });
 * await manager.record({ identifier: "b", create: true });
 * const sizes: number[] = [];
 * for await (const page of paginate(manager.transport, "/records", { per_page: 1 })) {
 *   sizes.push(page.items.length);
 * }
 * assert.deepStrictEqual(sizes, [1, 1]);
 * ```
 *
 * @typeParam T Item type.
 * @param transport The transport to send requests with.
 * @param endpoint The paginated endpoint.
 * @param query Query parameters of the first page (`per_page`, filters).
 * @param options Signal and page limit.
 * @returns An async iterator over the pages.
 * @throws {RepoApyError} When the server links back to a page it sent already (a loop).
 */
export async function* paginate<T>(
  transport: Transport,
  endpoint: string,
  query: QueryParams = {},
  options: PaginateOptions = {},
): AsyncGenerator<PageJson<T>, void, undefined> {
  const maxPages = options.maxPages ?? MAX_PAGES;
  const visited = new Set<string>();
  const seen = new Set<unknown>();
  let next: string | undefined = endpoint;
  let lastPage = 0;
  const loop = (count: number, what: string) =>
    new RepoApyError(`The server's page links loop: page ${count + 1} ${what}`);
  for (let count = 0; next !== undefined && count < maxPages; count++) {
    visited.add(next);
    const page: PageJson<T> = await transport.jsonObject<PageJson<T>>("GET", next, {
      ...(count === 0 ? { query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      shape: { items: "array" },
    });
    const info = page._pagination;
    const number = typeof info?.page === "number" ? info.page : undefined;
    if (number !== undefined && number <= lastPage) {
      throw loop(count, "links back to an earlier page");
    }
    lastPage = number ?? lastPage + 1;
    for (const item of page.items) {
      const { id, type } = (item ?? {}) as { id?: unknown; type?: unknown };
      if (typeof id !== "number" && typeof id !== "string") continue;
      // Trash items of different types share ids (record 14 and template 14): key by both.
      const key = typeof type === "string" ? `${type}/${id}` : id;
      if (seen.has(key)) throw loop(count, "repeats items of an earlier page");
      seen.add(key);
    }
    yield page;
    const total = info?.total_pages;
    if (typeof total === "number" && lastPage >= total) return;
    next = typeof info?._links?.next === "string" ? info._links.next : undefined;
    if (next !== undefined && (visited.has(next) || next === info?._links?.self)) {
      throw loop(count, "links back to an earlier page");
    }
  }
}

/**
 * Yields every item of every page of a paginated endpoint.
 *
 * @example Usage
 * ```ts
 * import { paginateItems, RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * await manager.record({ identifier: "a", create: true });
 * await manager.record({ identifier: "b", create: true });
 * const records = await Array.fromAsync(paginateItems(manager.transport, "/records", { per_page: 1 }));
 * assert.strictEqual(records.length, 2);
 * ```
 *
 * @typeParam T Item type.
 * @param transport The transport to send requests with.
 * @param endpoint The paginated endpoint.
 * @param query Query parameters of the first page.
 * @param options Signal and page limit.
 * @returns An async iterator over the items.
 */
export async function* paginateItems<T>(
  transport: Transport,
  endpoint: string,
  query: QueryParams = {},
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of paginate<T>(transport, endpoint, query, options)) yield* page.items;
}
