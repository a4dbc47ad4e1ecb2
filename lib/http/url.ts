/**
 * Building request URLs: the API base from host and base path, endpoints relative to it,
 * absolute server links rebased onto it, and query parameters encoded the way the server reads
 * them (lists repeat the key, JSON values are serialized).
 *
 * @module
 */

import { InputError, MissingSchemaError } from "../errors.ts";
import { redactUrl } from "./errors.ts";
import { API_PREFIX, API_PREFIX_UNVERSIONED } from "./protocol.ts";

/** A value of a query parameter. Lists repeat the key; objects are sent as JSON. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | QueryObject
  | readonly QueryValue[];

/** A JSON-like object sent as one JSON-encoded query parameter. */
export interface QueryObject {
  /** Any JSON value. */
  [key: string]: unknown;
}

/** Query parameters of a request. */
export type QueryParams = { [name: string]: QueryValue };

/**
 * Builds the API base URL `{host}{basePath}/api/v1` after validating the host.
 *
 * @example Usage
 * ```ts
 * import { apiBaseUrl } from "./url.ts";
 * console.log(apiBaseUrl("https://repo.example/").href); // https://repo.example/api/v1
 * ```
 *
 * @param host Host with scheme, e.g. `https://repo.example`.
 * @param basePath Subpath the API is served under, e.g. `/kadi`.
 * @returns The base URL, without a trailing slash.
 * @throws {MissingSchemaError} When the host has no `http://` or `https://` scheme.
 * @throws {InputError} When the host is not a valid URL.
 */
export function apiBaseUrl(host: string, basePath = ""): URL {
  const trimmed = host.trim();
  if (!/^https?:\/\//i.test(trimmed)) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
      throw new InputError(`The host '${trimmed}' must use http:// or https://`);
    }
    throw new MissingSchemaError(trimmed);
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InputError(
      `The host '${trimmed}' is not a valid URL: write it like https://repo.example`,
    );
  }
  const path = `/${basePath}`.replace(/\/+/g, "/").replace(/\/$/, "");
  return new URL(`${url.origin}${path}${API_PREFIX}`);
}

/**
 * Resolves an endpoint against the API base. A relative endpoint (`/records/1`) is appended to
 * the base; an absolute URL from the server (`_links`, `_actions`) is rebased onto the configured
 * base, so a server behind a proxy that reports its internal address still works.
 *
 * @example Usage
 * ```ts
 * import { apiBaseUrl, endpointUrl } from "./url.ts";
 * const base = apiBaseUrl("https://repo.example");
 * console.log(endpointUrl(base, "http://internal:5000/api/records/1").href);
 * // https://repo.example/api/v1/records/1
 * ```
 *
 * @param base The API base URL from {@linkcode apiBaseUrl}.
 * @param endpoint Relative path or absolute URL.
 * @param query Query parameters to add.
 * @returns The full URL.
 * @throws {InputError} When an absolute URL is neither an API address nor on the configured
 * host (the token would go to a foreign host).
 */
export function endpointUrl(base: URL, endpoint: string, query?: QueryParams): URL {
  const url = /^https?:\/\//i.test(endpoint)
    ? rebase(base, new URL(endpoint))
    : new URL(`${base.href}${endpoint.startsWith("/") ? "" : "/"}${endpoint}`);
  if (query) appendQuery(url.searchParams, query);
  return url;
}

function rebase(base: URL, absolute: URL): URL {
  const path = absolute.pathname;
  // The token goes with every request: a non-API address elsewhere is never contacted.
  const sameOrigin = absolute.origin === base.origin;
  for (const prefix of [API_PREFIX, API_PREFIX_UNVERSIONED]) {
    const at = path.indexOf(`${prefix}/`);
    const exact = path.endsWith(prefix) ? path.length - prefix.length : -1;
    const index = at >= 0 ? at : exact;
    if (index >= 0) {
      const rest = path.slice(index + prefix.length);
      return new URL(`${base.href}${rest}${absolute.search}`);
    }
  }
  if (sameOrigin) return absolute;
  throw new InputError(
    `The endpoint '${
      redactUrl(absolute.href)
    }' is neither below ${API_PREFIX_UNVERSIONED} nor on ` +
      `${base.origin}: pass a path below the API such as '/records/1' (the token is only sent to ` +
      `the configured host)`,
  );
}

/**
 * Appends query parameters: `null`/`undefined` are left out, lists of plain values repeat the key,
 * booleans are `true`/`false`, objects and lists of objects are JSON-encoded as one value (the
 * export `filter`, the search `extras`).
 *
 * @example Usage
 * ```ts
 * import { appendQuery } from "./url.ts";
 * const params = new URLSearchParams();
 * appendQuery(params, { filter: { user: true }, tag: ["a", "b"], page: 2, q: undefined });
 * console.log(params.toString()); // filter=%7B%22user%22%3Atrue%7D&tag=a&tag=b&page=2
 * ```
 *
 * @param params Where to append.
 * @param query The parameters.
 */
export function appendQuery(params: URLSearchParams, query: QueryParams): void {
  for (const [name, value] of Object.entries(query)) {
    const isList = Array.isArray(value);
    if (isList && value.some((item) => item !== null && typeof item === "object")) {
      params.append(name, JSON.stringify(value));
      continue;
    }
    const values: readonly QueryValue[] = isList ? value : [value];
    for (const item of values) {
      if (item === null || item === undefined) continue;
      params.append(name, typeof item === "object" ? JSON.stringify(item) : String(item));
    }
  }
}

/**
 * Encodes a value as exactly one URL path segment. Empty values and the dot segments `.` and
 * `..` are refused: URLs normalize dot segments away, so the request would address another
 * endpoint (`/records/1/files/..` is `/records/1`).
 *
 * @example Usage
 * ```ts
 * import { pathSegment } from "./url.ts";
 * console.log(pathSegment("a b/c", "file id")); // "a%20b%2Fc"
 * ```
 *
 * @param value The value, e.g. a file id.
 * @param what What the value is, for the error message.
 * @returns The encoded segment.
 * @throws {InputError} When the value is empty, `.` or `..`.
 */
export function pathSegment(value: string, what: string): string {
  if (typeof value !== "string" || ["", ".", ".."].includes(value.trim())) {
    throw new InputError(`Invalid ${what} '${String(value)}': it must name one item`);
  }
  return encodeURIComponent(value);
}
