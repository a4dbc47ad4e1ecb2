/**
 * The request log of the local repository server.
 *
 * @module
 */
import { HEADER } from "../http/protocol.ts";

/** One logged request. */
export interface RequestLogEntry {
  /** HTTP method. */
  method: string;
  /** URL path. */
  path: string;
  /** Query string without `?`. */
  query: string;
  /** Answered status; 0 when the connection was dropped. */
  status: number;
  /** `Kadi-Chunk-Index` header of chunk uploads. */
  chunkIndex?: number;
  /** Request body bytes received. */
  bodyBytes?: number;
  /** Whether an `Authorization` header was present. */
  authorization: boolean;
  /** The `User-Agent` header. */
  userAgent: string | null;
  /** Request headers (lowercase names), `Authorization` replaced by `<redacted>`. */
  headers: Record<string, string>;
}

/**
 * Creates the log entry of a request (status 0 until answered).
 *
 * @param request The request.
 * @returns The entry.
 */
export function logEntry(request: Request): RequestLogEntry {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) {
    headers[name] = name === "authorization" ? "<redacted>" : value;
  }
  const entry: RequestLogEntry = {
    method: request.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    status: 0,
    authorization: request.headers.has(HEADER.authorization),
    userAgent: request.headers.get(HEADER.userAgent),
    headers,
  };
  const index = request.headers.get(HEADER.chunkIndex)?.trim();
  if (index !== undefined && /^\d+$/.test(index)) entry.chunkIndex = Number(index);
  return entry;
}
