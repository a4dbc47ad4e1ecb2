/**
 * `importShacl`: a SHACL shapes file becomes a new template.
 *
 * @module
 */

import type { Transport } from "../http/transport.ts";
import type { RepoTemplate } from "../model/template.ts";
import { importTemplateFile } from "./_template_import.ts";
import type { TemplateImportOptions } from "./import_json_schema.ts";
import { shaclToTemplate } from "./shacl_template.ts";

/**
 * Reads a SHACL file (Turtle, TriG, N-Triples, N-Quads or N3 by extension), converts it with
 * {@link shaclToTemplate} and creates a template with its `dcterms:title` (else the file name),
 * `dcterms:description` and extras, as {@linkcode importJsonSchema} does (and shows).
 *
 * @throws {InputError} For a missing or oversized file or shapes that cannot be converted.
 */
export async function importShacl(
  target: { transport: Transport },
  path: string,
  options: TemplateImportOptions = {},
): Promise<RepoTemplate> {
  return await importTemplateFile(target.transport, path, options, shaclToTemplate);
}
