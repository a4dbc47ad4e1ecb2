/**
 * Validation of a template's `data`: an extras array for `extras` templates, a record blueprint
 * for `record` templates (record fields plus `collections`, `record_links` and `roles`).
 *
 * @module
 */
import { isObject } from "./_context.ts";
import { HttpError } from "./_errors.ts";
import { isIri, validateExtras } from "./_extras.ts";
import { validateResource } from "./_schema.ts";
import { ROLE_ACTIONS } from "./_context.ts";
import type { State } from "./_state.ts";

/** Template types. */
export const TEMPLATE_TYPES = ["record", "extras"] as const;

/** A template type. */
export type TemplateType = typeof TEMPLATE_TYPES[number];

type Errors = Record<string, unknown>;

function positiveInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1;
}

function listOf(
  value: unknown,
  check: (item: unknown) => { value?: unknown; errors?: Errors | string[] },
): { value: unknown[]; errors?: Errors | string[] } {
  if (value === undefined || value === null) return { value: [] };
  if (!Array.isArray(value)) return { value: [], errors: ["Not a valid list."] };
  const out: unknown[] = [];
  const errors: Errors = {};
  value.forEach((item, i) => {
    const result = check(item);
    if (result.errors) errors[String(i)] = result.errors;
    else out.push(result.value);
  });
  return Object.keys(errors).length > 0 ? { value: [], errors } : { value: out };
}

function recordLink(item: unknown): { value?: unknown; errors?: Errors | string[] } {
  if (!isObject(item)) return { errors: { _schema: ["Invalid input type."] } };
  const errors: Errors = {};
  const direction = item.direction ?? "out";
  if (direction !== "out" && direction !== "in") errors.direction = ["Must be one of: out, in."];
  if (!positiveInt(item.record)) errors.record = ["Must be greater than or equal to 1."];
  const name = typeof item.name === "string" ? item.name.trim() : "";
  if (name === "") errors.name = ["Missing data for required field."];
  else if (name.length > 150) errors.name = ["Longer than maximum length 150."];
  const term = item.term ?? null;
  if (term !== null && (typeof term !== "string" || !isIri(term) || term.length > 2048)) {
    errors.term = ["Not a valid IRI."];
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { value: { direction, record: item.record, name, term } };
}

function role(item: unknown): { value?: unknown; errors?: Errors | string[] } {
  if (!isObject(item)) return { errors: { _schema: ["Invalid input type."] } };
  const errors: Errors = {};
  const type = item.subject_type;
  if (type !== "user" && type !== "group") errors.subject_type = ["Must be one of: user, group."];
  if (!positiveInt(item.subject_id)) errors.subject_id = ["Must be greater than or equal to 1."];
  const names = Object.keys(ROLE_ACTIONS.record);
  const name = item.role ?? null;
  if (name !== null && (typeof name !== "string" || !names.includes(name))) {
    errors.role = [`Must be one of: ${names.join(", ")}.`];
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { value: { subject_type: type, subject_id: item.subject_id, role: name } };
}

function recordData(state: State, value: unknown): { value?: unknown; errors?: unknown } {
  if (!isObject(value)) return { errors: { _schema: ["Invalid input type."] } };
  let errors: Errors = {};
  let input: Record<string, unknown> = {};
  try {
    input = {
      ...validateResource(state, "record", value, {
        partial: true,
        template: true,
        fields: ["type", "license", "tags", "extras"],
      }),
    };
  } catch (error) {
    if (!(error instanceof HttpError) || !isObject(error.extra.errors)) throw error;
    errors = { ...error.extra.errors };
  }
  const collections = listOf(
    value.collections,
    (id) => positiveInt(id) ? { value: id } : { errors: ["Must be greater than or equal to 1."] },
  );
  if (collections.errors) errors.collections = collections.errors;
  const links = listOf(value.record_links, recordLink);
  if (links.errors) errors.record_links = links.errors;
  const roles = listOf(value.roles, role);
  if (roles.errors) errors.roles = roles.errors;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    value: {
      identifier: input.identifier ?? "",
      title: input.title ?? "",
      description: input.description ?? "",
      type: input.type ?? null,
      license: input.license ?? null,
      extras: input.extras ?? [],
      tags: input.tags ?? [],
      collections: collections.value,
      record_links: links.value,
      roles: roles.value,
    },
  };
}

/**
 * Validates a template's `type` (on create) and adds its messages to `errors`.
 *
 * @param value The `type` input.
 * @param errors The message tree to add to.
 * @returns The type, or undefined when invalid.
 */
export function checkTemplateType(value: unknown, errors: Errors): TemplateType | undefined {
  if (value === undefined) errors.type = ["Missing data for required field."];
  else if (typeof value !== "string" || !(TEMPLATE_TYPES as readonly string[]).includes(value)) {
    errors.type = [`Must be one of: ${TEMPLATE_TYPES.join(", ")}.`];
  } else return value as TemplateType;
  return undefined;
}

/**
 * Validates a template's `data` for its type (template mode: required extras may stay empty).
 *
 * @param state Server state (license check).
 * @param value The `data` input.
 * @returns The cleaned data, or the messages under `data`.
 */
export function validateTemplateData(
  state: State,
  type: TemplateType,
  value: unknown,
): { value?: unknown; errors?: unknown } {
  if (type === "record") return recordData(state, value);
  const result = validateExtras(value, false, false);
  return result.errors ? { errors: result.errors } : { value: result.extras };
}
