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
 * @param url Its parsed address (parsed again when not given).
 */
export function logEntry(request: Request, url: URL = new URL(request.url)): RequestLogEntry {
  const source = request.headers;
  let headers: Record<string, string> | undefined;
  const entry = {
    method: request.method,
    path: url.pathname,
    query: url.search.replace(/^\?/, ""),
    status: 0,
    authorization: source.has(HEADER.authorization),
    userAgent: source.get(HEADER.userAgent),
    // Copied when a test first looks at them: every request is logged, few are inspected.
    get headers(): Record<string, string> {
      if (headers === undefined) {
        headers = {};
        for (const [name, value] of source) {
          headers[name] = name === "authorization" ? "<redacted>" : value;
        }
      }
      return headers;
    },
  } as RequestLogEntry;
  const index = request.headers.get(HEADER.chunkIndex)?.trim();
  if (index !== undefined && /^\d+$/.test(index)) entry.chunkIndex = Number(index);
  return entry;
}
