// The RO-Crate metadata as an index of nodes: flattened graphs (references by `@id`) and nested
// ones (inline objects) alike, duplicate `@id`s merged (first value wins), `@type` as a string or
// an array, the descriptor under `ro-crate-metadata.json` or `./ro-crate-metadata.json`.

import { InputError } from "../../errors.ts";

/** A JSON-LD node. */
export type CrateNode = { readonly [key: string]: unknown };

/** The JSON text of the numbers of each parsed object, by key (`100.0` stays a float). */
const numberTexts = new WeakMap<object, Map<string, string>>();

function rememberNumberText(
  this: unknown,
  key: string,
  value: unknown,
  context?: { source?: string },
): unknown {
  if (
    typeof value === "number" && context?.source !== undefined && typeof this === "object" &&
    this !== null
  ) {
    const texts = numberTexts.get(this) ?? new Map<string, string>();
    texts.set(key, context.source);
    numberTexts.set(this, texts);
  }
  return value;
}

/**
 * The JSON text of a number in a crate node (`"100.0"`, `"1e3"`, `"9007199254740993"`), which
 * tells a float from an integer and keeps the digits of a big integer.
 */
export function numberText(node: CrateNode, key: string): string | undefined {
  return numberTexts.get(node)?.get(key);
}

/** The parsed crate. */
export interface Crate {
  /** The root dataset `./`. */
  readonly root: CrateNode;
  /** The metadata descriptor, when present. */
  readonly descriptor: CrateNode | undefined;
  /** The name of the descriptor's `sdPublisher` (inline or referenced), when given. */
  readonly publisherName: string | undefined;
  /** Notes on oddities met while reading (duplicate ids). */
  readonly warnings: readonly string[];
  /** A node by `@id` (with or without `./` and a trailing `/`). */
  node(id: string): CrateNode | undefined;
  /** A reference (`{"@id"}` or id string) or inline object, resolved to its node. */
  resolve(value: unknown): CrateNode | undefined;
}

const MAX_DEPTH = 64;

/**
 * Deepest nesting of arrays and objects read in the metadata file at all (`@context` included).
 * Reading numbers with their text recurses once per level, so a deeper file is refused for its
 * depth before it is parsed, not with an engine error taken for invalid JSON.
 */
const MAX_JSON_DEPTH = 1000;

/** Whether the JSON text nests arrays and objects deeper than `limit` (strings skipped). */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth--;
  }
  return false;
}

/**
 * Parses the text of `ro-crate-metadata.json`.
 *
 * @throws {InputError} For invalid JSON, JSON nested deeper than 1000 levels, a legacy layout without `@context`/`@graph`, or a graph
 * without the root dataset.
 */
export function parseCrate(text: string): Crate {
  let json: unknown;
  if (nestsDeeper(text, MAX_JSON_DEPTH)) {
    throw invalid(
      `it nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels, more than this importer ` +
        "reads (an RO-Crate needs a few)",
    );
  }
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""), rememberNumberText);
  } catch (error) {
    throw invalid(`it is not valid JSON (${error instanceof Error ? error.message : error})`);
  }
  if (!isNode(json)) throw invalid("it is not a JSON object");
  if (!("@context" in json)) {
    throw invalid("it has no '@context' (a pre-specification .eln prototype, not supported)");
  }
  const graph = json["@graph"];
  if (!Array.isArray(graph) || graph.length === 0) {
    throw invalid("it has no '@graph' list (a pre-specification .eln prototype, not supported)");
  }
  const index = new Map<string, CrateNode>();
  const duplicates = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > MAX_DEPTH) throw invalid(`it is nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    if (!isNode(value)) return;
    const id = value["@id"];
    if (typeof id === "string" && Object.keys(value).length > 1) {
      const known = index.get(id);
      if (known === undefined) index.set(id, value);
      else if (known !== value) {
        duplicates.add(id);
        index.set(id, { ...value, ...known });
      }
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== "@context" && typeof child === "object" && child !== null) {
        visit(child, depth + 1);
      }
    }
  };
  visit(graph, 0);

  const node = (id: string): CrateNode | undefined => {
    for (const candidate of idVariants(id)) {
      const found = index.get(candidate);
      if (found) return found;
    }
    return undefined;
  };
  const resolve = (value: unknown): CrateNode | undefined => {
    if (typeof value === "string") return node(value);
    if (!isNode(value)) return undefined;
    const id = value["@id"];
    return typeof id === "string" ? node(id) ?? value : value;
  };
  const descriptor = node("ro-crate-metadata.json");
  const aboutId = descriptor && isNode(descriptor.about) ? descriptor.about["@id"] : undefined;
  const root = node("./") ?? (typeof aboutId === "string" ? node(aboutId) : undefined);
  if (root === undefined) throw invalid("the root dataset './' is missing");
  const publisher = resolve(descriptor?.sdPublisher);
  const warnings = duplicates.size === 0 ? [] : [
    `The metadata lists ${duplicates.size} @id(s) more than once (${
      [...duplicates].slice(0, 3).join(", ")
    }${duplicates.size > 3 ? ", …" : ""}): their properties were merged, the first value kept`,
  ];
  return {
    root,
    descriptor,
    publisherName: typeof publisher?.name === "string" ? publisher.name : undefined,
    warnings,
    node,
    resolve,
  };
}

/** Whether a node's `@type` (string or array) includes `type`. */
export function hasType(node: CrateNode, type: string): boolean {
  const types = node["@type"];
  return types === type || (Array.isArray(types) && types.includes(type));
}

/** A property as a list (a single value becomes a list of one; missing becomes empty). */
export function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A non-empty string property, or `undefined`. */
export function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** Whether a value is a JSON object. */
export function isNode(value: unknown): value is CrateNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function idVariants(id: string): string[] {
  const bare = id.replace(/^\.\//, "").replace(/\/+$/, "");
  if (id === "./" || bare === "" || bare === ".") return [id, "./"];
  return [id, bare, `${bare}/`, `./${bare}`, `./${bare}/`];
}

function invalid(reason: string): InputError {
  return new InputError(`Invalid content in the metadata file (ro-crate-metadata.json): ${reason}`);
}
