/**
 * Settings and option types of the transport and its requests, re-exported by `transport.ts`;
 * import them from there.
 *
 * @module
 */

import type { Logger } from "./log.ts";
import type { Pacer } from "./pacer.ts";
import type { RetryOptions } from "./retry.ts";
import type { QueryParams } from "./url.ts";

/** Connection settings the transport needs. */
export interface TransportSettings {
  /** Host with scheme, e.g. `https://repo.example`. */
  host: string;
  /** Personal access token. */
  pat: string;
  /** Subpath the API is served under. */
  basePath?: string;
  /** Seconds without any byte moving (sent or received) before a request fails. */
  timeout?: number;
  /** Whether TLS certificates are verified. */
  verify?: boolean;
  /** PEM file whose certificates are trusted in addition to the system roots. */
  caBundle?: string | undefined;
  /**
   * The config instance these settings came from; none when no config file was read (host and
   * token given directly or from the environment). Messages name the settings that apply.
   */
  instance?: string | undefined;
  /** Hosts redirects may lead to; the request is replayed there without the token. */
  whitelist?: readonly string[];
  /**
   * `http://` proxy for `https://` requests with `verify: false` (with verification on, Deno's
   * fetch reads the proxy variables itself). @default {HTTPS_PROXY from the environment}
   */
  proxy?: string;
}

/** Options of a {@linkcode Transport}. */
export interface TransportOptions {
  /** The settings, or a function that resolves them on first use (the config file is read lazily). */
  settings: TransportSettings | (() => Promise<TransportSettings>);
  /** Replaces the built-in fetch (for special environments); TLS options then don't apply. */
  fetch?: typeof fetch;
  /** Receives debug messages about requests and retries. */
  log?: Logger;
  /** Bounds of the retry policy. */
  retry?: RetryOptions;
  /**
   * Largest JSON answer read, in bytes; a longer one fails with
   * {@linkcode ResponseTooLargeError}. File downloads are not limited.
   *
   * @default {67108864}
   */
  maxJsonBytes?: number;
  /** Paces requests after 429 answers. @default {hostPacer(origin) (one per host and process)} */
  pacer?: Pacer;
  /** Cancels every request of this transport (the CLI's Ctrl-C), besides each request's own. */
  signal?: AbortSignal;
  /**
   * Waits between two attempts of a request, as {@linkcode Pacer}'s `sleep` does (replaceable,
   * e.g. by an injected clock in tests); it rejects with the signal's reason when aborted.
   *
   * @default {a timer}
   */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Default bound of a JSON answer: 64 MiB, far above any API answer (a page holds 100 items). */
export const MAX_JSON_BYTES = 67_108_864;

/** Default request (idle) timeout in seconds. */
export const DEFAULT_TIMEOUT = 60;

/** Expected type of a key in {@linkcode Transport.jsonObject}'s answer. */
export type JsonKeyType = "number" | "string" | "array" | "object";

/** Options of {@linkcode Transport.jsonObject}. */
export interface JsonObjectOptions extends RequestOptions {
  /** Keys the answer must have, with their types. */
  shape?: Readonly<Record<string, JsonKeyType>>;
}

/** A request body, or a function making a fresh body for each attempt (makes streams retriable). */
export type RequestBody = BodyInit | null | (() => BodyInit | Promise<BodyInit>);

/** Options of one request. */
export interface RequestOptions {
  /** Query parameters; lists repeat the key, objects are JSON-encoded. */
  query?: QueryParams;
  /** JSON body. */
  json?: unknown;
  /** Raw body. */
  body?: RequestBody;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** Whether the request is safe to repeat. @default {true for GET and HEAD} */
  idempotent?: boolean;
  /** Status codes returned to the caller instead of thrown as {@linkcode RequestError}. */
  expect?: readonly number[];
}
