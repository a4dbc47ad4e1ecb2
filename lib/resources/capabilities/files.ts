/**
 * Capability: information about a record's files — list, look up, rename, delete, revisions.
 * Byte transfers live in `lib/transfer`.
 *
 * @module
 */

import { InputError } from "../../errors.ts";
import type { FileJson, PageJson, RevisionJson } from "../../http/protocol.ts";
import { fileByNamePath, fileRevisionsPath, filesPath } from "../../http/paths.ts";
import type { QueryParams } from "../../http/url.ts";
import type { ListOptions } from "../../http/list_options.ts";
import { requireText } from "../_checks.ts";
import { allItems, getPage, type ResourceContext, send } from "./context.ts";

/** Changes {@linkcode editFile} can make. */
export interface FileChanges {
  /** New name; must not be taken by another file of the record. */
  name?: string | undefined;
  /** New description. */
  description?: string | undefined;
  /** New MIME type, e.g. `text/plain`. */
  mimetype?: string | undefined;
}

/**
 * One page of the record's files.
 *
 * @param ctx The record.
 * @param query `page`, `perPage`, `filter` (name), `sort`.
 * @returns The page.
 */
export async function getFiles(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<FileJson>> {
  return await getPage(ctx.transport, filesPath(ctx.id), query);
}

/**
 * Every file of the record.
 *
 * @param ctx The record.
 * @param query `filter`, `sort`, `perPage`.
 * @returns An async iterator over the files.
 */
export function files(
  ctx: ResourceContext,
  query: ListOptions = {},
): AsyncGenerator<FileJson, void, undefined> {
  return allItems(ctx.transport, filesPath(ctx.id), query);
}

/**
 * A file by id, or `undefined` when the record has none with that id.
 *
 * @param ctx The record.
 * @param fileId Id (UUID) of the file.
 * @returns The file.
 */
export async function findFile(
  ctx: ResourceContext,
  fileId: string,
): Promise<FileJson | undefined> {
  return await getOrUndefined(ctx, filesPath(ctx.id, requireText(fileId, "file id")));
}

/**
 * A file by exact name (`/` kept), or `undefined` when the record has none of that name.
 *
 * @param ctx The record.
 * @param name Name of the file.
 * @returns The file.
 */
export async function findFileByName(
  ctx: ResourceContext,
  name: string,
): Promise<FileJson | undefined> {
  const segments = requireText(name, "file name").split("/");
  // A name with `.`, `..` or empty segments cannot be sent as a path (URLs normalize dot
  // segments, so the request would address another endpoint): search the file list instead.
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    for await (const file of files(ctx, { filter: name })) {
      if (file.name === name) return file;
    }
    return undefined;
  }
  return await getOrUndefined(ctx, fileByNamePath(ctx.id, name));
}

/**
 * Changes a file's name, description or MIME type; a new name already used by another file of
 * the record is refused before the change is sent.
 *
 * @param ctx The record.
 * @param fileId Id of the file.
 * @param changes `name`, `description`, `mimetype`.
 * @returns The updated file.
 * @throws {InputError} When nothing is to change or the name is taken.
 */
export async function editFile(
  ctx: ResourceContext,
  fileId: string,
  changes: FileChanges,
): Promise<FileJson> {
  const json = Object.fromEntries(
    Object.entries(changes).filter(([field, value]) =>
      ["name", "description", "mimetype"].includes(field) && value !== undefined
    ),
  );
  if (Object.keys(json).length === 0) {
    throw new InputError("Nothing to change: give a name, description or mimetype");
  }
  if (changes.name !== undefined) {
    const clash = await findFileByName(ctx, changes.name);
    if (clash !== undefined && clash.id !== fileId) {
      throw new InputError(
        `The record ${ctx.id} already has a file named '${changes.name}': choose another name or delete that file first`,
      );
    }
  }
  return await ctx.transport.json("PATCH", filesPath(ctx.id, requireText(fileId, "file id")), {
    json,
  });
}

/**
 * Deletes a file.
 *
 * @param ctx The record.
 * @param fileId Id of the file.
 */
export async function deleteFile(ctx: ResourceContext, fileId: string): Promise<void> {
  await send(ctx.transport, "DELETE", filesPath(ctx.id, requireText(fileId, "file id")));
}

/**
 * One page of the revisions of the record's files.
 *
 * @param ctx The record.
 * @param query `page`, `perPage`.
 * @returns The page.
 */
export async function getFileRevisions(
  ctx: ResourceContext,
  query: ListOptions = {},
): Promise<PageJson<RevisionJson>> {
  return await getPage(ctx.transport, fileRevisionsPath(ctx.id), query);
}

/**
 * One file revision.
 *
 * @param ctx The record.
 * @param revisionId Id of the revision.
 * @param query `revision`: compare against this revision instead of the parent.
 * @returns The revision.
 */
export async function getFileRevision(
  ctx: ResourceContext,
  revisionId: number,
  query: QueryParams = {},
): Promise<RevisionJson> {
  return await ctx.transport.json("GET", fileRevisionsPath(ctx.id, revisionId), { query });
}

async function getOrUndefined(ctx: ResourceContext, path: string): Promise<FileJson | undefined> {
  const response = await ctx.transport.request("GET", path, { expect: [404] });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  return await response.json() as FileJson;
}

/**
 * The number of files of the record.
 *
 * @param ctx The record.
 * @returns The count.
 */
export async function countFiles(ctx: ResourceContext): Promise<number> {
  return (await getFiles(ctx, { perPage: 1 }))._pagination.total_items;
}

/**
 * A file's information by id.
 *
 * @param ctx The record.
 * @param fileId Id (UUID) of the file.
 * @returns The file.
 * @throws {InputError} When the record has no such file.
 */
export async function getFileInfo(ctx: ResourceContext, fileId: string): Promise<FileJson> {
  const file = await findFile(ctx, fileId);
  if (file === undefined) {
    throw new InputError(`The record ${ctx.id} has no file with id '${fileId}': check the id`);
  }
  return file;
}

/**
 * A file's information by exact name.
 *
 * @param ctx The record.
 * @param name Name of the file.
 * @returns The file.
 * @throws {InputError} When the record has no file of that name.
 */
export async function getFileByName(ctx: ResourceContext, name: string): Promise<FileJson> {
  const file = await findFileByName(ctx, name);
  if (file === undefined) {
    throw new InputError(`The record ${ctx.id} has no file named '${name}': check the name`);
  }
  return file;
}

/**
 * Deletes every file of the record.
 *
 * @param ctx The record.
 * @returns How many files were deleted.
 */
export async function deleteAllFiles(ctx: ResourceContext): Promise<number> {
  const ids = (await Array.fromAsync(files(ctx))).map((file) => file.id);
  for (const id of ids) await deleteFile(ctx, id);
  return ids.length;
}
