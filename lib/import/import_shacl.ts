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
 * `dcterms:description` and extras, identifier generated from the title as in
 * `importJsonSchema`. Needs read access to the file and network access to the server.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { importShacl } from "@repo/apy/import";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const dir = await Deno.makeTempDir(); // the file is read: --allow-read for it
 * await Deno.writeTextFile(
 *   `${dir}/profile.ttl`,
 *   `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
 * <https://example.org/shape> a sh:NodeShape ;
 *   sh:property [ sh:name "temperature" ; sh:datatype xsd:double ] .`,
 * );
 * const template = await importShacl(manager, `${dir}/profile.ttl`);
 * assert.strictEqual((await template.meta()).type, "extras");
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param target The manager (or anything with its `transport`).
 * @param path Path of the shapes file.
 * @param options Template type and size limit.
 * @throws {InputError} For a missing or oversized file or shapes that cannot be converted.
 */
export async function importShacl(
  target: { transport: Transport },
  path: string,
  options: TemplateImportOptions = {},
): Promise<RepoTemplate> {
  return await importTemplateFile(target.transport, path, options, shaclToTemplate);
}
