/**
 * A tiny router: `{method, pattern, handler}` entries matched in order. Pattern segments: literal,
 * `:name` (integer), `:name:str` (any segment), `*name` (the rest, may contain `/`).
 *
 * @module
 */
import type { Ctx } from "./_context.ts";

/** A route handler. */
export type RouteHandler = (ctx: Ctx) => Response | Promise<Response>;

/** One pattern segment, parsed once: a literal, an integer or text parameter, or the rest. */
interface Segment {
  kind: "literal" | "int" | "str" | "rest";
  /** The literal text, or the parameter's name. */
  text: string;
}

/** One route. */
export interface Route {
  method: string;
  segments: Segment[];
  handler: RouteHandler;
}

function parseSegment(seg: string): Segment {
  if (seg.startsWith("*")) return { kind: "rest", text: seg.slice(1) };
  if (!seg.startsWith(":")) return { kind: "literal", text: seg };
  const [name, type] = seg.slice(1).split(":") as [string, string | undefined];
  return { kind: type === "str" ? "str" : "int", text: name };
}

/**
 * Declares a route.
 *
 * @param pattern Path pattern below the API prefix.
 */
export function route(method: string, pattern: string, handler: RouteHandler): Route {
  const segments = pattern.split("/").filter((s) => s !== "").map(parseSegment);
  return { method, segments, handler };
}

const DIGITS = /^\d+$/;

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  // Only a pattern ending in `*rest` matches more parts than it has segments.
  if (parts.length !== segments.length && segments.at(-1)?.kind !== "rest") return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (seg.kind === "rest") {
      if (i >= parts.length) return null;
      params[seg.text] = parts.slice(i).join("/");
      return params;
    }
    const part = parts[i];
    if (part === undefined) return null;
    if (seg.kind === "literal") {
      if (seg.text !== part) return null;
      continue;
    }
    if (seg.kind === "int" && !DIGITS.test(part)) return null;
    if (part === "") return null;
    params[seg.text] = part;
  }
  // No `*rest`: the lengths are equal (checked first).
  return params;
}

/**
 * The routes that can match a path by its first part, in priority order: those whose pattern
 * starts with that literal and those that start with a parameter. Built once per first part, so a
 * request tries a handful of routes instead of all of them.
 */
interface RouteTable {
  byFirst: Map<string, Route[]>;
  others: Route[];
}

const tables: WeakMap<readonly Route[], RouteTable> = new WeakMap();

function candidates(routes: readonly Route[], first: string): readonly Route[] {
  let table = tables.get(routes);
  if (table === undefined) {
    const literals = new Set<string>();
    for (const r of routes) if (r.segments[0]?.kind === "literal") literals.add(r.segments[0].text);
    const byFirst = new Map<string, Route[]>();
    for (const literal of literals) {
      byFirst.set(
        literal,
        routes.filter((r) => r.segments[0]?.kind !== "literal" || r.segments[0].text === literal),
      );
    }
    table = { byFirst, others: routes.filter((r) => r.segments[0]?.kind !== "literal") };
    tables.set(routes, table);
  }
  return table.byFirst.get(first) ?? table.others;
}

/**
 * Finds the route of a request.
 *
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
  for (const r of candidates(routes, parts[0] ?? "")) {
    const params = matchSegments(r.segments, parts);
    if (params === null) continue;
    if (r.method === method || (method === "HEAD" && r.method === "GET")) {
      return { route: r, params };
    }
    methodMismatch = true;
  }
  return methodMismatch ? "method" : null;
}
