// Extras from `variableMeasured` PropertyValue nodes (client-reference §5.1 step 8): `propertyID`
// split on `.` is the nesting path (a missing container is a list when the next key is all digits,
// else a dict); the leaf type follows the JSON value, strings that parse as ISO dates become
// `date` with the normalised value; null values are skipped; `description`, `identifier` (→
// `term`), `unitText` (→ `unit`), `minValue`/`maxValue` (→ `validation.range`) are kept.

import type { Extra } from "../../http/protocol.ts";
import { normalizeIsoDate } from "../../convert/is_iso_date.ts";
import { asList, type Crate, type CrateNode, numberText, text } from "./_crate.ts";

const MAX_KEY_LENGTH = 256;
const BAD_IRI = /[<>"{}|\\^`\s]/;

/** The extras of a dataset, with notes on values that could not be placed. */
export function propertyValueExtras(
  crate: Crate,
  dataset: CrateNode,
): { extras: Extra[]; warnings: string[] } {
  const extras: Extra[] = [];
  const warnings: string[] = [];
  for (const ref of asList(dataset.variableMeasured)) {
    const property = crate.resolve(ref);
    if (property === undefined) continue;
    const path = text(property.propertyID) ?? text(property.name);
    const leaf = path === undefined ? undefined : leafExtra(property);
    if (path === undefined || leaf === undefined) continue;
    const keys = path.split(".").map((key) => key.trim().slice(0, MAX_KEY_LENGTH))
      .filter((key) => key !== "");
    if (keys.length === 0 || !place(extras, keys, leaf, false)) {
      warnings.push(`The property '${path}' clashes with another one: skipped`);
    }
  }
  return { extras, warnings };
}

function leafExtra(property: CrateNode): Extra | undefined {
  const value = property.value;
  let extra: Extra;
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") {
    const date = normalizeIsoDate(value);
    extra = date === undefined ? { type: "str", value } : { type: "date", value: date };
  } else if (typeof value === "boolean") extra = { type: "bool", value };
  else if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    // The JSON text decides, as in Python: 100.0 and 1e3 are floats, 100 an integer.
    const source = numberText(property, "value") ?? String(value);
    extra = !/^-?\d+$/.test(source)
      ? { type: "float", value }
      : Number.isSafeInteger(value)
      ? { type: "int", value }
      : { type: "str", value: source };
  } else extra = { type: "str", value: JSON.stringify(value) };
  const description = text(property.description);
  if (description !== undefined) extra.description = description;
  const term = text(property.identifier);
  if (term !== undefined && /^[a-z][a-z0-9+.-]*:/i.test(term) && !BAD_IRI.test(term)) {
    extra.term = term;
  }
  if (extra.type === "int" || extra.type === "float") {
    const unit = text(property.unitText);
    if (unit !== undefined) extra.unit = unit;
    const min = typeof property.minValue === "number" ? property.minValue : null;
    const max = typeof property.maxValue === "number" ? property.maxValue : null;
    if ((min !== null || max !== null) && (min === null || max === null || min <= max)) {
      extra.validation = { range: { min, max } };
    }
  }
  return extra;
}

/** Places `leaf` at `keys` below `items`; false when the path clashes with an existing entry. */
function place(items: Extra[], keys: string[], leaf: Extra, inList: boolean): boolean {
  const [key, ...rest] = keys as [string, ...string[]];
  let index: number;
  if (inList) {
    if (!/^\d+$/.test(key)) return false;
    index = Math.min(Number(key), items.length);
  } else index = items.findIndex((item) => item.key === key);
  const existing = index >= 0 ? items[index] : undefined;
  if (rest.length === 0) {
    if (existing !== undefined) return false;
    items.push(inList ? leaf : { key, ...leaf });
    return true;
  }
  const type = /^\d+$/.test(rest[0]!) ? "list" : "dict";
  if (existing === undefined) {
    const container: Extra = inList ? { type, value: [] } : { key, type, value: [] };
    items.push(container);
    return place(container.value as Extra[], rest, leaf, type === "list");
  }
  if (existing.type !== "dict" && existing.type !== "list") return false;
  return place(existing.value as Extra[], rest, leaf, existing.type === "list");
}
