/**
 * JSON Schema → template, as a pure function (client-reference §5.2, spec rule 8).
 *
 * @module
 */

import { InputError } from "../errors.ts";
import {
  type Extra,
  EXTRAS_MAX_INTEGER,
  EXTRAS_MIN_INTEGER,
  type ExtraType,
  type ExtraValidation,
} from "../http/protocol.ts";
import { normalizeIsoDate } from "../convert/is_iso_date.ts";
import { type JsonValue, jsonValueToPlain, parseJson } from "../convert/parse_json.ts";
import { type RefResolver, refResolver, type Schema } from "./_json_schema_refs.ts";
import { fileStem } from "./_file_stem.ts";
import { checkFieldOptions, type TemplateDraft } from "./template_draft.ts";

/** Options of {@link jsonSchemaToTemplate}. */
export interface JsonSchemaToTemplateOptions {
  /** File name; its stem is the title when the schema has none. @default {"schema.json"} */
  fileName?: string;
  /** Most extras one schema may produce (`$ref`s can multiply them). @default {10000} */
  maxExtras?: number;
  /** Deepest nesting of properties. @default {64} */
  maxDepth?: number;
  /**
   * Most schema nodes expanded (each `$ref` followed, each `allOf`/`oneOf`/`anyOf` part), the
   * bound on the work `$ref`s and `allOf` can multiply; a reference is expanded once and reused.
   * @default {100000}
   */
  maxNodes?: number;
}

/** Longest chain of `$ref`s and `allOf` parts inside one another. */
const MAX_CHAIN = 256;

const TYPES: { [type: string]: ExtraType } = {
  object: "dict",
  array: "list",
  string: "str",
  integer: "int",
  number: "float",
  boolean: "bool",
};

interface Walk {
  resolver: RefResolver;
  count: number;
  maxExtras: number;
  maxDepth: number;
  /**
   * The schema nodes of the document being converted right now, outermost first: a node met again
   * below itself nests without end (a cycle). A definition used twice side by side is no cycle.
   */
  ancestors: Set<Schema>;
  /** Schema nodes expanded so far, and the most allowed. */
  nodes: number;
  maxNodes: number;
  /** Each `$ref` target expanded once. */
  expanded: Map<Schema, Schema>;
}

/**
 * Converts a JSON Schema document (drafts 04, 07, 2019-09, 2020-12) to template extras. The top
 * level must be an object schema with properties. Per property: `type` (the first non-`null`
 * entry of a type array; without a type, `object` when it has `properties`, `array` when it has
 * `items`/`prefixItems`, else `string`) gives `dict`, `list`, `str` (`date` with
 * `format: date-time`), `int`, `float` or `bool` (`null` gives `str`; a name that is no JSON Schema
 * type is refused). Objects recurse
 * into `properties`, ordered by `propertiesOrder` (names not listed sort as position 0, stably);
 * arrays into `prefixItems`, a tuple `items` array or the one `items` schema (list children have
 * no key; an array without items is an empty list). Scalars take `default` as value, the custom
 * `unit.default` as unit (numbers only), `required` of the parent as `validation.required`,
 * `enum` as `validation.options` (values of the field's type), `minimum`/`maximum` as
 * `validation.range` (numbers only), `format: uri`/`iri` as `validation.iri`. `description` is kept (stringified). Local `$ref`s are
 * resolved, sibling keywords applied on top; `allOf` parts are merged; the fields of `oneOf`/`anyOf`
 * alternatives are joined (none required) when the schema has no type or properties of its own; a remote `$ref` is refused.
 *
 * @example Usage
 * ```ts
 * import { jsonSchemaToTemplate } from "./json_schema_template.ts";
 * const draft = jsonSchemaToTemplate(
 *   '{"type": "object", "properties": {"t": {"$ref": "#/$defs/t"}}, "$defs": {"t": {"type": "integer", "unit": {"default": "K"}}}}',
 *   { fileName: "temperature.schema.json" },
 * );
 * console.log(draft.title, draft.extras); // "temperature.schema" [{ key: "t", type: "int", value: null, unit: "K" }]
 * ```
 *
 * @param options File name for the title, limits.
 * @returns The template's title, description and extras.
 * @throws {InputError} For invalid JSON, a top level without properties, a remote or broken
 *   `$ref`, a recursive `$ref`, or a schema beyond the limits.
 */
