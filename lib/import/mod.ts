/**
 * Imports: JSON Schema and SHACL files to templates (pure converters plus thin functions that
 * create the template), the reuse of a collection, and `.eln` (RO-Crate) archives to records.
 *
 * @example Usage
 * ```ts
 * import { jsonSchemaToTemplate } from "./mod.ts";
 * const draft = jsonSchemaToTemplate('{"type": "object", "properties": {"n": {"type": "integer"}}}');
 * console.log(draft.extras); // [{ key: "n", type: "int", value: null }]
 * ```
 *
 * @module
 */

export * from "./import_json_schema.ts";
export * from "./import_shacl.ts";
export * from "./json_schema_template.ts";
export * from "./shacl_template.ts";
export * from "./template_draft.ts";
export * from "./reuse_collection.ts";
export * from "./eln/import_eln.ts";
export * from "./eln/plan.ts";
export * from "./eln/errors.ts";
export * from "./eln/limits.ts";
export * from "./eln/format_eln.ts";
