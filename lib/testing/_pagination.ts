/**
 * Pagination of list endpoints: `page`/`per_page` clamping and the `_pagination` block with
 * absolute `self`/`prev`/`next` links repeating the endpoint's query parameters.
 *
 * @module
 */
import { MAX_PER_PAGE } from "../http/protocol.ts";
import { type Ctx, intQuery } from "./_context.ts";
import { jsonResponse } from "./_errors.ts";

const SEARCH_PAGE_CAP = 100;

/** Options of {@linkcode paginate}. */
export interface PaginateOptions {
  /** Query parameters to repeat in page links. */
  params?: [string, string][];
  /** Search endpoint: `page` capped at 100. */
  search?: boolean;
  /** `_actions` of the list. */
  actions?: Record<string, string>;
}

/**
 * Clamped `page` and `per_page` of a request.
 *
 * @param search Whether `page` is capped at 100.
 */
export function pageParams(query: URLSearchParams, search = false): {
  page: number;
  perPage: number;
} {
  let page = Math.max(1, intQuery(query, "page", 1));
  if (search) page = Math.min(page, SEARCH_PAGE_CAP);
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, intQuery(query, "per_page", 10)));
  return { page, perPage };
}

/**
 * Renders one page of `items` as the server's paginated JSON.
 *
 * @param items All matching items, in order.
 */
export function paginate<T>(
  ctx: Ctx,
  items: readonly T[],
  render: (item: T) => unknown,
  options: PaginateOptions = {},
): Response {
  const { page, perPage } = pageParams(ctx.url.searchParams, options.search);
  const total = items.length;
  const totalPages = total === 0 ? 1 : Math.ceil(total / perPage);
  const link = (p: number) => {
    const query = new URLSearchParams([["page", String(p)], ["per_page", String(perPage)]]);
    for (const [k, v] of options.params ?? []) query.append(k, v);
    return `${ctx.base}${ctx.path}?${query}`;
  };
  const links: Record<string, string> = { self: link(page) };
  if (page > 1) links.prev = link(page - 1);
  // Never a `next` beyond the page cap: it would be clamped back to this page, a loop.
  const capped = options.search === true && page >= SEARCH_PAGE_CAP;
  if (total > page * perPage && !capped) links.next = link(page + 1);
  const body: Record<string, unknown> = {
    items: items.slice((page - 1) * perPage, page * perPage).map(render),
    _pagination: {
      page,
      per_page: perPage,
      total_pages: totalPages,
      total_items: total,
      _links: links,
    },
  };
  if (options.actions) body._actions = options.actions;
  return jsonResponse(body);
}
