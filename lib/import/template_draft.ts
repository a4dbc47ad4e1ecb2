/**
 * What the pure template converters produce: the fields of a new template, ready to send.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import type { Extra } from "../http/protocol.ts";

/**
 * Most options (`enum` of a JSON Schema, `sh:in` of a SHACL shape) one field of an imported
 * template may have. A longer list is refused, never cut: a selection list that long helps no
 * one, and sending it whole makes the server slow to answer.
 */
export const MAX_FIELD_OPTIONS = 10_000;

/**
 * Refuses a field with more than {@linkcode MAX_FIELD_OPTIONS} options.
 *
 * @example Usage
 * ```ts
 * import { checkFieldOptions } from "./template_draft.ts";
 * checkFieldOptions(3, "enum", "#/properties/color"); // fine
 * ```
 *
 * @param count How many options the field has (at least; counting may stop past the limit).
 * @param keyword `enum` or `sh:in`.
 * @param at Where the field is, for the message.
 * @throws {InputError} When `count` exceeds the limit.
 */
export function checkFieldOptions(count: number, keyword: string, at: string): void {
  if (count <= MAX_FIELD_OPTIONS) return;
  throw new InputError(
    `The field at ${at} has more than ${MAX_FIELD_OPTIONS} options (${keyword}): too many for a ` +
      "template's selection list; no template was created. Shorten the list, or describe the " +
      "values in the field's description",
  );
}

/** The two kinds of template the repository has. */
export type TemplateKind = "extras" | "record";

/** A converted template before it is created. */
export interface TemplateDraft {
  /** Template title (from the file, else the file name without extension). */
  title: string;
  /** Template description (may be empty). */
  description: string;
  /** The template's extra metadata, in order. */
  extras: Extra[];
}

/**
 * The `data` of a template of the given kind: the extras array for an `extras` template,
 * `{ extras }` for a `record` template.
 *
 * @example Usage
 * ```ts
 * import { templateData } from "./template_draft.ts";
 * console.log(templateData({ title: "t", description: "", extras: [] }, "extras")); // []
 * ```
 *
 * @throws {InputError} For another kind.
 */
export function templateData(draft: TemplateDraft, kind: TemplateKind): Extra[] | {
  extras: Extra[];
} {
  if (kind === "extras") return draft.extras;
  if (kind === "record") return { extras: draft.extras };
  throw new InputError(`Template type '${kind}' does not exist: use extras or record`);
}
