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

export { importJsonSchema, type TemplateImportOptions } from "./import_json_schema.ts";
export { importShacl } from "./import_shacl.ts";
export { jsonSchemaToTemplate, type JsonSchemaToTemplateOptions } from "./json_schema_template.ts";
export { shaclToTemplate, type ShaclToTemplateOptions } from "./shacl_template.ts";
export {
  checkFieldOptions,
  MAX_FIELD_OPTIONS,
  templateData,
  type TemplateDraft,
  type TemplateKind,
} from "./template_draft.ts";
export {
  reuseCollection,
  type ReuseCollectionOptions,
  type ReusedCollection,
} from "./reuse_collection.ts";
export {
  type ElnCreated,
  type ElnImportOptions,
  type ElnImportResult,
  importEln,
} from "./eln/import_eln.ts";
export type { ElnPlan, ElnPlannedFile, ElnPlannedLink, ElnPlannedRecord } from "./eln/plan.ts";
export { ChecksumMismatchError, ElnImportError, type ElnProgress } from "./eln/errors.ts";
export { DEFAULT_ELN_LIMITS, type ElnLimits } from "./eln/limits.ts";
export { formatElnPlan, type FormatElnPlanOptions, formatElnSummary } from "./eln/format_eln.ts";
