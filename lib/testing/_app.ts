/**
 * The whole local repository server as one request handler: request log, faults, API prefix,
 * authentication, body limit, routing and error rendering.
 *
 * @module
 */
import { API_PREFIX, API_PREFIX_UNVERSIONED, MAX_CONTENT_LENGTH } from "../http/protocol.ts";
import type { Ctx } from "./_context.ts";
import { errorResponse, HttpError, httpErrorResponse } from "./_errors.ts";
import { withFaults } from "./_faults.ts";
import { DropConnection, type Handler } from "./_http.ts";
import { logEntry } from "./_log.ts";
import { matchRoute, type Route } from "./_router.ts";
import type { State } from "./_state.ts";

function prefixOf(pathname: string): string | null {
  for (const prefix of [API_PREFIX, API_PREFIX_UNVERSIONED]) {
    if (pathname === prefix || pathname.startsWith(`${prefix}/`)) return prefix;
  }
  return null;
}

async function dispatch(state: State, routes: readonly Route[], request: Request, parsed?: URL) {
  const url = parsed ?? new URL(request.url);
  const prefix = prefixOf(url.pathname);
  if (prefix === null) return errorResponse(404);
  const auth = request.headers.get("authorization")?.trim() ?? "";
  const match = /^bearer\s+(\S+)$/i.exec(auth);
  const token = match ? state.tokens.get(match[1]!) : undefined;
  if (!token) return errorResponse(401);
  if (token.expired) return errorResponse(401, "Access token has expired.");
  const user = state.users.get(token.userId);
  if (!user) return errorResponse(401);
  if (user.state === "inactive") return errorResponse(401, "This account is currently inactive.");
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_CONTENT_LENGTH) return errorResponse(413);
  const path = url.pathname.slice(prefix.length) || "/";
  const found = matchRoute(routes, request.method, path === "/" ? "" : path);
  if (found === null) return errorResponse(404);
  if (found === "method") return errorResponse(405);
  const ctx: Ctx = {
    request,
    url,
    origin: url.origin,
    prefix,
    base: url.origin + prefix,
    path: path === "/" ? "" : path,
    params: found.params,
    state,
    user,
    token,
  };
  try {
    return await found.route.handler(ctx);
  } catch (error) {
    if (error instanceof HttpError) return httpErrorResponse(error);
    if (error instanceof DropConnection) throw error;
    return errorResponse(500);
  }
}

/**
 * Builds the server's request handler.
 *
 * @param routes All routes in priority order.
 */
export function createApp(state: State, routes: readonly Route[]): Handler {
  return async (request, meta) => {
    const entry = logEntry(request, meta.url);
    state.log.push(entry);
    meta.onBodyEnd = (bytes) => {
      if (bytes > 0 || entry.bodyBytes !== undefined) entry.bodyBytes = bytes;
    };
    try {
      const response = await withFaults(
        state.faults,
        request,
        // The parsed address is handed on: a faulted request (slow body) has the same one.
        (faulted) => dispatch(state, routes, faulted, meta.url),
        meta.url,
      );
      entry.status = response.status;
      if (meta.bodyBytes > 0) entry.bodyBytes = meta.bodyBytes;
      return response;
    } catch (error) {
      entry.status = 0;
      throw error;
    }
  };
}
