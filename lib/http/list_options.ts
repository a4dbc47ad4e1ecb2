/**
 * Options of the library's list methods (`page`, `perPage`, filters) and their one mapping to the
 * query the server reads.
 *
 * @module
 */

import { QUERY_WIRE_NAMES } from "./protocol.ts";
import type { QueryParams, QueryValue } from "./url.ts";

/**
 * Options of a list method: `page`, `perPage` and the endpoint's filters (`filter`, `sort`, ...).
 * The wire-named `per_page` is still accepted for compatibility; `perPage` wins when both are
 * given.
 */
export interface ListOptions {
  /** Page number, from 1. */
  page?: number | undefined;
  /** Items per page (at most 100). */
  perPage?: number | undefined;
  /** Filters by name, title or identifier (where the endpoint supports it). */
  filter?: string | undefined;
  /** Sort order (where the endpoint supports it), e.g. `-last_modified`. */
  sort?: string | undefined;
  /** Any other query parameter of the endpoint. */
  [name: string]: QueryValue;
}

/**
 * The query the server reads for list options: library names become wire names
 * (`perPage` → `per_page`, see `QUERY_WIRE_NAMES`), `undefined` values are left out.
 *
 * @example Usage
 * ```ts
 * import { wireQuery } from "./list_options.ts";
 * console.log(wireQuery({ page: 2, perPage: 10, filter: "x" })); // { page: 2, per_page: 10, filter: "x" }
 * ```
 *
 * @param options The list options.
 * @returns The query parameters.
 */
export function wireQuery(options: ListOptions): QueryParams {
  const query: QueryParams = {};
  // `perPage` last: it wins over a wire-named `per_page` given too.
  const { perPage, ...rest } = options;
  for (const [name, value] of Object.entries({ ...rest, perPage })) {
    if (value !== undefined) query[QUERY_WIRE_NAMES[name] ?? name] = value;
  }
  return query;
}
