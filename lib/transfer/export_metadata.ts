/**
 * Exporting a record's extra metadata as JSON (`/records/<id>/extras/export/json`), streamed to
 * disk atomically.
 *
 * @module
 */

import { extrasExportPath } from "../http/paths.ts";
import type { QueryObject } from "../http/url.ts";
import { saveExport } from "./_export_file.ts";
import { openBody } from "./_save.ts";
import type { RecordTarget } from "./download_files.ts";
import type { ProgressCallback } from "./progress.ts";

/** Options of {@linkcode exportMetadata}. */
export interface ExportMetadataOptions {
  /** Export filter, e.g. `{ extras: { "key": {}, "list": { "0": {} } } }` (exclusion mask). */
  filter?: QueryObject | undefined;
  /** `standard` (full extras) or `plain` (key → value). @default {"standard"} */
  format?: "standard" | "plain" | undefined;
  /**
   * Write into `<path>/<identifier>/` (path is then a directory; the identifier is sanitised like
   * every name from the server).
   */
  useFolder?: boolean | undefined;
  /** File name inside the directory instead of `<identifier>-extras` (`.json` is added). */
  name?: string | undefined;
  /** Overwrite an existing file; otherwise see `existing`. */
  force?: boolean | undefined;
  /**
   * What happens to an existing file when `force` is off: `rename` writes `<stem>_<n><ext>`,
   * `refuse` throws a {@linkcode LocalFileError} (cause `Deno.errors.AlreadyExists`) before the
   * export is requested. @default {"rename"}
   */
  existing?: "rename" | "refuse" | undefined;

  /** Receives the bytes received so far. */
  onProgress?: ProgressCallback | undefined;
  /** Cancels the export. */
  signal?: AbortSignal | undefined;
}

/**
 * Exports a record's extra metadata as JSON. A directory path gets `<identifier>-extras.json`
 * (the server's attachment name).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { exportMetadata, exportMetadataStream } from "./export_metadata.ts";
 * import { startServer } from "@repo/apy/testing";
 * import assert from "node:assert";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true });
 * await record.addMetadatum({ key: "temperature", type: "float", value: 21.5 });
 * const dir = await Deno.makeTempDir();
 * const path = await exportMetadata(record, `${dir}/meta.json`, { format: "plain" });
 * assert.deepStrictEqual(JSON.parse(await Deno.readTextFile(path)), { temperature: 21.5 });
 * await Deno.remove(dir, { recursive: true });
 * const stream = await exportMetadataStream(record, { format: "plain" }); // for piping
 * assert.deepStrictEqual(await new Response(stream).json(), { temperature: 21.5 });
 * ```
 */
export async function exportMetadata(
  record: RecordTarget & { readonly id: number },
  path: string,
  options: ExportMetadataOptions = {},
): Promise<string> {
  const { identifier } = await record.meta();
  return await saveExport(
    record.transport,
    extrasExportPath(record.id),
    path,
    identifier,
    `${identifier}-extras`,
    "json",
    { ...options, query: metadataQuery(options) },
  );
}

/**
 * Exports a record's extra metadata as a JSON byte stream (for piping; read or cancel it), as
 * {@linkcode exportMetadata} shows.
 */
export async function exportMetadataStream(
  record: RecordTarget & { readonly id: number },
  options: Omit<ExportMetadataOptions, "useFolder" | "force" | "name" | "existing"> = {},
): Promise<ReadableStream<Uint8Array>> {
  return await openBody(record.transport, extrasExportPath(record.id), {
    query: metadataQuery(options),
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

function metadataQuery(options: ExportMetadataOptions): { filter: QueryObject } | undefined {
  const filter: QueryObject = {
    ...options.filter,
    ...(options.format ? { format: options.format } : {}),
  };
  return Object.keys(filter).length > 0 ? { filter } : undefined;
}
