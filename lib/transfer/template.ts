/**
 * {@linkcode RepoTemplate}: a template (type `record` or `extras`) — metadata and data, user and
 * group roles, revisions, trash state, and streamed exports (`json`, `json-schema`, `shacl`).
 *
 * @example Usage
 * ```ts
 * import { RepoTemplate } from "./template.ts";
 * import { Transport } from "../http/transport.ts";
 * import { startServer } from "../testing/mod.ts";
 * await using server = await startServer();
 * await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
 * const template = await RepoTemplate.load(transport, {
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

import { InputError } from "../http/errors.ts";
import { TEMPLATE_TYPES, type TemplateJson } from "../http/protocol.ts";
import type { Transport } from "../http/transport.ts";
import { ROLE_METHODS, type RoleMethods } from "../resources/capabilities/roles.ts";
import { lookup, Resource, type ResourceSelector } from "../resources/resource.ts";
import { EXPORT_METHODS } from "./_export_methods.ts";
import type { ExportMethods } from "./export.ts";

/** Template export types. */
export type TemplateExportType = "json" | "json-schema" | "shacl";

/**
 * A template on the server.
 *
 * @example Usage
 * ```ts
 * import { RepoManager, RepoTemplate } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const { transport } = manager;
 * const template = await RepoTemplate.load(transport, { identifier: "t", create: true, type: "extras" });
 * await template.edit({ title: "New title" });
 * const schema = await template.exportStream("json-schema");
 * assert.strictEqual(typeof (await new Response(schema).json()), "object");
 * assert.strictEqual((await template.meta()).title, "New title");
 * ```
 */
export class RepoTemplate extends Resource<TemplateJson> {
  static {
    Object.assign(this.prototype, ROLE_METHODS, EXPORT_METHODS);
  }

  /**
   * Wraps a template whose id is known; nothing is sent.
   *
   * @param transport The transport.
   * @param id Template id.
   * @param init Metadata already at hand, and whether it was just created.
   */
  constructor(
    transport: Transport,
    id: number,
    init: { meta?: TemplateJson; created?: boolean } = {},
  ) {
    super(transport, "template", id, init);
  }

  /**
   * Looks a template up by id or identifier; with `create: true` a missing one is created with
   * `type` (`record` by default) and `data` (`{}` for record templates, `[]` for extras).
   *
   * @example Usage
   * ```ts
   * import { RepoManager, RepoTemplate } from "@repo/apy";
   * import { startServer } from "@repo/apy/testing";
   * import assert from "node:assert";
   *
   * await using server = await startServer();
   * await using manager = new RepoManager({ host: server.url, pat: server.pat });
   * const { transport } = manager;
   * const template = await RepoTemplate.load(transport, { identifier: "t", create: true, type: "extras" });
   * assert.strictEqual((await template.meta()).type, "extras");
   * ```
   *
   * @param transport The transport.
   * @param selector `{ id }` or `{ identifier, create?, type?, data?, ...metadata }`.
   * @returns The template.
   * @throws {InputError} When the type is neither `record` nor `extras`.
   */
  static async load(transport: Transport, selector: ResourceSelector): Promise<RepoTemplate> {
    const { meta, created } = await lookup<TemplateJson>(
      transport,
      "template",
      withDefaults(selector),
    );
    return new RepoTemplate(transport, meta.id, { meta, created });
  }
}

/**
 * A template's role methods ({@linkcode RoleMethods}) and exports ({@linkcode ExportMethods}:
 * `json`, `json-schema`, `shacl`).
 */
export interface RepoTemplate extends RoleMethods, ExportMethods<TemplateExportType> {}

function withDefaults(selector: ResourceSelector): ResourceSelector {
  if (!("identifier" in selector) || selector.create !== true) return selector;
  const type = selector.type ?? "record";
  if (!(TEMPLATE_TYPES as readonly unknown[]).includes(type)) {
    throw new InputError(
      `Invalid template type '${String(type)}': use one of ${TEMPLATE_TYPES.join(", ")}`,
    );
  }
  return { ...selector, type, data: selector.data ?? (type === "record" ? {} : []) };
}
