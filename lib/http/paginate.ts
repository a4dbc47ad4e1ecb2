/**
 * Pagination as async iterators: pages are yielded in order, following the server's `next` link
 * until there is none; they are fetched one at a time, or a few at once with `ahead`.
 *
 * @module
 */

import { RepoApyError } from "../errors.ts";
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
  /**
   * Pages requested ahead of the one the caller reads, once the first page tells how many there
   * are: on a link with a long round trip, a whole listing then costs a few round trips instead
   * of one per page. Pages read ahead may never be used (the caller stops early).
   *
   * @default {0}
   */
  ahead?: number;
  /**
   * The listing must be whole: the pages together must hold exactly the items the first page
   * counts (`_pagination.total_items`), every page must count the same, no item may come twice
   * (the list shifted while it was read), and reading must not stop at `maxPages` with pages
   * left. Otherwise {@linkcode IncompleteListingError} is thrown, at the latest after the last
   * page (so a caller that needs the whole list, to delete what is not on it, collects the items
   * before acting). A listing whose first page does not count its items (no or a null
   * `total_items`) is not whole either: a first page cut off from the rest looks the same.
   *
   * @default {false}
   */
  whole?: boolean;
}

/** Data of an {@linkcode IncompleteListingError}. */
export interface IncompleteListingFacts {
  /** The paginated endpoint. */
  endpoint: string;
  /** Items that arrived until the listing was found incomplete. */
  received: number;
  /** Items the server counted (its first page's `total_items`), when it said. */
  total: number | undefined;
}

/**
 * A listing read with {@linkcode PaginateOptions.whole} is not whole: its pages held another
 * number of items than the server counted (the list changed while it was read, or the server cut
 * it short), or it has more pages than `maxPages`. Its items must not be taken as everything
 * there is.
 *
 * @example Usage
 * ```ts
 * import { IncompleteListingError, paginateItems, Transport } from "@repo/apy/http";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * server.addFault({
 *   method: "GET",
 *   path: /\/records$/,
 *   jsonBody: { items: [], _pagination: { page: 1, total_pages: 1, total_items: 3, _links: {} } },
 * });
 * const listing = Array.fromAsync(paginateItems(transport, "/records", {}, { whole: true }));
 * await assert.rejects(listing, IncompleteListingError);
 * ```
 */
export class IncompleteListingError extends RepoApyError {
  /** The paginated endpoint. */
  readonly endpoint: string;
  /** Items that arrived until the listing was found incomplete. */
  readonly received: number;
  /** Items the server counted, when it said. */
  readonly total: number | undefined;

