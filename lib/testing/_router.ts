/**
 * A tiny router: `{method, pattern, handler}` entries matched in order. Pattern segments: literal,
 * `:name` (integer), `:name:str` (any segment), `*name` (the rest, may contain `/`).
 *
 * @module
 */
import type { Ctx } from "./_context.ts";

/** A route handler. */
export type RouteHandler = (ctx: Ctx) => Response | Promise<Response>;

/** One route. */
export interface Route {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/**
 * Declares a route.
 *
 * @param method HTTP method.
 * @param pattern Path pattern below the API prefix.
 * @param handler The handler.
 * @returns The route.
 */
export function route(method: string, pattern: string, handler: RouteHandler): Route {
  return { method, segments: pattern.split("/").filter((s) => s !== ""), handler };
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.startsWith("*")) {
      if (i >= parts.length) return null;
      params[seg.slice(1)] = parts.slice(i).join("/");
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.startsWith(":")) {
      const [name, type] = seg.slice(1).split(":") as [string, string | undefined];
      if (type !== "str" && !/^\d+$/.test(part)) return null;
      if (part === "") return null;
      params[name] = part;
    } else if (seg !== part) {
      return null;
    }
  }
  return parts.length === segments.length ? params : null;
}

/**
 * Finds the route of a request.
 *
 * @param routes Routes in priority order.
 * @param method HTTP method.
 * @param path Path below the API prefix.
 * @returns The route and its parameters, `"method"` when only the method differs, or null.
 */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | "method" | null {
  let parts: string[];
  try {
    parts = path.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
  if (parts.length === 1 && parts[0] === "") parts = [];
  let methodMismatch = false;
  for (const r of routes) {
    const params = matchSegments(r.segments, parts);
    if (params === null) continue;
    if (r.method === method || (method === "HEAD" && r.method === "GET")) {
      return { route: r, params };
    }
    methodMismatch = true;
  }
  return methodMismatch ? "method" : null;
}
