/**
 * `importJsonSchema`: a JSON Schema file becomes a new template.
 *
 * @module
 */

import type { Transport } from "../http/transport.ts";
import type { RepoTemplate } from "../model/template.ts";
import { importTemplateFile } from "./_template_import.ts";
import { jsonSchemaToTemplate } from "./json_schema_template.ts";
import type { TemplateKind } from "./template_draft.ts";

/** Options of {@link importJsonSchema} and {@link importShacl}. */
export interface TemplateImportOptions {
  /** `extras` (a template of extra metadata) or `record` (a record template). @default {"extras"} */
  templateType?: TemplateKind;
  /** Largest file read, in bytes. @default {16777216} */
  maxBytes?: number;
}

/**
 * Reads a JSON Schema file, converts it with {@link jsonSchemaToTemplate} and creates a template
 * with its title (else the file name), description and extras. The identifier is generated from
 * the title; when taken, `-1`, `-2`, … is appended. Needs read access to the file and network
 * access to the server; a remote `$ref` is refused, never fetched.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { importJsonSchema, importShacl } from "@repo/apy/import";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const dir = await Deno.makeTempDir(); // the file is read: --allow-read for it
 * const schema = { title: "Sample", type: "object", properties: { temperature: { type: "number" } } };
 * await Deno.writeTextFile(`${dir}/sample.schema.json`, JSON.stringify(schema));
 * const template = await importJsonSchema(manager, `${dir}/sample.schema.json`, {
 *   templateType: "record",
 * });
 * assert.strictEqual((await template.meta()).type, "record");
 * // A SHACL shapes file, likewise:
 * await Deno.writeTextFile(
 *   `${dir}/profile.ttl`,
 *   `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
 * <https://example.org/shape> a sh:NodeShape ;
 *   sh:property [ sh:name "temperature" ; sh:datatype xsd:double ] .`,
 * );
 * const shapes = await importShacl(manager, `${dir}/profile.ttl`);
 * assert.strictEqual((await shapes.meta()).type, "extras");
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @throws {InputError} For a missing or oversized file or a schema that cannot be converted.
 */
export async function importJsonSchema(
  target: { transport: Transport },
  path: string,
  options: TemplateImportOptions = {},
): Promise<RepoTemplate> {
  return await importTemplateFile(target.transport, path, options, jsonSchemaToTemplate);
}