export function jsonSchemaToTemplate(
  text: string,
  options: JsonSchemaToTemplateOptions = {},
): TemplateDraft {
  const { fileName = "schema.json", maxExtras = 10_000, maxDepth = 64, maxNodes = 100_000 } =
    options;
  try {
    return convertSchema(text, fileName, { maxExtras, maxDepth, maxNodes });
  } catch (error) {
    // The bounds above keep recursion shallow; an engine limit is still said in the user's terms.
    if (!(error instanceof RangeError)) throw error;
    throw new InputError(
      `The schema ${fileName} is nested too deeply to be read: flatten it`,
    );
  }
}

function convertSchema(
  text: string,
  fileName: string,
  limits: { maxExtras: number; maxDepth: number; maxNodes: number },
): TemplateDraft {
  const root = parseJson(text);
  if (!(root instanceof Map)) {
    throw new InputError("Only objects are supported as top-level types: the file is not a schema");
  }
  const walk: Walk = {
    resolver: refResolver(root),
    count: 0,
    ancestors: new Set(),
    nodes: 0,
    expanded: new Map(),
    ...limits,
  };
  const top = expand(root, walk, "#");
  const properties = top.get("properties");
  if (!(properties instanceof Map) || properties.size === 0) {
    throw new InputError(
      "Only objects are supported as top-level types: the schema needs a non-empty 'properties'",
    );
  }
  const title = top.get("title");
  const description = top.get("description");
  return {
    title: typeof title === "string" && title.trim() !== "" ? title : fileStem(fileName),
    description: typeof description === "string" ? description : "",
    extras: objectExtras(top, walk, "#", 1),
  };
}

/**
 * Resolves `$ref` (sibling keywords on top) and merges `allOf` parts. A reference to a target that
 * is being expanded in this chain (`a` = `allOf: [$ref a]`) is a cycle.
 */
function expand(schema: Schema, walk: Walk, at: string, chain: Schema[] = []): Schema {
  if (++walk.nodes > walk.maxNodes) {
    throw new InputError(
      `The schema needs more than ${walk.maxNodes} steps to expand its $ref and allOf/oneOf/` +
        `anyOf parts (at ${at}): too large for a template; give each field once`,
    );
  }
  if (chain.length > MAX_CHAIN) {
    throw new InputError(
      `The schema nests $ref and allOf/oneOf/anyOf deeper than ${MAX_CHAIN} levels at ${at}`,
    );
  }
  let result = schema;
  const ref = schema.get("$ref");
  if (typeof ref === "string") {
    const resolved = walk.resolver.resolve(ref, at);
    if (chain.includes(resolved) || resolved === schema) throw recursive(ref, at);
    let done = walk.expanded.get(resolved);
    if (done === undefined) {
      done = expand(resolved, walk, at, [...chain, resolved]);
      walk.expanded.set(resolved, done);
    }
    result = new Map([...done, ...[...schema].filter(([key]) => key !== "$ref")]);
  }
  const allOf = result.get("allOf");
  if (Array.isArray(allOf)) {
    const merged = new Map(result);
    const properties = new Map<string, JsonValue>();
    const required: JsonValue[] = [];
    for (const [index, part] of allOf.entries()) {
      if (!(part instanceof Map)) continue;
      const expanded = expand(part, walk, `${at}/allOf/${index}`, chain);
      for (const [key, value] of expanded) if (!merged.has(key)) merged.set(key, value);
      const partProperties = expanded.get("properties");
      if (partProperties instanceof Map) {
        for (const [k, v] of partProperties) properties.set(k, v);
      }
      const partRequired = expanded.get("required");
      if (Array.isArray(partRequired)) required.push(...partRequired);
    }
    const own = result.get("properties");
    if (own instanceof Map) { for (const [k, v] of own) properties.set(k, v); }
    const ownRequired = result.get("required");
    if (Array.isArray(ownRequired)) required.push(...ownRequired);
    if (properties.size > 0) merged.set("properties", properties);
    if (required.length > 0) merged.set("required", required);
    merged.delete("allOf");
    result = merged;
  }
  for (const keyword of ["oneOf", "anyOf"]) {
    const branches = result.get(keyword);
    if (!Array.isArray(branches) || result.has("type") || result.has("properties")) continue;
    // Alternatives: the union of their fields (none required), typed when they agree.
    const properties = new Map<string, JsonValue>();
    const types = new Set<string>();
    for (const [index, branch] of branches.entries()) {
      if (!(branch instanceof Map)) continue;
      const expanded = expand(branch, walk, `${at}/${keyword}/${index}`, chain);
      const type = expanded.get("type");
      types.add(typeof type === "string" ? type : expanded.has("properties") ? "object" : "");
      const branchProperties = expanded.get("properties");
      if (branchProperties instanceof Map) {
        for (const [k, v] of branchProperties) if (!properties.has(k)) properties.set(k, v);
      }
    }
    const merged = new Map(result);
    if (types.size === 1 && !types.has("")) merged.set("type", [...types][0] as string);
    if (properties.size > 0) merged.set("properties", properties);
    result = merged;
  }
  return result;
}

