/**
 * What the pure template converters produce: the fields of a new template, ready to send.
 *
 * @example Usage
 * ```ts
 * import { templateData, type TemplateDraft } from "./template_draft.ts";
 * const draft: TemplateDraft = {
 *   title: "Sample",
 *   description: "",
 *   extras: [{ key: "mass", type: "float", value: null, unit: "g" }],
 * };
 * console.log(templateData(draft, "record")); // { extras: [{ key: "mass", type: "float", value: null, unit: "g" }] }
 * ```
 *
 * @module
 */

import { InputError } from "../http/errors.ts";
import type { Extra } from "../http/protocol.ts";

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
 * @param draft The converted template.
 * @param kind `extras` or `record`.
 * @returns The `data` field to send.
 * @throws {InputError} For another kind.
 */
export function templateData(draft: TemplateDraft, kind: TemplateKind): Extra[] | {
  extras: Extra[];
} {
  if (kind === "extras") return draft.extras;
  if (kind === "record") return { extras: draft.extras };
  throw new InputError(`Template type '${kind}' does not exist: use extras or record`);
}