  /**
   * Creates the error.
   *
   * @param message What went wrong and what to do about it.
   * @param facts The endpoint and the counts.
   * @param options Standard error options (`cause`).
   */
  constructor(message: string, facts: IncompleteListingFacts, options?: ErrorOptions) {
    super(message, options);
    this.endpoint = facts.endpoint;
    this.received = facts.received;
    this.total = facts.total;
  }
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
 * With `ahead`, once the first page tells how many there are and its `next` link names the
 * following page by its `page` parameter, that many following pages are requested while the
 * caller reads; they are yielded in order, through the same checks. Without it, a page is asked
 * for only when the caller wants it.
 *
 * With `whole`, a listing that does not hold the items the server counted fails with
 * {@linkcode IncompleteListingError} instead of ending quietly short.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { paginate } from "@repo/apy/http";
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
 * @param options Signal, page limit, pages ahead, whole listing.
 * @returns An async iterator over the pages.
 * @throws {RepoApyError} When the server links back to a page it sent already (a loop).
 * @throws {IncompleteListingError} With `whole`, when the listing is not whole.
 */
export async function* paginate<T>(
  transport: Transport,
  endpoint: string,
  query: QueryParams = {},
  options: PaginateOptions = {},
): AsyncGenerator<PageJson<T>, void, undefined> {
  const listing: Listing = {
    endpoint,
    whole: Boolean(options.whole),
    seen: new Set(),
    counted: undefined,
    received: 0,
  };
  const check = (page: PageJson<T>, count: number) => checkPage(listing, page, count);
  const left = yield* readPages<T>(transport, endpoint, query, options, check);
  checkEnd(listing, left, options.maxPages ?? MAX_PAGES);
}

/**
 * The page source of {@linkcode paginate}: the pages of a listing in order, following the
 * server's `next` links and guarding them against loops; with `ahead`, that many following pages
 * are requested in advance (never past `total_pages` or `maxPages`). `check` sees each page
 * before the pages after it are requested.
 *
 * @returns Whether pages were left when `maxPages` stopped the reading.
 */
async function* readPages<T>(
  transport: Transport,
  endpoint: string,
  query: QueryParams,
  options: PaginateOptions,
  check: (page: PageJson<T>, count: number) => void,
): AsyncGenerator<PageJson<T>, boolean, undefined> {
  const maxPages = options.maxPages ?? MAX_PAGES;
  const pagesAhead = Math.max(0, Math.floor(options.ahead ?? 0));
  const read = (target: string, first: boolean) =>
    transport.jsonObject<PageJson<T>>("GET", target, {
      ...(first ? { query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      shape: { items: "array" },
    });
  const ahead = readAhead((url) => read(url, false));
  const visited = new Set<string>();
  let next: string | undefined = endpoint;
  let lastPage = 0;
  for (let count = 0; next !== undefined && count < maxPages; count++) {
    visited.add(next);
    const page: PageJson<T> = await (ahead.take(lastPage + 1, next) ?? read(next, count === 0));
    const info = page._pagination;
    const number = typeof info?.page === "number" ? info.page : undefined;
    if (number !== undefined && number <= lastPage) {
      throw loopError(count, "links back to an earlier page");
    }
    lastPage = number ?? lastPage + 1;
    check(page, count);
    const total = info?.total_pages;
    next = typeof info?._links?.next === "string" ? info._links.next : undefined;
    if (typeof total === "number" && next !== undefined) {
      const last = Math.min(total, lastPage + pagesAhead, maxPages - count + lastPage - 1);
      ahead.request(next, lastPage + 1, last);
    }
    yield page;
    if (typeof total === "number" && lastPage >= total) next = undefined;
    else if (next !== undefined && (visited.has(next) || next === info?._links?.self)) {
      throw loopError(count, "links back to an earlier page");
    }
  }
  return next !== undefined;
}

/**
 * Pages requested ahead, by number. A page is used only when, at its turn, the `next` link names
 * the link it was requested at; a failure is thrown only then.
 */
function readAhead<T>(read: (url: string) => Promise<PageJson<T>>) {
  const pages = new Map<number, { url: string; page: Promise<PageJson<T>> }>();
  return {
    /** The page `number` requested ahead at `url`, if it was (it is given out once). */
    take(number: number, url: string): Promise<PageJson<T>> | undefined {
      const early = pages.get(number);
      pages.delete(number);
      return early?.url === url ? early.page : undefined;
    },
    /** Requests the pages `following` (the page `next` links to) to `last`. */
    request(next: string, following: number, last: number): void {
      for (let number = following; number <= last; number++) {
        const url = pageLink(next, following, number);
        if (url === undefined || pages.has(number)) continue;
        const page = read(url);
        page.catch(() => {}); // awaited (and its failure thrown) only when its turn comes
        pages.set(number, { url, page });
      }
    },
  };
}

function loopError(count: number, what: string): RepoApyError {
  return new RepoApyError(`The server's page links loop: page ${count + 1} ${what}`);
}

/** What {@linkcode paginate} checks a listing against: the items seen and, with `whole`, counted. */
interface Listing {
  readonly endpoint: string;
  readonly whole: boolean;
  /** Keys of the items seen. */
  readonly seen: Set<unknown>;
  /** With `whole`: the first page's count. */
  counted: number | undefined;
  /** With `whole`: the items received. */
  received: number;
}

function incomplete(listing: Listing, what: string): IncompleteListingError {
  const { endpoint, received, counted } = listing;
  return new IncompleteListingError(
    `The listing of ${endpoint} is incomplete: ${what}; its items were not taken as the whole list: read it again`,
    { endpoint, received, total: counted },
  );
}

/** Checks a page as it arrives: no item seen before and, with `whole`, the server's count. */
function checkPage(listing: Listing, page: PageJson<unknown>, count: number): void {
  if (listing.whole) countPage(listing, page, count);
  for (const item of page.items) {
    const { id, type } = (item ?? {}) as { id?: unknown; type?: unknown };
    if (typeof id !== "number" && typeof id !== "string") continue;
    // Trash items of different types share ids (record 14 and template 14): key by both.
    const key = typeof type === "string" ? `${type}/${id}` : id;
    if (listing.seen.has(key)) {
      // A listing that shifted while it was read repeats items too: with `whole`, say so.
      throw listing.whole
        ? incomplete(
          listing,
          `it changed while it was read (page ${count + 1} repeats items of an earlier page)`,
        )
        : loopError(count, "repeats items of an earlier page");
    }
    listing.seen.add(key);
  }
}

/** Counts a page's items against the count of the first page, which must give one. */
function countPage(listing: Listing, page: PageJson<unknown>, count: number): void {
  listing.received += page.items.length;
  const info = page._pagination;
  const items = typeof info?.total_items === "number" ? info.total_items : undefined;
  if (count === 0) {
    // Without a count, a page that is all there is cannot be told from a listing cut short.
    if (items === undefined) {
      throw incomplete(
        listing,
        "the server's first page does not say how many items there are (no `total_items`)",
      );
    }
    listing.counted = items;
  }
  const { counted, received } = listing;
  if (items !== counted) {
    throw incomplete(
      listing,
      `it changed while it was read (page ${count + 1} counts ${
        items ?? "no"
      } items, page 1 counted ${counted ?? "none"})`,
    );
  }
  if (counted !== undefined && received > counted) {
    throw incomplete(
      listing,
      `${received} items arrived where the server counted ${counted} (it changed while it was read)`,
    );
  }
}

/** With `whole`, checks the listing once its pages ended (`left`: `maxPages` stopped it). */
function checkEnd(listing: Listing, left: boolean, maxPages: number): void {
  const { whole, counted, received } = listing;
  if (!whole) return;
  if (left) {
    throw incomplete(listing, `it has more than ${maxPages} pages (${received} items arrived)`);
  }
  if (counted !== undefined && received !== counted) {
    throw incomplete(
      listing,
      `${received} of the ${counted} items the server counted arrived (the list changed while it was read, or the server cut it short)`,
    );
  }
}

/** The link of page `number`, made from `next` (the link of page `following`) when it says so. */
function pageLink(next: string, following: number, number: number): string | undefined {
  const url = URL.parse(next);
  if (url === null || url.searchParams.get("page") !== String(following)) return undefined;
  if (number === following) return next;
  url.searchParams.set("page", String(number));
  return url.href;
}

/**
 * Yields every item of every page of a paginated endpoint.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { paginateItems } from "@repo/apy/http";
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
 * @param options Signal, page limit, pages ahead, whole listing (as {@linkcode paginate}).
 * @returns An async iterator over the items.
 * @throws {IncompleteListingError} With `whole`, when the listing is not whole.
 */
export async function* paginateItems<T>(
  transport: Transport,
  endpoint: string,
  query: QueryParams = {},
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of paginate<T>(transport, endpoint, query, options)) yield* page.items;
}
