/**
 * {@linkcode RepoTemplate}: a template (type `record` or `extras`) — metadata and data, user and
 * group roles, revisions, trash state, and streamed exports (`json`, `json-schema`, `shacl`).
 *
 * @module
 */

import type { TemplateJson } from "../http/protocol.ts";
import { SharedResource } from "../resources/shared.ts";
import {
  exportResource,
  exportStream,
  type ExportStreamOptions,
  type ResourceExportOptions,
} from "../transfer/export.ts";

/** Template export types. */
export type TemplateExportType = "json" | "json-schema" | "shacl";

/**
 * A template on the server.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const template = await manager.template({
 *   identifier: "t",
 *   create: true,
 *   type: "extras",
 *   data: [{ key: "temperature", type: "float", value: null, unit: "K" }],
 * });
 * await template.edit({ title: "New title" });
 * const schema = await template.exportStream("json-schema"); // or export(path, "json-schema")
 * assert.deepStrictEqual(Object.keys((await new Response(schema).json()).properties), ["temperature"]);
 * assert.strictEqual((await template.meta()).title, "New title");
 * ```
 */
export class RepoTemplate extends SharedResource<TemplateJson> {
  /** Resource type of the class. */
  static override readonly type = "template";

  // Exports

  /** Exports the template to `path` as `exportType` ({@linkcode exportResource}). */
  export(
    path: string,
    exportType: TemplateExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /** The template exported as a byte stream ({@linkcode exportStream}). */
  exportStream(
    exportType: TemplateExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
