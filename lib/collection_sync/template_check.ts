/**
 * Checking a record's extras against a template's before anything is sent: each entry of the
 * template must be there with the template's type when the template requires it, and values
 * must keep to the template's options and range. Keys the template does not name are allowed,
 * as the server allows them.
 *
 * @example Usage
 * ```ts
 * import { checkTemplateExtras } from "./template_check.ts";
 * const template = [{ key: "temperature", type: "float" as const, validation: { required: true } }];
 * const problems = checkTemplateExtras([{ key: "temperature", type: "str", value: "hot" }], template);
 * console.log(problems[0]?.reason); // "is str, the template says float"
 * ```
 *
 * @module
 */

import type { Extra, TemplateJson } from "../http/protocol.ts";
import { InputError } from "../errors.ts";

/** One way a record's extras differ from the template's. */
export interface TemplateProblem {
  /** The entry's key path, dotted (`conditions.temperature`; list entries by 1-based index). */
  key: string;
  /** What is wrong, in the user's terms. */
  reason: string;
}

/**
 * The extras a template prescribes: a record template's `data.extras`, an extras template's
 * `data`.
 *
 * @throws {InputError} When the template holds no extras list.
 */
export function templateExtras(template: TemplateJson): Extra[] {
  const data: unknown = template.data;
  const extras = Array.isArray(data)
    ? data
    : typeof data === "object" && data !== null
    ? (data as { extras?: unknown }).extras ?? []
    : undefined;
  if (!Array.isArray(extras)) {
    throw new InputError(
      `The template '${template.identifier}' holds no list of extras: give a record or extras template`,
    );
  }
  return extras as Extra[];
}

function show(value: unknown): string {
  return typeof value === "string" ? `'${value}'` : JSON.stringify(value);
}

/**
 * The problems of a record's extras measured against a template's (empty when they fit).
 *
 * @param prefix The key path above these entries.
 * @returns Every problem, in the template's order.
 */
export function checkTemplateExtras(
  extras: readonly Extra[],
  template: readonly Extra[],
  prefix = "",
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  template.forEach((wanted, index) => {
    const name = wanted.key ?? String(index + 1);
    const key = prefix === "" ? name : `${prefix}.${name}`;
    const found = wanted.key === undefined
      ? extras[index]
      : extras.find((extra) => extra.key?.trim() === wanted.key?.trim());
    const required = wanted.validation?.required === true;
    if (found === undefined) {
      if (required) problems.push({ key, reason: "is missing; the template requires it" });
      return;
    }
    if (found.type !== wanted.type) {
      problems.push({ key, reason: `is ${found.type}, the template says ${wanted.type}` });
      return;
    }
    if (wanted.type === "dict" || wanted.type === "list") {
      problems.push(
        ...checkTemplateExtras(
          Array.isArray(found.value) ? found.value as Extra[] : [],
          Array.isArray(wanted.value) ? wanted.value as Extra[] : [],
          key,
        ),
      );
      return;
    }
    const value = found.value;
    if (value === undefined || value === null || value === "") {
      if (required) problems.push({ key, reason: "has no value; the template requires one" });
      return;
    }
    const options = wanted.validation?.options;
    if (Array.isArray(options) && options.length > 0 && !options.includes(value)) {
      problems.push({
        key,
        reason: `${show(value)} is not one of the template's options ${
          options.map(show).join(", ")
        }`,
      });
    }
    const range = wanted.validation?.range;
    if (range && typeof value === "number") {
      if (typeof range.min === "number" && value < range.min) {
        problems.push({ key, reason: `${value} is below the template's minimum ${range.min}` });
      }
      if (typeof range.max === "number" && value > range.max) {
        problems.push({ key, reason: `${value} is above the template's maximum ${range.max}` });
      }
    }
  });
  return problems;
}
