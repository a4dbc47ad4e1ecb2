/**
 * SHACL shapes → template, as a pure function (client-reference §5.3, spec rule 9).
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
import { type Graph, parseGraph, RDF, SH, type Term, termKey, XSD } from "./_rdf.ts";
import { fileStem } from "./_file_stem.ts";
import { checkFieldOptions, MAX_FIELD_OPTIONS, type TemplateDraft } from "./template_draft.ts";

/** Options of {@link shaclToTemplate}. */
export interface ShaclToTemplateOptions {
  /** File name: its extension picks the RDF syntax, its stem is the fallback title. @default {"shapes.ttl"} */
  fileName?: string;
  /** Most extras one file may produce. @default {10000} */
  maxExtras?: number;
  /** Deepest nesting of shapes. @default {64} */
  maxDepth?: number;
}

const DCTERMS = "http://purl.org/dc/terms/";
const RDFS = "http://www.w3.org/2000/01/rdf-schema#";
const DATATYPES: { [datatype: string]: ExtraType } = {
  integer: "int",
  int: "int",
  float: "float",
  decimal: "float",
  double: "float",
  boolean: "bool",
  dateTime: "date",
};
const FORBIDDEN_IN_TERM = /[<>" {}|\\^`]/;

interface Walk {
  graph: Graph;
  count: number;
  maxExtras: number;
  maxDepth: number;
  /** IRI of the root shape: paths `<root#key>` are the export's own, not terms. */
  root: string;
}

/**
 * Converts SHACL shapes (Turtle, TriG, N-Triples, N-Quads or N3, by extension) to template
 * extras. The root is the `sh:NodeShape` no other shape refers to (`sh:node`,
 * `sh:qualifiedValueShape`); when several are, each becomes a `dict` of its own, in document
 * order. A shape gives first the extras of its `sh:node` shapes, then one extra per
 * `sh:property` sorted by `sh:order` (default 0; ties keep document order). An extra's key is its
 * `sh:name` (English preferred), else the local name of an IRI `sh:path` (`rdf:type` paths and
 * unnamed complex paths are skipped); `term` is the path IRI; `description` is `sh:description`.
 * `sh:qualifiedValueShape` (else `sh:node`) nests: a `list` when the first nested key is `0`,
 * else a `dict`. `sh:datatype` xsd:integer/int → `int`, float/decimal/double → `float`, boolean →
 * `bool`, dateTime → `date`, anything else → `str` (xsd:anyURI adds `validation.iri`);
 * `sh:defaultValue` → value, `sh:minCount` ≥ 1 → required, `sh:in` → options,
 * `sh:minInclusive`/`sh:maxInclusive` → range. Values that do not fit the type are dropped.
 *
 * @example Usage
 * ```ts
 * import { shaclToTemplate } from "./shacl_template.ts";
 * const draft = shaclToTemplate(`
 *   @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
 *   <https://example.org/t> a sh:NodeShape ; sh:property [
 *     sh:path <https://example.org/temperature> ; sh:name "T" ; sh:datatype xsd:integer ;
 *     sh:minInclusive 0 ; sh:in (1 2 3) ; sh:defaultValue 2 ] .
 * `);
 * console.log(draft.extras);
 * // [{ key: "T", type: "int", value: 2, term: "https://example.org/temperature",
 * //    validation: { options: [1, 2, 3], range: { min: 0, max: null } } }]
 * ```
 *
 * @returns The template's title, description and extras.
 * @throws {InputError} For invalid RDF, an unsupported syntax, no `sh:NodeShape`, recursive
 *   shapes (a shape that contains itself), or a file beyond the limits.
 */
export function shaclToTemplate(text: string, options: ShaclToTemplateOptions = {}): TemplateDraft {
  const { fileName = "shapes.ttl", maxExtras = 10_000, maxDepth = 64 } = options;
  const graph = parseGraph(text, fileName);
  const shapes = unique(graph.subjects(`${RDF}type`, `${SH}NodeShape`));
  const referenced = new Set<string>();
  for (const shape of shapes) {
    for (const property of graph.objects(shape, `${SH}property`)) {
      for (const predicate of ["qualifiedValueShape", "node"]) {
        for (const target of graph.objects(property, `${SH}${predicate}`)) {
          referenced.add(termKey(target));
        }
      }
    }
    for (const target of graph.objects(shape, `${SH}node`)) referenced.add(termKey(target));
  }
  const roots = shapes.filter((shape) => !referenced.has(termKey(shape)));
  const first = roots[0] ?? shapes[0];
  if (first === undefined) {
    throw new InputError(
      `sh:NodeShape at the root is missing: '${fileName}' has no SHACL node shape (a data ` +
        "graph or another kind of RDF cannot become a template)",
    );
  }
  const walk: Walk = { graph, count: 0, maxExtras, maxDepth, root: first.value };
  const title = text1(graph, first, `${DCTERMS}title`);
  const description = text1(graph, first, `${DCTERMS}description`);
  let extras: Extra[];
  if (roots.length <= 1) extras = shapeExtras(first, walk, new Set(), 1);
  else {
    const keys = new Set<string>();
    extras = roots.map((root) => {
      let key = text1(graph, root, `${SH}name`) ?? text1(graph, root, `${RDFS}label`) ??
        localName(root.value) ?? "shape";
      for (let n = 2; keys.has(key); n++) key = `${key}_${n}`;
      keys.add(key);
      return {
        key,
        type: "dict",
        value: shapeExtras(root, { ...walk, root: root.value }, new Set(), 2),
      };
    });
  }
  return {
    title: title ?? fileStem(fileName),
    description: description ?? "",
    extras,
  };
}

function unique(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((term) => !seen.has(termKey(term)) && seen.add(termKey(term)) !== undefined);
}

function localName(iri: string): string | undefined {
  const name = iri.replace(/[#/]+$/, "").split(/[#/]/).pop();
  return name === undefined || name === "" ? undefined : decodeURIComponent(name);
}

/** A literal's text, English preferred, then no language, then the first. */
function text1(graph: Graph, subject: Term, predicate: string): string | undefined {
  const literals = graph.objects(subject, predicate).filter((term) => term.termType === "Literal");
  const pick = literals.find((term) => term.language === "en") ??
    literals.find((term) => !term.language) ?? literals[0];
  return pick?.value;
}

function number1(graph: Graph, subject: Term, predicate: string): number | null {
  const term = graph.objects(subject, predicate).find((t) => t.termType === "Literal");
  if (term === undefined || term.value.trim() === "") return null;
  const value = Number(term.value);
  return Number.isFinite(value) ? value : null;
}

function shapeExtras(shape: Term, walk: Walk, visited: Set<string>, depth: number): Extra[] {
  if (depth > walk.maxDepth) {
    throw new InputError(`The shapes nest deeper than ${walk.maxDepth} levels`);
  }
  const key = termKey(shape);
  // `visited` holds the shapes on the path from the root: one seen again nests without end.
  if (visited.has(key)) {
    throw new InputError(
      `The shapes are recursive (the shape '${key}' contains itself through sh:node or ` +
        "sh:qualifiedValueShape): a template cannot nest without end; remove the cycle",
    );
  }
  const seen = new Set(visited).add(key);
  const { graph } = walk;
  const extras = graph.objects(shape, `${SH}node`).flatMap((node) =>
    shapeExtras(node, walk, seen, depth)
  );
  const properties = graph.objects(shape, `${SH}property`)
    .map((property, position) => ({
      property,
      position,
      order: number1(graph, property, `${SH}order`) ?? 0,
    }))
    .sort((a, b) => a.order - b.order || a.position - b.position);
  const keys = new Set(extras.map((extra) => extra.key));
  for (const { property } of properties) {
    const extra = propertyExtra(property, walk, seen, depth);
    if (extra === undefined || keys.has(extra.key)) continue;
    keys.add(extra.key);
    extras.push(extra);
  }
  return extras;
}

function propertyExtra(
  property: Term,
  walk: Walk,
  visited: Set<string>,
  depth: number,
): Extra | undefined {
  const { graph } = walk;
  const path = graph.objects(property, `${SH}path`)[0];
  const iriPath = path?.termType === "NamedNode" ? path.value : undefined;
  const name = text1(graph, property, `${SH}name`) ??
    (iriPath !== undefined && iriPath !== `${RDF}type` ? localName(iriPath) : undefined);
  if (name === undefined || name.trim() === "") return undefined;
  if (++walk.count > walk.maxExtras) {
    throw new InputError(`The shapes give more than ${walk.maxExtras} fields: too large`);
  }
  const extra: Extra = { key: name, type: "str", value: null };
  if (
    iriPath !== undefined && !iriPath.startsWith(`${walk.root}#`) &&
    !FORBIDDEN_IN_TERM.test(iriPath)
  ) extra.term = iriPath;
  const description = text1(graph, property, `${SH}description`);
  if (description !== undefined) extra.description = description;
  const nested = graph.objects(property, `${SH}qualifiedValueShape`)[0] ??
    graph.objects(property, `${SH}node`)[0];
  if (nested !== undefined) {
    const children = shapeExtras(nested, walk, visited, depth + 1);
    const isList = children[0]?.key === "0";
    return {
      ...extra,
      type: isList ? "list" : "dict",
      value: isList ? children.map(({ key: _key, ...child }) => child) : children,
    };
  }
  const datatype = graph.objects(property, `${SH}datatype`)[0]?.value ?? "";
  const type: ExtraType = datatype.startsWith(XSD)
    ? DATATYPES[datatype.slice(XSD.length)] ?? "str"
    : "str";
  extra.type = type;
  const fallback = graph.objects(property, `${SH}defaultValue`)[0];
  extra.value = fallback === undefined ? null : fit(type, fallback.value);
  const validation: ExtraValidation = {};
  if ((number1(graph, property, `${SH}minCount`) ?? 0) >= 1) validation.required = true;
  const options = graph.objects(property, `${SH}in`)[0];
  if (options !== undefined && ["str", "int", "float"].includes(type)) {
    // One more than the limit is enough to refuse it.
    const members = graph.list(options, MAX_FIELD_OPTIONS + 1);
    checkFieldOptions(members.length, "sh:in", `the property '${name}'`);
    const values = members.map((term) => fit(type, term.value)).filter((v) => v !== null);
    if (values.length > 0) validation.options = [...new Set(values)];
  }
  if (type === "int" || type === "float") {
    const min = number1(graph, property, `${SH}minInclusive`);
    const max = number1(graph, property, `${SH}maxInclusive`);
    if (min !== null || max !== null) validation.range = { min, max };
  }
  if (type === "str" && datatype === `${XSD}anyURI`) validation.iri = true;
  if (Object.keys(validation).length > 0) extra.validation = validation;
  return extra;
}

/** A literal's text as a value of the type, or null when it does not fit. */
function fit(type: ExtraType, text: string): string | number | boolean | null {
  if (type === "str") return text;
  if (type === "int") {
    if (!/^[+-]?\d+$/.test(text.trim())) return null;
    const value = Number(text);
    return value >= EXTRAS_MIN_INTEGER && value <= EXTRAS_MAX_INTEGER ? value : null;
  }
  if (type === "float") {
    const value = text.trim() === "" ? NaN : Number(text);
    return Number.isFinite(value) ? value : null;
  }
  if (type === "bool") {
    return text === "true" || text === "1" ? true : text === "false" || text === "0" ? false : null;
  }
  if (type === "date") return normalizeIsoDate(text) ?? null;
  return null;
}
