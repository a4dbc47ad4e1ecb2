/**
 * Record search helpers: the `extras` query (a reasonable subset of the server's Elasticsearch
 * query) and the resource sort orders.
 *
 * @module
 */
import type { Extra } from "../http/protocol.ts";
import { isObject } from "./_context.ts";
import { normalizeDate } from "./_extras.ts";
import type { Resource } from "./_state.ts";

interface FlatExtra {
  key: string;
  type: string;
  value: unknown;
  unit: string | null;
}

function flatten(extras: Extra[], prefix = ""): FlatExtra[] {
  const out: FlatExtra[] = [];
  extras.forEach((extra, i) => {
    const key = prefix + (extra.key ?? String(i + 1));
    if (extra.type === "dict" || extra.type === "list") {
      out.push(...flatten((extra.value as Extra[] | null) ?? [], `${key}.`));
    } else {
      out.push({ key, type: extra.type, value: extra.value ?? null, unit: extra.unit ?? null });
    }
  });
  return out;
}

function fuzzy(pattern: string, text: string): boolean {
  const p = pattern.trim().toLowerCase();
  const t = text.toLowerCase();
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) return t === p.slice(1, -1);
  if (p.length < 3) return t.startsWith(p);
  return t.includes(p);
}

function matchesOne(query: Record<string, unknown>, entry: FlatExtra): boolean {
  if (typeof query.key === "string" && query.key !== "" && !fuzzy(query.key, entry.key)) {
    return false;
  }
  switch (query.type) {
    case "str":
      if (entry.type !== "str") return false;
      if (typeof query.str === "string" && query.str !== "") {
        return typeof entry.value === "string" && fuzzy(query.str, entry.value);
      }
      return true;
    case "numeric": {
      if (entry.type !== "int" && entry.type !== "float") return false;
      const range = isObject(query.numeric) ? query.numeric : {};
      const value = entry.value;
      if (typeof value !== "number") return range.min === undefined && range.max === undefined;
      const min = Number(range.min ?? -Infinity);
      const max = Number(range.max ?? Infinity);
      if (typeof range.unit === "string" && range.unit !== "" && range.unit !== entry.unit) {
        return false;
      }
      return value >= min && value <= max;
    }
    case "bool":
      if (entry.type !== "bool") return false;
      if (query.bool === undefined || query.bool === null || query.bool === "") return true;
      return String(entry.value) === String(query.bool).toLowerCase();
    case "date": {
      if (entry.type !== "date" || typeof entry.value !== "string") return false;
      const range = isObject(query.date) ? query.date : {};
      const min = typeof range.min === "string" ? normalizeDate(range.min) : null;
      const max = typeof range.max === "string" ? normalizeDate(range.max) : null;
      const time = Date.parse(entry.value);
      return (min === null || time >= Date.parse(min)) && (max === null || time <= Date.parse(max));
    }
    default:
      return true;
  }
}

/**
 * Parses the `extras` search parameter; null when absent or invalid (filter ignored).
 */
export function parseExtrasQuery(raw: string | null): Record<string, unknown>[] | null {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value) || !value.every(isObject)) return null;
    return value as Record<string, unknown>[];
  } catch {
    return null;
  }
}

/**
 * Whether extras match the query ("and" binds tighter than "or"; the first link is ignored).
 */
export function matchExtras(extras: Extra[], queries: Record<string, unknown>[]): boolean {
  if (queries.length === 0) return true;
  const entries = flatten(extras);
  const groups: Record<string, unknown>[][] = [];
  queries.forEach((q, i) => {
    if (i === 0 || q.link === "or") groups.push([q]);
    else groups[groups.length - 1]!.push(q);
  });
  return groups.some((group) => group.every((q) => entries.some((e) => matchesOne(q, e))));
}

/**
 * Sorts resources by a server sort key (`±last_modified`, `±created_at`, `±title`, `±identifier`,
 * `±name`); unknown keys fall back to `fallback`.
 *
 * @param items Resources (sorted in place copy).
 */
export function sortResources<T extends Resource>(
  items: T[],
  sort: string | null,
  fallback = "-last_modified",
): T[] {
  const keys: Record<string, (r: T) => string> = {
    last_modified: (r) => r.lastModified,
    created_at: (r) => r.createdAt,
    title: (r) => r.title.toLowerCase(),
    identifier: (r) => r.identifier,
  };
  const chosen = sort !== null && keys[sort.replace(/^-/, "")] ? sort : fallback;
  const desc = chosen.startsWith("-");
  const get = keys[chosen.replace(/^-/, "")]!;
  return [...items].sort((a, b) => {
    const c = get(a) < get(b) ? -1 : get(a) > get(b) ? 1 : a.id - b.id;
    return desc ? -c : c;
  });
}

/**
 * Tells whether a resource's title or identifier contains a lower-cased search text (the
 * `query` of searches and the `filter` of lists); an empty text matches everything.
 *
 * @param text The search text, lower-cased and trimmed.
 */
export function matchesText(
  resource: Pick<Resource, "title" | "identifier">,
  text: string,
): boolean {
  return text === "" || resource.title.toLowerCase().includes(text) ||
    resource.identifier.includes(text);
}
