/**
 * The errors of the wire: connections, timeouts, TLS, redirects, oversized answers and the
 * server's error answers. All derive from `RepoApyError` (`lib/errors.ts`), so one `catch` can
 * handle them all; each carries the data a caller needs to act on it. No error ever holds the
 * personal access token: URLs are redacted and the Authorization header is never kept.
 *
 * @module
 */

import { RepoApyError } from "../errors.ts";
import { HEADER } from "./protocol.ts";
import { readBoundedText, redactHeaders, redactSecrets } from "./_body.ts";
import { formatBytes } from "./format_bytes.ts";

/** Options of a {@linkcode ConnectionError}. */
export interface ConnectionErrorOptions extends ErrorOptions {
  /** No connection was made at all (refused, unknown host): nothing reached the server. */
  unreachable?: boolean;
}

/**
 * The server could not be reached, or the connection broke before a full answer arrived
 * ({@linkcode RepoApyError} shows the family).
 */
export class ConnectionError extends RepoApyError {
  /** Host (scheme, name and port) that could not be reached. */
  readonly host: string;
  /** Whether no connection was made at all (refused, unknown host), so nothing was sent. */
  readonly unreachable: boolean;

  /**
   * Creates the error.
   *
   * @param host Host that could not be reached.
   * @param message What happened.
   * @param options `cause`: the underlying network error; `unreachable`.
   */
  constructor(host: string, message: string, options?: ConnectionErrorOptions) {
    super(message, options);
    this.host = host;
    this.unreachable = options?.unreachable ?? false;
  }
}

/**
 * No answer arrived within the configured timeout ({@linkcode RepoApyError} shows the family).
 */
export class TimeoutError extends ConnectionError {
  /** The timeout that passed, in milliseconds. */
  readonly timeoutMs: number;

  /**
   * Creates the error.
   *
   * @param host Host that did not answer.
   * @param timeoutMs The timeout that passed, in milliseconds.
   */
  constructor(host: string, timeoutMs: number) {
    super(
      host,
      `No answer from ${host} within ${
        timeoutMs / 1000
      } s: raise 'timeout' in the config file or the manager options, or try again later`,
    );
    this.timeoutMs = timeoutMs;
  }
}

/**
 * TLS verification of the server's certificate failed ({@linkcode RepoApyError} shows the
 * family).
 */
export class TlsError extends ConnectionError {}

/**
 * The server answered with a redirect the client refuses to follow ({@linkcode RepoApyError}
 * shows the family).
 */
export class RedirectError extends RepoApyError {
  /** Where the server wanted to send the request (token-free). */
  readonly location: string;

  /**
   * Creates the error.
   *
   * @param location Redirect target.
   * @param message What to change so the redirect is followed or no longer happens.
   */
  constructor(location: string, message: string) {
    super(message);
    this.location = location;
  }
}

/**
 * A JSON answer was larger than the transport's limit (`maxJsonBytes`); reading stopped there.
 * File downloads have no such limit ({@linkcode RepoApyError} shows the family).
 */
export class ResponseTooLargeError extends RepoApyError {
  /** The limit in bytes. */
  readonly limit: number;
  /** URL of the request (token-free). */
  readonly url: string;

  /**
   * Creates the error.
   *
   * @param method HTTP method of the request.
   * @param url URL of the request.
   * @param limit The limit in bytes.
   */
  constructor(method: string, url: string, limit: number) {
    const shown = redactUrl(url);
    const size = formatBytes(limit, { prose: true });
    super(
      `The answer to ${method} ${shown} is larger than ${size}, the limit for ` +
        `JSON answers: no API answer is that big; check 'host' and 'base_path' (or raise ` +
        `maxJsonBytes if the server really sends that much)`,
    );
    this.limit = limit;
    this.url = shown;
  }
}

/** Data a {@linkcode RequestError} is built from. */
export interface RequestErrorInit {
  /** HTTP status code of the answer. */
  status: number;
  /** HTTP method of the request. */
  method: string;
  /** URL of the request; any token in it is redacted. */
  url: string;
  /** Parsed JSON body of the answer, or its text when it was not JSON. */
  body?: unknown;
  /** Headers of the answer. */
  headers?: Headers;
  /** How long the server asked to wait before a retry, in milliseconds. */
  retryAfterMs?: number;
  /** Message to use instead of the one built from the body. */
  message?: string;
  /** The error this one wraps (standard `Error.cause`). */
  cause?: unknown;
}

/**
 * The server answered a request with an error status ({@linkcode RepoApyError} shows the
 * family).
 */
export class RequestError extends RepoApyError {
  /** HTTP status code of the answer. */
  readonly status: number;
  /** HTTP method of the request. */
  readonly method: string;
  /** URL of the request (token-free). */
  readonly url: string;
  /** The server's `description` of the error, or a generic text. */
  readonly description: string;
  /** Full parsed body of the answer (JSON object, bare JSON value or text). */
  readonly body: unknown;
  /** Headers of the answer. */
  readonly headers: Headers;
  /** How long the server asked to wait before a retry, in milliseconds, if it said so. */
  readonly retryAfterMs: number | undefined;

  /**
   * Creates the error.
   *
   * @param init Status, request and answer data.
   */
  constructor(init: RequestErrorInit) {
    const description = describeBody(init.body);
    super(
      init.message ?? `[${init.status}] ${description}`,
      "cause" in init ? { cause: init.cause } : undefined,
    );
    this.status = init.status;
    this.method = init.method;
    this.url = redactUrl(init.url);
    this.description = description;
    this.body = init.body;
    this.headers = init.headers ?? new Headers();
    this.retryAfterMs = init.retryAfterMs;
  }
}

