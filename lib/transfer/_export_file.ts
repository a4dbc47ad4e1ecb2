// An export to disk: the target is resolved like every name from the server (`<path>/<name>.<ext>`,
// optionally inside a folder named after the identifier, clashes renamed unless forced) and the
// body streamed to it atomically. Shared by exportResource() and exportMetadata().

import type { Transport } from "../http/transport.ts";
import type { QueryParams } from "../http/url.ts";
import { asDirectory, pathExists, resolveTarget, withExtension } from "./_paths.ts";
import { LocalFileError } from "./errors.ts";
import { writingFile } from "./_local_file.ts";
import { saveResponse } from "./_save.ts";
import type { ProgressCallback } from "./progress.ts";

/** Where and how one export is saved. */
export interface ExportFileOptions {
  /** A file name chosen by the caller instead of the default (`path` is then a directory). */
  name?: string | undefined;
  /** Write into `<path>/<identifier>/`. */
  useFolder?: boolean | undefined;
  force?: boolean | undefined;
  existing?: "rename" | "refuse" | undefined;
  query?: QueryParams | undefined;
  onProgress?: ProgressCallback | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Saves the export at `endpoint` under `path`.
 *
 * @param identifier The resource's identifier (for the folder).
 * @param defaultName File name used when `name` is not given (from the server).
 * @param extension Extension added to the file name unless it has it.
 */
export async function saveExport(
  transport: Transport,
  endpoint: string,
  path: string,
  identifier: string,
  defaultName: string,
  extension: string,
  options: ExportFileOptions,
): Promise<string> {
  const dir = options.name === undefined ? path : asDirectory(path);
  const refuse = options.force !== true && options.existing === "refuse";
  const target = await resolveTarget(dir, withExtension(options.name ?? defaultName, extension), {
    force: options.force === true || refuse,
    folder: options.useFolder ? identifier : undefined,
  });
  if (refuse && await pathExists(target)) {
    throw new LocalFileError(
      target,
      new Deno.errors.AlreadyExists(`the file exists and was not replaced (force overwrites it)`),
    );
  }
  return await writingFile(target, () =>
    saveResponse(transport, endpoint, target, {
      force: options.force,
      query: options.query,
      onProgress: options.onProgress,
      signal: options.signal,
    }));
}
