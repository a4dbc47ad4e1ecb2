/**
 * Template exports: `json` (the template), `json-schema` and `shacl`, in the shapes the
 * repository's own exporter writes (as paraphrased in `../shared/corpus/json-schema/NOTES.md` and
 * `../shared/corpus/shacl/NOTES.md`), so that the importers of client-reference §5.2/§5.3 rebuild
 * the same extras.
 *
 * @module
 */
import { EXPORT_TYPES, type Extra } from "../http/protocol.ts";
import { type Ctx, isObject, loadActive } from "./_context.ts";
import { notFound, serverJson } from "./_errors.ts";
import {
  download,
  type ExportFilter,
  exportJson,
  parseFilter,
  RESOURCE_OMITTED,
  turtleString,
} from "./_exports.ts";
import { templateJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import type { TemplateData } from "./_state.ts";

/** The extras a template describes: its data, or a record template's `data.extras`. */
function templateExtras(t: TemplateData): Extra[] {
  if (t.type === "extras") return Array.isArray(t.data) ? t.data as Extra[] : [];
  const extras = isObject(t.data) ? t.data.extras : undefined;
  return Array.isArray(extras) ? extras as Extra[] : [];
}

function nested(extra: Extra): Extra[] {
  return Array.isArray(extra.value) ? extra.value as Extra[] : [];
}

/** JSON Schema of a scalar type as the real server writes it: one type, strings non-empty. */
const SCALAR_SCHEMAS: Record<string, Record<string, unknown>> = {
  str: { type: "string", minLength: 1 },
  int: { type: "integer" },
  float: { type: "number" },
  bool: { type: "boolean" },
  date: { type: "string", format: "date-time" },
};

function propertySchema(extra: Extra): Record<string, unknown> {
  if (extra.type === "dict") {
    return { type: "object", ...described(extra), ...objectSchema(nested(extra)) };
  }
  if (extra.type === "list") {
    return { type: "array", ...described(extra), prefixItems: nested(extra).map(propertySchema) };
  }
  const schema: Record<string, unknown> = {
    ...structuredClone(SCALAR_SCHEMAS[extra.type] ?? SCALAR_SCHEMAS.str),
    ...described(extra),
  };
  const validation = extra.validation ?? {};
  if (extra.value !== null && extra.value !== undefined) schema.default = extra.value;
  // A unit key, even null, gets the custom unit property; its default only when set.
  if ("unit" in extra) {
    schema.unit = { type: "string", minLength: 1, ...(extra.unit ? { default: extra.unit } : {}) };
  }
  if (validation.options?.length) schema.enum = [...validation.options];
  const range = validation.range;
  if (range?.min !== null && range?.min !== undefined) schema.minimum = range.min;
  if (range?.max !== null && range?.max !== undefined) schema.maximum = range.max;
  return schema;
}

function described(extra: Extra): Record<string, unknown> {
  return extra.description ? { description: extra.description } : {};
}

function objectSchema(extras: Extra[]): Record<string, unknown> {
  const keyed = extras.filter((e) => typeof e.key === "string");
  const schema: Record<string, unknown> = {
    properties: Object.fromEntries(keyed.map((e) => [e.key!, propertySchema(e)])),
    propertiesOrder: keyed.map((e) => e.key!),
  };
  const required = keyed.filter((e) => e.validation?.required === true).map((e) => e.key!);
  if (required.length > 0) schema.required = required;
  return schema;
}

/**
 * The JSON Schema (draft 2020-12) of a template: `propertiesOrder` and `required` at every object
 * level, nullable scalar types, `default`, `enum`, `minimum`/`maximum`, a custom `unit`
 * sub-schema, `format: "uri"` for IRI strings, `prefixItems` for lists. An empty template gives
 * only `$schema`.
 */
export function templateJsonSchema(t: TemplateData): Record<string, unknown> {
  const schema: Record<string, unknown> = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
  };
  const extras = templateExtras(t);
  if (extras.length === 0) return schema;
  return { ...schema, type: "object", ...objectSchema(extras) };
}

const XSD_TYPES: Record<string, string> = {
  str: "xsd:string",
  int: "xsd:integer",
  float: "xsd:float",
  bool: "xsd:boolean",
  date: "xsd:dateTime",
};

function literal(type: string, value: unknown): string {
  if (type === "int" && typeof value === "number") return String(value);
  if (type === "bool" && typeof value === "boolean") return String(value);
  if (type === "float" && typeof value === "number") {
    return `${turtleString(String(value))}^^xsd:float`;
  }
  if (type === "date") return `${turtleString(String(value))}^^xsd:dateTime`;
  return turtleString(String(value));
}

/** Collects the Turtle of a template's shapes: the root first, then every nested shape. */
class ShapeWriter {
  readonly root: string;
  readonly shapes: string[][] = [];
  readonly nestedShapes: string[] = [];

  constructor(root: string) {
    this.root = root;
  }

