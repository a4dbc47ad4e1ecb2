/**
 * Input validation of resource fields (identifier, title, description, visibility, type, license,
 * tags, extras) with the server's messages. Unknown and read-only fields are dropped.
 *
 * @module
 */
import { IDENTIFIER_MAX_LENGTH } from "../http/protocol.ts";
import { validationError } from "./_errors.ts";
import { normalize, validateExtras } from "./_extras.ts";
import type { Extra } from "../http/protocol.ts";
import type { Kind, State } from "./_state.ts";

/** Licenses the server knows, as `{name, title, url}`. */
export const LICENSES: readonly { name: string; title: string; url: string }[] = [
  {
    name: "Apache-2.0",
    title: "Apache Software License 2.0",
    url: "https://opensource.org/licenses/Apache-2.0",
  },
  {
    name: "BSD-3-Clause",
    title: "BSD 3-Clause License",
    url: "https://opensource.org/licenses/BSD-3-Clause",
  },
  {
    name: "CC-BY-4.0",
    title: "Creative Commons Attribution 4.0",
    url: "https://creativecommons.org/licenses/by/4.0/",
  },
  {
    name: "CC-BY-SA-4.0",
    title: "Creative Commons Attribution Share-Alike 4.0",
    url: "https://creativecommons.org/licenses/by-sa/4.0/",
  },
  {
    name: "CC0-1.0",
    title: "CC0 1.0",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
  },
  {
    name: "GPL-3.0",
    title: "GNU General Public License version 3.0",
    url: "https://opensource.org/licenses/GPL-3.0",
  },
  { name: "MIT", title: "MIT License", url: "https://opensource.org/licenses/MIT" },
  {
    name: "ODC-BY-1.0",
    title: "Open Data Commons Attribution License 1.0",
    url: "https://opendatacommons.org/licenses/by/",
  },
];

/** Cleaned resource input. */
export interface ResourceInput {
  identifier?: string;
  title?: string;
  description?: string;
  visibility?: "private" | "public";
  type?: string | null;
  license?: string | null;
  tags?: string[];
  extras?: Extra[];
}

/** Options of {@linkcode validateResource}. */
export interface ValidateOptions {
  /** PATCH: nothing is required. */
  partial: boolean;
  /** ID of the resource being updated (excluded from the uniqueness check). */
  selfId?: number;
  /** Which optional fields this kind accepts beyond the base fields. */
  fields: readonly ("type" | "license" | "tags" | "extras")[];
  /**
   * The `data` of a record template: identifier and title may be empty, identifiers need not be
   * unique, and `validation.required` of extras is not enforced.
   */
  template?: boolean;
  /** Checks of fields only one kind has (templates); adds its messages to `errors`. */
  more?: (body: Record<string, unknown>, errors: Record<string, unknown>) => void;
}

function str(
  body: Record<string, unknown>,
  name: string,
  errors: Record<string, unknown>,
  opts: { required: boolean; max: number; allowEmpty?: boolean; nullable?: boolean },
): string | null | undefined {
  const value = body[name];
  if (value === undefined) {
    if (opts.required) errors[name] = ["Missing data for required field."];
    return undefined;
  }
  if (value === null) {
    if (opts.nullable) return null;
    errors[name] = ["Field may not be null."];
    return undefined;
  }
  if (typeof value !== "string") {
    errors[name] = ["Not a valid string."];
    return undefined;
  }
  if (!opts.allowEmpty && value.trim() === "") {
    errors[name] = ["String must not be empty."];
    return undefined;
  }
  if (value.length > opts.max) {
    errors[name] = [`Longer than maximum length ${opts.max}.`];
    return undefined;
  }
  return value;
}

/**
 * Validates resource input; throws 400 with `errors` when invalid.
 *
 * @param state Server state (uniqueness and license checks).
 */
export function validateResource(
  state: State,
  kind: Kind,
  body: Record<string, unknown>,
  options: ValidateOptions,
): ResourceInput {
  const errors: Record<string, unknown> = {};
  const out: ResourceInput = {};
  const required = !options.partial;
  const template = options.template === true;
  const identifier = str(body, "identifier", errors, { required, max: 1000, allowEmpty: template });
  if (typeof identifier === "string") {
    const clean = identifier.trim().toLowerCase();
    if (template && clean === "") out.identifier = "";
    else if (clean.length > IDENTIFIER_MAX_LENGTH) {
      errors.identifier = [`Longer than maximum length ${IDENTIFIER_MAX_LENGTH}.`];
    } else if (!/^[a-z0-9-_]+$/.test(clean)) {
      errors.identifier = ["String does not match expected pattern."];
    } else if (
      !template &&
      [...state.resources(kind).values()].some((r) =>
        r.identifier === clean && r.id !== options.selfId
      )
    ) {
      errors.identifier = ["Identifier is already in use."];
    } else out.identifier = clean;
  }
  const title = str(body, "title", errors, { required, max: 150, allowEmpty: template });
  if (typeof title === "string") out.title = normalize(title);
  const description = str(body, "description", errors, {
    required: false,
    max: 50_000,
    allowEmpty: true,
  });
  if (typeof description === "string") out.description = description.trim();
  if (body.visibility !== undefined) {
    const v = typeof body.visibility === "string" ? body.visibility.trim().toLowerCase() : null;
    if (v === "private" || v === "public") out.visibility = v;
    else errors.visibility = ["Must be one of: private, public."];
  }
  if (options.fields.includes("type")) {
    const type = str(body, "type", errors, { required: false, max: 50, nullable: true });
    if (type !== undefined) out.type = type === null ? null : normalize(type).toLowerCase();
  }
  if (options.fields.includes("license") && body.license !== undefined) {
    if (body.license === null) out.license = null;
    else if (typeof body.license !== "string") errors.license = ["Not a valid string."];
    else if (!LICENSES.some((l) => l.name === body.license)) {
      errors.license = ["No license with this name exists."];
    } else out.license = body.license;
  }
  if (options.fields.includes("tags") && body.tags !== undefined) {
    const tags = cleanTags(body.tags);
    if (Array.isArray(tags)) out.tags = tags;
    else errors.tags = tags.errors;
  }
  if (options.fields.includes("extras") && body.extras !== undefined) {
    const result = validateExtras(body.extras, false, !template);
    if (result.errors) errors.extras = result.errors;
    else out.extras = result.extras;
  }
  options.more?.(body, errors);
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return out;
}

/**
 * Normalizes tags: lowercased, whitespace-normalized, de-duplicated, sorted.
 *
 * @returns Sorted tags, or a message tree.
 */
export function cleanTags(value: unknown): string[] | { errors: unknown } {
  if (!Array.isArray(value)) return { errors: ["Not a valid list."] };
  const errors: Record<string, string[]> = {};
  const tags = new Set<string>();
  value.forEach((tag, i) => {
    if (typeof tag !== "string") errors[String(i)] = ["Not a valid string."];
    else if (normalize(tag) === "") errors[String(i)] = ["String must not be empty."];
    else if (normalize(tag).length > 50) errors[String(i)] = ["Longer than maximum length 50."];
    else tags.add(normalize(tag).toLowerCase());
  });
  if (Object.keys(errors).length > 0) return { errors };
  return [...tags].sort();
}
