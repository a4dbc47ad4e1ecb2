/**
 * Validation and normalization of extra metadata (`extras`) with the server's messages.
 *
 * @module
 */
import {
  type Extra,
  EXTRA_TYPES,
  EXTRAS_DATE_PATTERN,
  EXTRAS_MAX_INTEGER,
  EXTRAS_MIN_INTEGER,
  type ExtraType,
} from "../http/protocol.ts";
import { isObject } from "./_context.ts";

type Errors = Record<string, unknown>;

/**
 * Whitespace-normalized text (trimmed, runs collapsed).
 */
export function normalize(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/**
 * Whether a string is acceptable as IRI (no whitespace or `<>"{}|\^` and backtick).
 */
export function isIri(text: string): boolean {
  return text.length > 0 && !/[<>"\s{}|\\^`]/.test(text);
}

/**
 * Parses an ISO 8601 date and renders it like Python's UTC `isoformat()`.
 *
 * @param text ISO 8601 text; without offset it counts as UTC.
 * @returns The normalized text, or null when invalid.
 */
export function normalizeDate(text: string): string | null {
  const m = EXTRAS_DATE_PATTERN.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", tz = "Z"] = m;
  const micros = Number(frac.slice(0, 6).padEnd(6, "0"));
  let offset = 0;
  if (tz.toUpperCase() !== "Z") {
    const sign = tz.startsWith("-") ? -1 : 1;
    const digits = tz.slice(1).replace(":", "");
    offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || "0"));
  }
  const parts = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (parts[1] < 1 || parts[1] > 12 || parts[2] < 1 || parts[3] > 23 || parts[4] > 59) return null;
  const ms = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]);
  const check = new Date(ms);
  if (check.getUTCDate() !== parts[2] || parts[5] > 59) return null;
  const date = new Date(ms - offset * 60_000);
  const iso = date.toISOString().slice(0, 19);
  const fraction = micros === 0 ? "" : `.${String(micros).padStart(6, "0")}`;
  return `${iso}${fraction}+00:00`;
}

function checkValue(type: ExtraType, value: unknown): { value?: unknown; error?: string[] } {
  if (value === null || value === undefined) return { value: null };
  switch (type) {
    case "str": {
      if (typeof value !== "string") return { error: ["Not a valid string."] };
      const stripped = value.trim();
      return { value: stripped === "" ? null : stripped };
    }
    case "int":
      if (typeof value !== "number" || !Number.isInteger(value)) {
        return { error: ["Not a valid integer."] };
      }
      if (value > EXTRAS_MAX_INTEGER || value < EXTRAS_MIN_INTEGER) {
        return {
          error: [
            `Integer values must be between ${EXTRAS_MIN_INTEGER} and ${EXTRAS_MAX_INTEGER}.`,
          ],
        };
      }
      return { value };
    case "float":
      if (typeof value !== "number") return { error: ["Not a valid number."] };
      if (!Number.isFinite(value)) {
        return { error: ["Special numeric values (nan or infinity) are not permitted."] };
      }
      return { value };
    case "bool":
      return typeof value === "boolean" ? { value } : { error: ["Not a valid boolean."] };
    case "date": {
      const date = typeof value === "string" ? normalizeDate(value) : null;
      return date === null ? { error: ["Not a valid datetime."] } : { value: date };
    }
    default:
      return { value };
  }
}

function checkValidation(
  type: ExtraType,
  raw: unknown,
): { value?: Extra["validation"]; error?: unknown } {
  if (!isObject(raw)) return { error: ["Not a valid mapping type."] };
  if (type === "dict" || type === "list" || type === "bool" || type === "date") {
    const used = Object.keys(raw).filter((k) => k !== "required");
    if (type === "dict" || type === "list" || used.length > 0) {
      return { error: [`Cannot be used together with ${type}.`] };
    }
  }
  const out: NonNullable<Extra["validation"]> = {};
  const errors: Errors = {};
  if (raw.required !== undefined && raw.required !== null) {
    if (typeof raw.required !== "boolean") errors.required = ["Not a valid boolean."];
    else if (raw.required) out.required = true;
  }
  if (raw.options !== undefined && raw.options !== null) {
    if (!Array.isArray(raw.options) || !["str", "int", "float"].includes(type)) {
      errors.options = Array.isArray(raw.options)
        ? [`Cannot be used together with ${type}.`]
        : ["Not a valid list."];
    } else {
      const options: unknown[] = [];
      const optionErrors: Errors = {};
      raw.options.forEach((option, i) => {
        const checked = checkValue(type, option);
        if (checked.error) optionErrors[i] = checked.error;
        else if (checked.value !== null && !options.includes(checked.value)) {
          options.push(checked.value);
        }
      });
      if (Object.keys(optionErrors).length > 0) errors.options = optionErrors;
      else if (options.length > 0) out.options = options;
    }
  }
  if (raw.range !== undefined && raw.range !== null) {
    const range = raw.range;
    if (!isObject(range) || !["int", "float"].includes(type)) {
      errors.range = isObject(range)
        ? [`Cannot be used together with ${type}.`]
        : ["Not a valid mapping type."];
    } else {
      const min = range.min ?? null;
      const max = range.max ?? null;
      if ((min !== null && typeof min !== "number") || (max !== null && typeof max !== "number")) {
        errors.range = ["Not a valid number."];
      } else if (min !== null && max !== null && min > max) {
        errors.range = ["Minimum value cannot be greater than maximum value."];
      } else if (min !== null || max !== null) {
        out.range = { min, max };
      }
    }
  }
  if (raw.iri !== undefined && raw.iri !== null) {
    if (typeof raw.iri !== "boolean") errors.iri = ["Not a valid boolean."];
    else if (raw.iri && type !== "str") errors.iri = [`Cannot be used together with ${type}.`];
    else if (raw.iri) out.iri = true;
  }
  if (Object.keys(errors).length > 0) return { error: errors };
  return { value: out };
}

