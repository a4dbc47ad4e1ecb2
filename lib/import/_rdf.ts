// A small read-only RDF graph for the SHACL importer: parsed with n3 (Turtle, TriG, N-Triples,
// N-Quads, N3), indexed by subject, predicates and objects in document order.

import { InputError } from "../errors.ts";
// The parser module alone: n3's index also loads its stream classes, whose `readable-stream`
// dependency reads an environment variable when imported.
import * as n3Parser from "n3/lib/N3Parser.js";

/** An RDF term as n3 gives it. */
export interface Term {
  termType: "NamedNode" | "BlankNode" | "Literal" | "Variable" | "DefaultGraph" | "Quad";
  value: string;
  language?: string;
  datatype?: { value: string };
}

interface Quad {
  subject: Term;
  predicate: Term;
  object: Term;
}

interface ParserOptions {
  format?: string;
  baseIRI?: string;
}

type ParserClass = new (options?: ParserOptions) => { parse(text: string): Quad[] };

/** The exact n3 release whose private parser path and export shape this module relies on. */
export const N3_VERSION = "2.13.12";

/**
 * n3's parser class from its private module, which Deno's CommonJS interop hands over as
 * `default.default`. The version is pinned exactly in deno.json; an upgrade that moves the class
 * fails here, when the module loads, with the cause named (tests/import/n3_pin_test.ts).
 *
 * @param module The namespace of `n3/lib/N3Parser.js`.
 */
export function n3ParserClass(module: unknown): ParserClass {
  const outer = (module as { default?: unknown } | null)?.default;
  const inner = (outer as { default?: unknown } | null | undefined)?.default;
  if (typeof inner !== "function") {
    throw new Error(
      `n3 ${N3_VERSION} exported its Parser as default.default of n3/lib/N3Parser.js; this n3 does not: ` +
        "update lib/import/_rdf.ts to the new n3 layout",
    );
  }
  return inner as ParserClass;
}

const Parser = n3ParserClass(n3Parser);

export const RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
export const SH = "http://www.w3.org/ns/shacl#";
export const XSD = "http://www.w3.org/2001/XMLSchema#";

/** The syntax of a file, from its extension. */
const FORMATS: { [extension: string]: string | undefined } = {
  ttl: "text/turtle",
  turtle: "text/turtle",
  nt: "application/n-triples",
  nq: "application/n-quads",
  trig: "application/trig",
  n3: "text/n3",
};
const UNSUPPORTED = new Set(["jsonld", "json", "rdf", "xml", "owl", "rj", "trix"]);

/** Key of a term in the index. */
export function termKey(term: Term): string {
  return term.termType === "BlankNode" ? `_:${term.value}` : term.value;
}

/** A parsed graph. */
export interface Graph {
  /** Objects of `predicate` on `subject`, in document order. */
  objects(subject: Term, predicate: string): Term[];
  /** Subjects that have `predicate` `object`, in document order. */
  subjects(predicate: string, object: string): Term[];
  /** The members of an RDF list, at most `max` (a broken list ends early). */
  list(head: Term, max: number): Term[];
}

/**
 * Parses RDF text; the syntax comes from the file name's extension (Turtle when unknown).
 *
 * @throws {InputError} For a syntax error or an RDF syntax the parser does not read.
 */
export function parseGraph(text: string, fileName: string): Graph {
  const extension = fileName.split(".").pop()?.toLowerCase() ?? "";
  if (UNSUPPORTED.has(extension)) {
    throw new InputError(
      `Cannot read '${fileName}': only Turtle, TriG, N-Triples, N-Quads and N3 are read; ` +
        "convert the shapes to Turtle (.ttl) first",
    );
  }
  let quads: Quad[];
  try {
    quads = new Parser({ format: FORMATS[extension] ?? "text/turtle" }).parse(text);
  } catch (error) {
    throw new InputError(
      `'${fileName}' is not valid RDF: ${error instanceof Error ? error.message : error}`,
    );
  }
  const bySubject = new Map<string, Map<string, Term[]>>();
  const byObject = new Map<string, Term[]>();
  for (const { subject, predicate, object } of quads) {
    const key = termKey(subject);
    let predicates = bySubject.get(key);
    if (predicates === undefined) bySubject.set(key, predicates = new Map());
    const objects = predicates.get(predicate.value) ?? [];
    objects.push(object);
    predicates.set(predicate.value, objects);
    const objectKey = `${predicate.value} ${termKey(object)}`;
    const subjects = byObject.get(objectKey) ?? [];
    subjects.push(subject);
    byObject.set(objectKey, subjects);
  }
  const objects = (subject: Term, predicate: string) =>
    bySubject.get(termKey(subject))?.get(predicate) ?? [];
  return {
    objects,
    subjects: (predicate, object) => byObject.get(`${predicate} ${object}`) ?? [],
    list(head, max) {
      const members: Term[] = [];
      const seen = new Set<string>();
      let node: Term | undefined = head;
      while (node !== undefined && node.value !== `${RDF}nil` && !seen.has(termKey(node))) {
        seen.add(termKey(node));
        const first = objects(node, `${RDF}first`)[0];
        if (first === undefined || members.length >= max) break;
        members.push(first);
        node = objects(node, `${RDF}rest`)[0];
      }
      return members;
    },
  };
}