const STANDARD_TYPES = new Set([...Object.keys(TYPES), "null"]);

function typeName(schema: Schema, at: string): string {
  let type = schema.get("type");
  for (const name of Array.isArray(type) ? type : [type]) {
    if (typeof name === "string" && !STANDARD_TYPES.has(name)) {
      throw new InputError(
        `The file is not a JSON Schema: 'type': '${name}' at ${at} is no JSON Schema type ` +
          "(null, boolean, object, array, number, string, integer); other schema dialects such " +
          "as SampleDB's cannot be imported",
      );
    }
  }
  if (Array.isArray(type)) type = type.find((entry) => entry !== "null") ?? type[0] ?? null;
  if (typeof type === "string") return type;
  if (schema.has("properties")) return "object";
  if (schema.has("items") || schema.has("prefixItems")) return "array";
  return "string";
}

function orderIndex(order: JsonValue | undefined): (key: string) => number {
  if (!Array.isArray(order)) return () => 0;
  return (key) => Math.max(order.indexOf(key), 0);
}

function objectExtras(schema: Schema, walk: Walk, at: string, depth: number): Extra[] {
  const properties = schema.get("properties");
  if (!(properties instanceof Map)) return [];
  const required = schema.get("required");
  const requiredKeys = new Set(Array.isArray(required) ? required.filter(isString) : []);
  const index = orderIndex(schema.get("propertiesOrder"));
  const keys = [...properties.keys()].map((key, position) => ({ key, position }))
    .sort((a, b) => index(a.key) - index(b.key) || a.position - b.position);
  return keys.flatMap(({ key }) => {
    const child = properties.get(key);
    if (!(child instanceof Map)) return []; // `true`/`false` schemas describe no field
    const extra = convert(child, walk, `${at}/properties/${key}`, depth, requiredKeys.has(key));
    return [{ key, ...extra }];
  });
}

