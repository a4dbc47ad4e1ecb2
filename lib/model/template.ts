/**
 * {@linkcode RepoTemplate}: a template (type `record` or `extras`) — metadata and data, user and
 * group roles, revisions, trash state, and streamed exports (`json`, `json-schema`, `shacl`).
 *
 * @example Usage
 * ```ts
 * import { openResource } from "../resources/resource.ts";
 * import { RepoTemplate } from "./template.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const template = await openResource(transport, RepoTemplate, {
 *   identifier: "sample",
 *   create: true,
 *   type: "extras",
 *   data: [{ key: "temperature", type: "float", value: null, unit: "K" }],
 * });
 * const schema = JSON.parse(await new Response(await template.exportStream("json-schema")).text());
 * console.log(Object.keys(schema.properties)); // ["temperature"]
 * ```
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
 * const template = await manager.template({ identifier: "t", create: true, type: "extras" });
 * await template.edit({ title: "New title" });
 * const schema = await template.exportStream("json-schema");
 * assert.strictEqual(typeof (await new Response(schema).json()), "object");
 * assert.strictEqual((await template.meta()).title, "New title");
 * ```
 */
export class RepoTemplate extends SharedResource<TemplateJson> {
  /** Resource type of the class. */
  static override readonly type = "template";

  // Exports

  /**
   * Exports the resource to disk: a directory gets `<identifier>.<ext>` (`useFolder` writes into
   * `<path>/<identifier>/`); streamed to a temporary file, renamed when complete.
   *
   * @param path Target file or directory.
   * @param exportType One of the type's export types (`json` by default).
   * @param options Filter, folder, force, progress, signal.
   * @returns The path written.
   * @throws {InputError} When the type cannot be exported as `exportType`.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const template = await manager.template({ identifier: "t", create: true });
   * const dir = await Deno.makeTempDir();
   * try {
   *   const path = await template.export(`${dir}/`, "json");
   *   assert.strictEqual(path, `${dir}/t.json`);
   * } finally {
   *   await Deno.remove(dir, { recursive: true });
   * }
   * ```
   */
  export(
    path: string,
    exportType: TemplateExportType = "json",
    options: ResourceExportOptions = {},
  ): Promise<string> {
    return exportResource(this, path, { ...options, exportType });
  }

  /**
   * Exports the resource as a byte stream (for piping); read or cancel it.
   *
   * @param exportType One of the type's export types (`json` by default).
   * @param options Filter, progress, signal.
   * @returns The exported data.
   *
   * @example Usage
   * ```ts
   * import { RepoManager } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const template = await manager.template({ identifier: "t", create: true });
   * const stream = await template.exportStream("json");
   * assert.strictEqual((await new Response(stream).json()).identifier, "t");
   * ```
   */
  exportStream(
    exportType: TemplateExportType = "json",
    options: Omit<ExportStreamOptions, "exportType"> = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return exportStream(this, { ...options, exportType });
  }
}
