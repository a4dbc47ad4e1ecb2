/**
 * Template exports: `json` (the template), `json-schema` (draft 2020-12, with `propertiesOrder`,
 * `required`, `enum`, ranges, defaults and a custom `unit`) and `shacl` (a Turtle `sh:NodeShape`
 * with `sh:order`, datatypes, defaults, `sh:in`, ranges and `sh:minCount` for required values).
 * Both schema exports are written so that the importers of client-reference §5.2/§5.3 rebuild
 * the same extras.
 *
 * @module
 */
import { EXPORT_TYPES, type Extra } from "../http/protocol.ts";
import { type Ctx, isObject, loadActive } from "./_context.ts";
import { notFound } from "./_errors.ts";
import { download, exportJson, parseFilter, RESOURCE_OMITTED, turtleString } from "./_exports.ts";
import { templateJson } from "./_render.ts";
import { type Route, route } from "./_router.ts";
import type { TemplateData } from "./_state.ts";

/** The extras a template describes: its data, or a record template's `data.extras`. */
function templateExtras(t: TemplateData): Extra[] {
  if (t.type === "extras") return Array.isArray(t.data) ? t.data as Extra[] : [];
  const extras = isObject(t.data) ? t.data.extras : undefined;
  return Array.isArray(extras) ? extras as Extra[] : [];
}

const JSON_TYPES: Record<string, string> = {
  str: "string",
  int: "integer",
  float: "number",
  bool: "boolean",
  date: "string",
  dict: "object",
  list: "array",
};

function nested(extra: Extra): Extra[] {
  return Array.isArray(extra.value) ? extra.value as Extra[] : [];
}

function propertySchema(extra: Extra): Record<string, unknown> {
  const schema: Record<string, unknown> = { type: JSON_TYPES[extra.type] ?? "string" };
  if (extra.description) schema.description = extra.description;
  if (extra.type === "dict") return { ...schema, ...objectSchema(nested(extra)) };
  if (extra.type === "list") return { ...schema, prefixItems: nested(extra).map(propertySchema) };
  if (extra.type === "date") schema.format = "date-time";
  const validation = extra.validation ?? {};
  if (validation.iri) schema.format = "uri";
  if (extra.value !== null && extra.value !== undefined) schema.default = extra.value;
  if (extra.unit) schema.unit = { type: "string", default: extra.unit };
  if (validation.options?.length) schema.enum = [...validation.options];
  const range = validation.range;
  if (range?.min !== null && range?.min !== undefined) schema.minimum = range.min;
  if (range?.max !== null && range?.max !== undefined) schema.maximum = range.max;
  return schema;
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
 * The JSON Schema of a template.
 *
 * @param t The template.
 * @returns The schema object.
 */
export function templateJsonSchema(t: TemplateData): Record<string, unknown> {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: t.title,
    description: t.description,
    type: "object",
    ...objectSchema(templateExtras(t)),
  };
}

const XSD_TYPES: Record<string, string> = {
  str: "xsd:string",
  int: "xsd:integer",
  float: "xsd:double",
  bool: "xsd:boolean",
  date: "xsd:dateTime",
};

function literal(type: string, value: unknown): string {
  if (type === "int" && typeof value === "number") return String(value);
  if (type === "bool" && typeof value === "boolean") return String(value);
  if (type === "float" && typeof value === "number") {
    return `${turtleString(String(value))}^^xsd:double`;
  }
  if (type === "date") return `${turtleString(String(value))}^^xsd:dateTime`;
  return turtleString(String(value));
}

function propertyShape(extra: Extra, order: number, key: string, indent: string): string[] {
  const inner = `${indent}  `;
  const lines = [`${inner}sh:name ${turtleString(key)} ;`, `${inner}sh:order ${order} ;`];
  if (extra.term) lines.push(`${inner}sh:path <${extra.term}> ;`);
  if (extra.description) lines.push(`${inner}sh:description ${turtleString(extra.description)} ;`);
  const validation = extra.validation ?? {};
  if (extra.type === "dict" || extra.type === "list") {
    const children = nested(extra);
    lines.push(`${inner}sh:node [`, `${inner}  a sh:NodeShape ;`);
    lines.push(...propertyList(children, extra.type === "list", `${inner}  `));
    lines.push(`${inner}] ;`);
  } else {
    const datatype = validation.iri ? "xsd:anyURI" : XSD_TYPES[extra.type] ?? "xsd:string";
    lines.push(`${inner}sh:datatype ${datatype} ;`, `${inner}sh:maxCount 1 ;`);
    if (extra.value !== null && extra.value !== undefined) {
      lines.push(`${inner}sh:defaultValue ${literal(extra.type, extra.value)} ;`);
    }
    if (validation.required) lines.push(`${inner}sh:minCount 1 ;`);
    if (validation.options?.length) {
      const items = validation.options.map((o) => literal(extra.type, o)).join(" ");
      lines.push(`${inner}sh:in ( ${items} ) ;`);
    }
    const range = validation.range;
    if (range?.min !== null && range?.min !== undefined) {
      lines.push(`${inner}sh:minInclusive ${literal(extra.type, range.min)} ;`);
    }
    if (range?.max !== null && range?.max !== undefined) {
      lines.push(`${inner}sh:maxInclusive ${literal(extra.type, range.max)} ;`);
    }
  }
  return lines;
}

/** `sh:property [...]` lines of a level; list items are named by their index. */
function propertyList(extras: Extra[], inList: boolean, indent: string): string[] {
  const lines: string[] = [];
  extras.forEach((extra, i) => {
    const key = inList ? String(i) : extra.key ?? String(i);
    lines.push(`${indent}sh:property [`, ...propertyShape(extra, i, key, indent), `${indent}] ;`);
  });
  return lines;
}

/**
 * The SHACL shape of a template, as Turtle.
 *
 * @param ctx Request context (the shape's IRI).
 * @param t The template.
 * @returns Turtle text.
 */
export function templateShacl(ctx: Ctx, t: TemplateData): string {
  const lines = [
    "@prefix dcterms: <http://purl.org/dc/terms/> .",
    "@prefix sh: <http://www.w3.org/ns/shacl#> .",
    "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
    "",
    `<${ctx.base}/templates/${t.id}> a sh:NodeShape ;`,
    `  dcterms:identifier ${turtleString(t.identifier)} ;`,
    `  dcterms:title ${turtleString(t.title)} ;`,
    `  dcterms:description ${turtleString(t.description)} ;`,
    ...propertyList(templateExtras(t), false, "  "),
  ];
  lines[lines.length - 1] = lines[lines.length - 1]!.replace(/ ;$/, " .");
  return `${lines.join("\n")}\n`;
}

function exportTemplate(ctx: Ctx): Response {
  const t = loadActive<TemplateData>(ctx, "template", "id", "read", "template.read");
  const type = ctx.params.type!;
  const ext = (EXPORT_TYPES.template as Record<string, string>)[type];
  if (ext === undefined) throw notFound();
  const name = `${t.identifier}.${ext}`;
  if (type === "shacl") return download(templateShacl(ctx, t), name);
  if (type === "json-schema") return download(JSON.stringify(templateJsonSchema(t), null, 2), name);
  const json = exportJson(templateJson(ctx, t), RESOURCE_OMITTED, parseFilter(ctx));
  return download(JSON.stringify(json, null, 2), name);
}

/** Template export routes. */
export const templateExportRoutes: Route[] = [
  route("GET", "/templates/:id/export/:type:str", exportTemplate),
];