function arrayExtras(schema: Schema, walk: Walk, at: string, depth: number): Extra[] {
  const prefix = schema.get("prefixItems");
  const items = schema.get("items");
  const tuple = Array.isArray(prefix) ? prefix : Array.isArray(items) ? items : undefined;
  const parts = tuple ?? (items instanceof Map ? [items] : []);
  return parts.flatMap((part, index) =>
    part instanceof Map ? [convert(part, walk, `${at}/items/${index}`, depth, false)] : []
  );
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function convert(raw: Schema, walk: Walk, at: string, depth: number, required: boolean): Extra {
  if (depth > walk.maxDepth) {
    throw new InputError(`The schema nests deeper than ${walk.maxDepth} levels at ${at}`);
  }
  if (++walk.count > walk.maxExtras) {
    throw new InputError(
      `The schema gives more than ${walk.maxExtras} fields (at ${at}): too large for a template`,
    );
  }
  // The same node of the document below itself nests without end; used again side by side
  // (two properties, or a property and an allOf part, referring to one definition) it does not.
  if (walk.ancestors.has(raw)) throw recursive(raw.get("$ref"), at);
  const schema = expand(raw, walk, at);
  walk.ancestors.add(raw);
  try {
    return convertExpanded(schema, walk, at, depth, required);
  } finally {
    walk.ancestors.delete(raw);
  }
}

function recursive(ref: JsonValue | undefined, at: string): InputError {
  const what = typeof ref === "string" ? `$ref '${ref}' at ${at}` : `the schema at ${at}`;
  return new InputError(
    `The schema is recursive (${what} refers to itself): a template cannot nest without end; ` +
      "remove the cycle",
  );
}

function convertExpanded(
  schema: Schema,
  walk: Walk,
  at: string,
  depth: number,
  required: boolean,
): Extra {
  const name = typeName(schema, at);
  const description = schema.get("description");
  const described = description === undefined || description === null ? {} : {
    description: typeof description === "string" ? description : JSON.stringify(
      jsonValueToPlain(description),
    ),
  };
  if (name === "object") {
    return { type: "dict", value: objectExtras(schema, walk, at, depth + 1), ...described };
  }
  if (name === "array") {
    return { type: "list", value: arrayExtras(schema, walk, at, depth + 1), ...described };
  }
  const type: ExtraType = name === "string" && schema.get("format") === "date-time"
    ? "date"
    : TYPES[name] ?? "str";
  const extra: Extra = { type, value: fitValue(type, schema.get("default")), ...described };
  const unit = schema.get("unit");
  const unitDefault = unit instanceof Map ? unit.get("default") : undefined;
  if ((type === "int" || type === "float") && typeof unitDefault === "string") {
    extra.unit = unitDefault;
  }
  const validation: ExtraValidation = {};
  if (required) validation.required = true;
  if (type === "str" && ["uri", "iri"].includes(String(schema.get("format")))) {
    validation.iri = true;
  }
  const options = schema.get("enum");
  if (Array.isArray(options)) checkFieldOptions(options.length, "enum", at);
  if (Array.isArray(options) && ["str", "int", "float"].includes(type)) {
    const fitting = options.map((option) => fitValue(type, option)).filter((v) => v !== null);
    const unique = [...new Set(fitting)];
    if (unique.length > 0) validation.options = unique;
  }
  if (type === "int" || type === "float") {
    const min = fitValue("float", schema.get("minimum"));
    const max = fitValue("float", schema.get("maximum"));
    if (typeof min === "number" || typeof max === "number") {
      validation.range = {
        min: typeof min === "number" ? min : null,
        max: typeof max === "number" ? max : null,
      };
    }
  }
  if (Object.keys(validation).length > 0) extra.validation = validation;
  return extra;
}

/** A value fitting the field's type, or null: a default or option of another type is dropped. */
function fitValue(type: ExtraType, raw: JsonValue | undefined): string | number | boolean | null {
  if (raw === undefined || raw === null) return null;
  const value = jsonValueToPlain(raw);
  if (type === "str") {
    return typeof value === "string" ? value : typeof value === "number" ? String(value) : null;
  }
  if (type === "int") {
    return typeof value === "number" && Number.isInteger(value) && value >= EXTRAS_MIN_INTEGER &&
        value <= EXTRAS_MAX_INTEGER
      ? value
      : null;
  }
  if (type === "float") return typeof value === "number" && Number.isFinite(value) ? value : null;
  if (type === "bool") return typeof value === "boolean" ? value : null;
  if (type === "date") return typeof value === "string" ? normalizeIsoDate(value) ?? null : null;
  return null;
}