function applyValidation(
  validation: NonNullable<Extra["validation"]>,
  value: unknown,
  requireValues: boolean,
): string[] {
  if (value === null || value === undefined) {
    return validation.required && requireValues ? ["Value is required."] : [];
  }
  const errors: string[] = [];
  if (validation.options && !validation.options.includes(value)) {
    errors.push(`Must be one of: ${validation.options.join(", ")}.`);
  }
  if (typeof value === "number" && validation.range) {
    const { min, max } = validation.range;
    if (min !== null && min !== undefined && value < min) {
      errors.push(`Must be equal to or greater than ${min}.`);
    }
    if (max !== null && max !== undefined && value > max) {
      errors.push(`Must be equal to or smaller than ${max}.`);
    }
  }
  if (validation.iri && typeof value === "string" && !isIri(value)) errors.push("Not a valid IRI.");
  return errors;
}

function validateItem(item: unknown, inList: boolean, requireValues: boolean): {
  extra?: Extra;
  errors?: Errors;
} {
  if (!isObject(item)) return { errors: { _schema: ["Invalid input type."] } };
  const errors: Errors = {};
  const type = item.type;
  if (type === undefined) errors.type = ["Missing data for required field."];
  else if (typeof type !== "string" || !(EXTRA_TYPES as readonly string[]).includes(type)) {
    errors.type = ["Invalid value."];
  }
  let key: string | undefined;
  if (!inList) {
    if (item.key === undefined || item.key === null) {
      errors.key = ["Missing data for required field."];
    } else if (typeof item.key !== "string") errors.key = ["Not a valid string."];
    else if (normalize(item.key) === "") errors.key = ["String must not be empty."];
    else key = normalize(item.key);
  }
  if (errors.type) return { errors };
  const t = type as ExtraType;
  const extra: Extra = { type: t };
  if (key !== undefined) extra.key = key;
  if (t === "dict" || t === "list") {
    const nested = validateExtras(item.value ?? [], t === "list", requireValues);
    if (nested.errors) errors.value = nested.errors;
    else extra.value = nested.extras;
  } else {
    const checked = checkValue(t, item.value);
    if (checked.error) errors.value = checked.error;
    else extra.value = checked.value;
  }
  if (item.unit !== undefined && item.unit !== null) {
    if (t !== "int" && t !== "float") errors.unit = [`Cannot be used together with ${t}.`];
    else if (typeof item.unit !== "string") errors.unit = ["Not a valid string."];
    else extra.unit = normalize(item.unit) === "" ? null : normalize(item.unit);
  } else if (t === "int" || t === "float") {
    extra.unit = null;
  }
  if (item.description !== undefined && item.description !== null) {
    if (typeof item.description !== "string") errors.description = ["Not a valid string."];
    else extra.description = item.description.trim();
  }
  if (item.term !== undefined && item.term !== null) {
    if (typeof item.term !== "string") errors.term = ["Not a valid string."];
    else if (item.term.trim() !== "" && !isIri(item.term.trim())) {
      errors.term = ["Not a valid IRI."];
    } else if (item.term.trim() !== "") extra.term = item.term.trim();
  }
  if (item.validation !== undefined && item.validation !== null) {
    const checked = checkValidation(t, item.validation);
    if (checked.error) errors.validation = checked.error;
    else if (checked.value && Object.keys(checked.value).length > 0) {
      extra.validation = checked.value;
      if (!errors.value) {
        const valueErrors = applyValidation(checked.value, extra.value, requireValues);
        if (valueErrors.length > 0) errors.value = valueErrors;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { extra };
}

/**
 * Validates and normalizes an extras array.
 *
 * @param value The input (must be an array).
 * @param inList Whether the items belong to a `list` value (keys are dropped).
 * @param requireValues Whether `validation.required` is enforced (false in templates).
 * @returns The normalized extras, or the message tree keyed by index.
 */
export function validateExtras(value: unknown, inList = false, requireValues = true): {
  extras: Extra[];
  errors?: unknown;
} {
  if (!Array.isArray(value)) return { extras: [], errors: ["Not a valid list."] };
  const extras: Extra[] = [];
  const errors: Record<string, Errors> = {};
  const seen = new Set<string>();
  value.forEach((item, i) => {
    const result = validateItem(item, inList, requireValues);
    const key = isObject(item) && typeof item.key === "string" ? normalize(item.key) : undefined;
    if (!inList && key !== undefined && key !== "") {
      if (seen.has(key)) {
        const own = result.errors ?? {};
        own.key = [...((own.key as string[] | undefined) ?? []), "Duplicate value."];
        result.errors = own;
      }
      seen.add(key);
    }
    if (result.errors) errors[String(i)] = result.errors;
    else if (result.extra) extras.push(result.extra);
  });
  return Object.keys(errors).length > 0 ? { extras: [], errors } : { extras };
}
