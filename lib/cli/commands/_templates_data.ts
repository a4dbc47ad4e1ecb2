// The content of a new template from `templates create -d/--data`: JSON, an object for record
// templates and a list of extras for extras templates. Data that is not that fails with exit 1, as
// in the Python client (its exit code wins over the usage code 2).

import { InputError } from "../../errors.ts";

/** Template types (`-y/--type`). */
export const TEMPLATE_KINDS = ["record", "extras"] as const;

/** Parses `-d/--data` for a template of `kind`; without it, `{}` (record) or `[]` (extras). */
export function templateData(kind: string, json: string | undefined): unknown {
  if (json === undefined) return kind === "extras" ? [] : {};
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InputError(`-d/--data is not valid JSON (${reason}): give a JSON object or list`);
  }
  if (kind === "extras" && !Array.isArray(data)) {
    throw new InputError("-d/--data of an extras template must be a JSON list of extras");
  }
  if (kind === "record" && (typeof data !== "object" || data === null || Array.isArray(data))) {
    throw new InputError("-d/--data of a record template must be a JSON object of record fields");
  }
  return data;
}
