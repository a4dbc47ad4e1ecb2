// Local `$ref` resolution for the JSON Schema importer: JSON pointers (`#/$defs/a`, `#/definitions/a`,
// `#`), plain-name anchors (`#name` via `$anchor` or a draft-07 `$id: "#name"`) and references
// through the root's own `$id`. Anything else is a remote reference: refused, never fetched.

import { InputError } from "../errors.ts";
import type { JsonValue } from "../convert/parse_json.ts";

/** A schema object: the parsed JSON object, keys in document order. */
export type Schema = Map<string, JsonValue>;

/** Resolves the references of one schema document. */
export interface RefResolver {
  /** The schema a `$ref` value points to. */
  resolve(ref: string, at: string): Schema;
}

function decodePointerPart(part: string): string {
  return decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~");
}

function findAnchor(node: JsonValue, name: string, depth = 0): Schema | undefined {
  if (depth > 200) return undefined;
  if (node instanceof Map) {
    if (node.get("$anchor") === name || node.get("$id") === `#${name}`) return node;
    for (const child of node.values()) {
      const found = findAnchor(child, name, depth + 1);
      if (found !== undefined) return found;
    }
  } else if (Array.isArray(node)) {
    for (const child of node) {
      const found = findAnchor(child, name, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Makes a resolver for the document `root`.
 */
export function refResolver(root: Schema): RefResolver {
  const rootId = typeof root.get("$id") === "string"
    ? (root.get("$id") as string).replace(/#$/, "")
    : undefined;
  return {
    resolve(ref: string, at: string): Schema {
      let fragment: string | undefined;
      if (ref.startsWith("#")) fragment = ref.slice(1);
      else if (rootId !== undefined && rootId !== "" && ref.startsWith(`${rootId}#`)) {
        fragment = ref.slice(rootId.length + 1);
      } else if (rootId !== undefined && ref === rootId) fragment = "";
      if (fragment === undefined) {
        throw new InputError(
          `The schema refers to another document ($ref '${ref}' at ${at}), which is never ` +
            "fetched: copy the referenced definitions into this file (under $defs) and refer " +
            "to them with '#/$defs/…'",
        );
      }
      let target: JsonValue | undefined = root;
      if (fragment !== "" && !fragment.startsWith("/")) {
        target = findAnchor(root, decodeURIComponent(fragment));
      } else if (fragment !== "") {
        for (const part of fragment.slice(1).split("/").map(decodePointerPart)) {
          if (target instanceof Map) target = target.get(part);
          else if (Array.isArray(target) && /^\d+$/.test(part)) target = target[Number(part)];
          else target = undefined;
          if (target === undefined) break;
        }
      }
      if (!(target instanceof Map)) {
        throw new InputError(
          `The schema's $ref '${ref}' at ${at} points to nothing (or not to a schema object): ` +
            "fix the reference",
        );
      }
      return target;
    },
  };
}
