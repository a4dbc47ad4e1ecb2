/**
 * Exporting a record, collection or template in one of the server's formats (JSON, RDF, PDF, QR
 * code, RO-Crate, JSON Schema, SHACL), streamed to disk atomically or handed back as a stream.
 * Generic over the resource type: anything with `transport`, `endpoint`, `type` and `meta()`.
 *
 * @module
 */

import { InputError } from "../errors.ts";
import { exportPath } from "../http/paths.ts";
import { EXPORT_TYPES, type ResourceType } from "../http/protocol.ts";
import type { QueryObject } from "../http/url.ts";
import { saveExport } from "./_export_file.ts";
import { openBody } from "./_save.ts";
import type { ProgressCallback } from "./progress.ts";
import type { TransferTarget } from "./upload.ts";

/** Resource types that can be exported. */
export type ExportableType = keyof typeof EXPORT_TYPES;

/** A resource as exports need it. */
export interface ExportTarget extends TransferTarget {
  /** Resource type. */
  readonly type: ResourceType;
  /** Resource id. */
  readonly id: number;
  /** The resource's metadata (for its identifier). */
  meta(): Promise<{ identifier: string }>;
}

/** Options of {@linkcode exportStream}. */
export interface ExportStreamOptions {
  /** Export type. @default {"json"} */
  exportType?: string | undefined;
  /** Export filter (JSON object, e.g. `{ user: true, links: "in" }`). */
  filter?: QueryObject | undefined;
  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the export. */
  signal?: AbortSignal | undefined;
}

/** Options of {@linkcode exportResource}. */
export interface ExportOptions extends ExportStreamOptions {
  /**
   * Write into `<path>/<identifier>/` (path is then a directory; the identifier is sanitised like
   * every name from the server).
   */
  useFolder?: boolean | undefined;
  /** File name inside the directory instead of the identifier (the extension is added). */
  name?: string | undefined;
  /** Overwrite an existing file; otherwise see `existing`. */
  force?: boolean | undefined;
  /**
   * What happens to an existing file when `force` is off: `rename` writes `<stem>_<n><ext>`,
   * `refuse` throws a {@linkcode LocalFileError} (cause `Deno.errors.AlreadyExists`) before the
   * export is requested. @default {"rename"}
   */
  existing?: "rename" | "refuse" | undefined;
}

/** Options of the `export` method of records, collections and templates. */
export type ResourceExportOptions = Omit<ExportOptions, "exportType">;

/**
 * Exports a resource to disk. A directory path gets `<identifier>.<ext>` (extension by type:
 * json `.json`, rdf `.ttl`, pdf `.pdf`, qr `.png`, ro-crate `.eln`); the data is streamed to a
 * temporary file and renamed when complete.
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { exportResource, exportStream } from "./export.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * const dir = await Deno.makeTempDir();
 * const path = await exportResource(record, `${dir}/`, { exportType: "json" });
 * assert.strictEqual(JSON.parse(await Deno.readTextFile(path)).identifier, "sample-1");
 * await Deno.remove(dir, { recursive: true });
 * const stream = await exportStream(record, { exportType: "json" }); // the same data, for piping
 * assert.strictEqual((await new Response(stream).json()).identifier, "sample-1");
 * ```
 *
 * @throws {InputError} When the type cannot be exported by this resource type.
 */
export async function exportResource(
  resource: ExportTarget,
  path: string,
  options: ExportOptions = {},
): Promise<string> {
  const { exportType, extension } = checkType(resource, options.exportType);
  const { identifier } = await resource.meta();
  return await saveExport(
    resource.transport,
    exportPath(resource, exportType),
    path,
    identifier,
    identifier,
    extension,
    { ...options, query: options.filter ? { filter: options.filter } : undefined },
  );
}

/**
 * Exports a resource as a byte stream (for piping; read or cancel it), as
 * {@linkcode exportResource} shows.
 *
 * @throws {InputError} When the type cannot be exported by this resource type.
 */
export async function exportStream(
  resource: ExportTarget,
  options: ExportStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  const { exportType } = checkType(resource, options.exportType);
  return await openBody(resource.transport, exportPath(resource, exportType), {
    query: options.filter ? { filter: options.filter } : undefined,
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

function checkType(
  resource: ExportTarget,
  exportType = "json",
): { exportType: string; extension: string } {
  const types: Record<string, string> | undefined = resource.type in EXPORT_TYPES
    ? EXPORT_TYPES[resource.type as ExportableType]
    : undefined;
  const extension = types?.[exportType];
  if (types === undefined || extension === undefined) {
    const valid = types ? Object.keys(types).join(", ") : "none";
    throw new InputError(
      `A ${resource.type} cannot be exported as '${exportType}': use one of ${valid}`,
    );
  }
  return { exportType, extension };
}