  /** `sh:property [...]` blocks of one level; list items are named by their index. */
  properties(extras: Extra[], inList: boolean, prefix: string): string[] {
    const lines: string[] = [];
    extras.forEach((extra, i) => {
      const key = inList ? String(i) : extra.key ?? String(i);
      lines.push("  sh:property [", ...this.#property(extra, i, key, `${prefix}${key}`), "  ] ;");
    });
    return lines;
  }

  #property(extra: Extra, order: number, key: string, dotted: string): string[] {
    const path = extra.term ? extra.term : `${this.root}#${encodeURIComponent(dotted)}`;
    const lines = [
      `    sh:path <${path}> ;`,
      `    sh:name ${turtleString(key)}@en ;`,
      `    sh:order ${order} ;`,
      "    sh:maxCount 1 ;",
    ];
    if (extra.description) lines.push(`    sh:description ${turtleString(extra.description)} ;`);
    const validation = extra.validation ?? {};
    if (validation.required) lines.push("    sh:minCount 1 ;");
    if (extra.type === "dict" || extra.type === "list") {
      const shape = `${this.root}#shapes/${encodeURIComponent(dotted)}`;
      this.nestedShapes.push(shape);
      this.shapes.push([
        `<${shape}> a sh:NodeShape ;`,
        ...this.properties(nested(extra), extra.type === "list", `${dotted}.`),
      ]);
      lines.push(`    sh:qualifiedValueShape <${shape}> ;`, "    sh:qualifiedMaxCount 1 ;");
      return lines;
    }
    const datatype = validation.iri ? "xsd:anyURI" : XSD_TYPES[extra.type] ?? "xsd:string";
    lines.push(`    sh:datatype ${datatype} ;`);
    if (extra.value !== null && extra.value !== undefined) {
      lines.push(`    sh:defaultValue ${literal(extra.type, extra.value)} ;`);
    }
    if (validation.options?.length) {
      const items = validation.options.map((o) => literal(extra.type, o)).join(" ");
      lines.push(`    sh:in ( ${items} ) ;`);
    }
    const range = validation.range;
    if (range?.min !== null && range?.min !== undefined) {
      lines.push(`    sh:minInclusive ${literal(extra.type, range.min)} ;`);
    }
    if (range?.max !== null && range?.max !== undefined) {
      lines.push(`    sh:maxInclusive ${literal(extra.type, range.max)} ;`);
    }
    return lines;
  }
}

/** Ends a statement: its last `;` becomes `.`. */
function statement(lines: string[]): string {
  const out = [...lines];
  out[out.length - 1] = out[out.length - 1]!.replace(/ ;$/, " .");
  return out.join("\n");
}

/**
 * The SHACL shape of a template, as Turtle: one `sh:NodeShape` per template with `dcterms:`
 * title, created, description and creator; one `sh:property` per field with `sh:path` (the term,
 * else `<template#key>`), `sh:name`, `sh:order`, `sh:maxCount 1`, `sh:datatype`,
 * `sh:defaultValue`, `sh:minCount 1` when required, `sh:in` and the range; dict and list fields
 * refer to their own NodeShape through `sh:qualifiedValueShape`, listed with `owl:imports`.
 *
 * @param ctx Request context (the shape's IRI).
 * @param filter The export filter (`user`: no creator).
 */
export function templateShacl(ctx: Ctx, t: TemplateData, filter: ExportFilter): string {
  const root = `${ctx.base}/templates/${t.id}`;
  const writer = new ShapeWriter(root);
  const properties = writer.properties(templateExtras(t), false, "");
  const head = [
    `<${root}> a sh:NodeShape ;`,
    `  dcterms:title ${turtleString(t.title)} ;`,
    `  dcterms:created ${turtleString(t.createdAt)}^^xsd:dateTime ;`,
    `  dcterms:description ${turtleString(t.description)} ;`,
  ];
  const creator = ctx.state.users.get(t.creatorId);
  if (!filter.user && creator) {
    head.push(`  dcterms:creator ${turtleString(creator.displayname)} ;`);
  }
  for (const shape of writer.nestedShapes) head.push(`  owl:imports <${shape}> ;`);
  const prefixes = [
    "@prefix dcterms: <http://purl.org/dc/terms/> .",
    "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
    "@prefix sh: <http://www.w3.org/ns/shacl#> .",
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
  ].join("\n");
  const statements = [[...head, ...properties], ...writer.shapes].map(statement);
  return `${prefixes}\n\n${statements.join("\n\n")}\n`;
}

function exportTemplate(ctx: Ctx): Response {
  const t = loadActive<TemplateData>(ctx, "template", "id", "read", "template.read");
  const type = ctx.params.type!;
  const ext = (EXPORT_TYPES.template as Record<string, string>)[type];
  if (ext === undefined) throw notFound();
  const name = `${t.identifier}.${ext}`;
  const filter = parseFilter(ctx);
  if (type === "shacl") return download(templateShacl(ctx, t, filter), name);
  if (type === "json-schema") return download(serverJson(templateJsonSchema(t), 2), name);
  const json = exportJson(templateJson(ctx, t), RESOURCE_OMITTED, filter);
  return download(serverJson(json, 2), name);
}

/** Template export routes. */
export const templateExportRoutes: Route[] = [
  route("GET", "/templates/:id/export/:type:str", exportTemplate),
];
