/**
 * Error bodies of the local repository server, built in one place: `{code, message, description, ...extra}`.
 *
 * @module
 */

import { keepFloats } from "../http/_float_json.ts";
import { responseBytes } from "./_http.ts";

/** HTTP reason phrases the server uses in `message`. */
const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  204: "No Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Request Entity Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Default descriptions per status (Kadi's own texts, else Werkzeug's). */
const DESCRIPTIONS: Record<number, string> = {
  400: "The browser (or proxy) sent a request that this server could not understand.",
  401: "No valid access token was supplied.",
  403: "You do not have permission to access the requested resource.",
  404: "The requested URL could not be found.",
  405: "The method is not allowed for the requested URL.",
  408: "The server closed the network connection because the browser didn't finish the request " +
    "within the specified time.",
  409: "A conflict happened while processing the request. The resource might have been modified " +
    "while the request was being processed.",
  413: "The data value transmitted exceeds the capacity limit.",
  429: "Request limit exceeded, please try again later.",
  500: "The server encountered an internal error and was unable to complete your request. Either " +
    "the server is overloaded or there is an error in the application.",
  502: "The proxy server received an invalid response from an upstream server.",
  503: "The server is temporarily unable to service your request due to maintenance downtime or " +
    "capacity problems. Please try again later.",
  504: "The connection to an upstream server timed out.",
};

/**
 * Reason phrase of an HTTP status.
 *
 * @returns The phrase, e.g. `"Not Found"`.
 */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? "Unknown";
}

const encoder = new TextEncoder();

/** A plain object's copy with its keys sorted; anything else as it is. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (
    value === null || typeof value !== "object" || Array.isArray(value) ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) return value;
  const obj = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(obj).sort().map((k) => [k, obj[k]]));
}

/**
 * JSON as the real server writes it: keys sorted at every level (Flask's `sort_keys`), whole
 * numbers of float metadata as floats (`3.0`), compact or indented by `indent` spaces as in export
 * files.
 *
 * @param indent Spaces per level (exports use 2); compact when omitted.
 */
export function serverJson(value: unknown, indent?: number): string {
  return JSON.stringify(keepFloats(value), sortedKeys, indent);
}

/**
 * A JSON response with the server's compact serialization.
 *
 * @param status The HTTP status (default 200).
 */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const bytes = encoder.encode(serverJson(body));
  const response = new Response(bytes, {
    status,
    headers: {
      "content-type": "application/json",
      "content-length": String(bytes.byteLength),
      ...headers,
    },
  });
  responseBytes.set(response, bytes);
  return response;
}

/**
 * The real server's empty success: 204 with no body, still labelled `application/json` (Flask's
 * JSON response with nothing in it).
 */
export function noContent(): Response {
  return new Response(null, { status: 204, headers: { "content-type": "application/json" } });
}

/** Thrown by handlers; rendered into an error body by {@linkcode errorResponse}. */
export class HttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Extra body keys (`errors`, `scopes`, `file`, ...). */
  readonly extra: Record<string, unknown>;
  /** Extra response headers. */
  readonly headers: Record<string, string>;

  /**
   * Creates the error.
   *
   * @param description Description text; the status' default text when omitted.
   */
  constructor(
    status: number,
    description?: string,
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(description ?? DESCRIPTIONS[status] ?? reasonPhrase(status));
    this.name = "HttpError";
    this.status = status;
    this.extra = extra;
    this.headers = headers;
  }
}

/**
 * Builds the error response body `{code, message, description, ...extra}`.
 *
 * @param description Description; the default text of the status when omitted.
 */
export function errorResponse(
  status: number,
  description?: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body = {
    code: status,
    message: reasonPhrase(status),
    description: description ?? DESCRIPTIONS[status] ?? reasonPhrase(status),
    ...extra,
  };
  return jsonResponse(body, status, headers);
}

/**
 * Renders a thrown {@linkcode HttpError}.
 */
export function httpErrorResponse(error: HttpError): Response {
  return errorResponse(error.status, error.message, error.extra, error.headers);
}

/**
 * A 400 validation error with a marshmallow-like `errors` tree.
 */
export function validationError(errors: Record<string, unknown>): HttpError {
  return new HttpError(400, undefined, { errors });
}

/**
 * A 404 error.
 */
export function notFound(description?: string): HttpError {
  return new HttpError(404, description);
}
