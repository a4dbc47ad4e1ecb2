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
  /** Stop after this many pages. */
  maxPages?: number;
}

/**
 * Yields every page of a paginated endpoint, starting at `query.page` (default 1).
 *
 * @example Usage
 * ```ts ignore
 * for await (const page of paginate(transport, "/records", { per_page: 100 })) console.log(page.items);
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
  let next: string | undefined = endpoint;
  let first = true;
  const followed = new Set<string>();
  for (let count = 0; next !== undefined; count++) {
    if (options.maxPages !== undefined && count >= options.maxPages) return;
    const page: PageJson<T> = await transport.json<PageJson<T>>("GET", next, {
      ...(first ? { query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    first = false;
    yield page;
    next = page._pagination?._links?.next;
    if (next !== undefined) {
      // A hostile or broken server could link back to a page it sent: stop instead of looping.
      if (followed.has(next)) {
        throw new RepoApyError(
          `The server's page links loop: page ${count + 1} links back to an earlier page`,
        );
      }
      followed.add(next);
    }
  }
}

/**
 * Yields every item of every page of a paginated endpoint.
 *
 * @example Usage
 * ```ts ignore
 * const records = await Array.fromAsync(paginateItems(transport, "/records", { per_page: 100 }));
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
