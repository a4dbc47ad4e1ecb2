/**
 * Imports: JSON Schema and SHACL files to templates (pure converters plus thin functions that
 * create the template), and the reuse of a collection.
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