function describeBody(body: unknown): string {
  if (typeof body === "string" && body.trim() !== "") return describeText(body.trim());
  if (body !== null && typeof body === "object" && "description" in body) {
    const { description } = body as { description: unknown };
    if (typeof description === "string") return description;
  }
  return "Unknown error.";
}

const MAX_TEXT_DESCRIPTION = 300;

// A body that is not JSON comes from something in front of the server (proxy, login page, wrong
// base path): the message stays one short line, the full text remains in `body`.
function describeText(text: string): string {
  if (/^<(!doctype|html|head|body|\?xml)\b/i.test(text) || /<\/(html|body)>/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
    return `The server answered with an HTML page${title ? ` ('${title}')` : ""} instead of ` +
      `JSON: check 'host' and 'base_path', or whether a proxy answers in the server's place`;
  }
  const line = text.replace(/\s+/g, " ");
  return line.length > MAX_TEXT_DESCRIPTION ? `${line.slice(0, MAX_TEXT_DESCRIPTION)}…` : line;
}

const TOKEN_PARAMS = ["access_token", "token", "pat"];

/**
 * Returns the URL with credentials and token-like query parameters replaced by `REDACTED`.
 *
 * @example Usage
 * ```ts
 * import { redactUrl } from "./errors.ts";
 * console.log(redactUrl("https://u:p@repo.example/api?access_token=pat_x"));
 * // https://REDACTED:REDACTED@repo.example/api?access_token=REDACTED
 * ```
 *
 * @param url The URL to redact.
 * @returns The redacted URL, or the input when it is not a URL.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username) parsed.username = "REDACTED";
  if (parsed.password) parsed.password = "REDACTED";
  for (const name of TOKEN_PARAMS) {
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, "REDACTED");
  }
  return parsed.toString();
}

/** Options of {@linkcode requestErrorFrom} and {@linkcode raiseRequestError}. */
export interface RequestErrorFromOptions {
  /** URL of the request. @default {response.url} */
  url?: string;
  /** Texts (the token) replaced by `REDACTED` wherever the answer repeats them. */
  secrets?: readonly string[];
}

/** Bytes of an error answer that are read at most; the rest is dropped. */
export const MAX_ERROR_BODY_BYTES = 1_048_576;

/**
 * Reads a failed response and throws it as a {@linkcode RequestError}. The body is consumed.
 *
 * @example Usage
 * ```ts
 * import { raiseRequestError, RequestError } from "./errors.ts";
 * const response = Response.json({ code: 404, description: "Gone." }, { status: 404 });
 * try {
 *   await raiseRequestError(response, "GET");
 * } catch (error) {
 *   console.log(error instanceof RequestError && error.description); // "Gone."
 * }
 * ```
 *
 * @param response The failed response.
 * @param method The request's method.
 * @param options URL and secrets to redact.
 * @returns Never; always throws.
 * @throws {RequestError} Always.
 */
export async function raiseRequestError(
  response: Response,
  method: string,
  options: RequestErrorFromOptions = {},
): Promise<never> {
  throw await requestErrorFrom(response, method, options);
}

/**
 * Reads a failed response into a {@linkcode RequestError} without throwing it. At most
 * {@linkcode MAX_ERROR_BODY_BYTES} of the body are read, and every secret the server echoes
 * (say, the `Authorization` header) is replaced by `REDACTED` in the body and the headers.
 *
 * @example Usage
 * ```ts
 * import { requestErrorFrom } from "./errors.ts";
 * const echo = new Response("Bearer pat_secret rejected", { status: 401 });
 * const error = await requestErrorFrom(echo, "POST", { secrets: ["pat_secret"] });
 * console.log(error.status, error.description); // 401 "Bearer REDACTED rejected"
 * ```
 *
 * @param response The failed response; its body is consumed.
 * @param method The request's method.
 * @param options URL and secrets to redact.
 * @returns The error.
 */
export async function requestErrorFrom(
  response: Response,
  method: string,
  options: RequestErrorFromOptions = {},
): Promise<RequestError> {
  const secrets = options.secrets ?? [];
  const read = await readBoundedText(response.body, MAX_ERROR_BODY_BYTES)
    .catch(() => ({ text: "", truncated: false }));
  const text = redactSecrets(read.text, secrets);
  let body: unknown = read.truncated ? `${text}…` : text;
  try {
    if (!read.truncated) body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  const retryAfterMs = parseRetryAfter(response.headers.get(HEADER.retryAfter));
  return new RequestError({
    status: response.status,
    method,
    url: options.url ?? response.url,
    body,
    headers: redactHeaders(response.headers, secrets),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * Parses a `Retry-After` header (delay seconds or HTTP date) into milliseconds.
 *
 * @example Usage
 * ```ts
 * import { parseRetryAfter } from "./errors.ts";
 * console.log(parseRetryAfter("2")); // 2000
 * ```
 *
 * @param value The header value.
 * @param now Current time in milliseconds since the epoch.
 * @returns The delay in milliseconds, or `undefined` when absent or unparseable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  // An HTTP date always has a time of day; Date.parse alone accepts garbage such as "abc 12".
  if (!/\b\d{1,2}:\d{2}:\d{2}\b/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
