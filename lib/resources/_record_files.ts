/**
 * {@linkcode RecordFileResource}: information about a record's files (list, look up, rename,
 * delete). Byte transfers live in `lib/transfer`.
 *
 * @module
 */

import { InputError } from "../http/errors.ts";
import type { FileJson, PageJson, RecordJson, RevisionJson } from "../http/protocol.ts";
import { paginateItems } from "../http/paginate.ts";
import { pathSegment, type QueryParams } from "../http/url.ts";
import { requireId, requireText } from "./_checks.ts";
import { RoleResource } from "./_roles.ts";

/** Changes {@linkcode RecordFileResource.editFile} can make. */
export interface FileChanges {
  /** New name; must not be taken by another file of the record. */
  name?: string;
  /** New description. */
  description?: string;
  /** New MIME type, e.g. `text/plain`. */
  mimetype?: string;
}

/**
 * A record's file information.
 *
 * @example Usage
 * ```ts ignore
 * for await (const file of record.files()) console.log(file.name, file.size);
 * await record.editFile(await record.getFileId("old.txt"), { name: "new.txt" });
 * ```
 */
export class RecordFileResource extends RoleResource<RecordJson> {
  /**
   * One page of the record's files.
   *
   * @param query `page`, `per_page`, `filter` (name), `sort`.
   * @returns The page.
   */
  async getFiles(query: QueryParams = {}): Promise<PageJson<FileJson>> {
    return await this.transport.json("GET", `${this.endpoint}/files`, { query });
  }

  /**
   * Iterates over all files of the record, fetching pages as needed.
   *
   * @param query `filter`, `sort`, `per_page`.
   * @returns An async iterator over the files.
   */
  files(query: QueryParams = {}): AsyncGenerator<FileJson, void, undefined> {
    return paginateItems<FileJson>(this.transport, `${this.endpoint}/files`, {
      per_page: 100,
      ...query,
    });
  }

  /**
   * The number of files of the record.
   *
   * @returns The count.
   */
  async getNumberFiles(): Promise<number> {
    return (await this.getFiles({ per_page: 1 }))._pagination.total_items;
  }

  /**
   * A file's information by id.
   *
   * @param fileId Id (UUID) of the file.
   * @returns The file.
   * @throws {InputError} When the record has no such file.
   */
  async getFileInfo(fileId: string): Promise<FileJson> {
    const file = await this.#get(this.#fileEndpoint(fileId));
    if (file === undefined) {
      throw new InputError(`The record ${this.id} has no file with id '${fileId}': check the id`);
    }
    return file;
  }

  /**
   * A file's information by exact name (GET `files/name/<name>`; `/` in the name is kept).
   *
   * @param name Name of the file.
   * @returns The file.
   * @throws {InputError} When the record has no file of that name.
   */
  async getFileByName(name: string): Promise<FileJson> {
    const file = await this.#byName(name);
    if (file === undefined) {
      throw new InputError(`The record ${this.id} has no file named '${name}': check the name`);
    }
    return file;
  }

  /**
   * The id of a file by name.
   *
   * @param name Name of the file.
   * @returns The file id.
   * @throws {InputError} When the record has no file of that name.
   */
  async getFileId(name: string): Promise<string> {
    return (await this.getFileByName(name)).id;
  }

  /**
   * The name of a file by id.
   *
   * @param fileId Id of the file.
   * @returns The file name.
   * @throws {InputError} When the record has no such file.
   */
  async getFileName(fileId: string): Promise<string> {
    return (await this.getFileInfo(fileId)).name;
  }

  /**
   * Whether the record has a file of that name.
   *
   * @param name Name of the file.
   * @returns True when present.
   */
  async hasFile(name: string): Promise<boolean> {
    return (await this.#byName(name)) !== undefined;
  }

  /**
   * Changes a file's name, description or MIME type. A new name already used by another file of
   * the record is refused before the change is sent.
   *
   * @param fileId Id of the file.
   * @param changes `name`, `description`, `mimetype`.
   * @returns The updated file.
   * @throws {InputError} When nothing is to change or the name is taken.
   */
  async editFile(fileId: string, changes: FileChanges): Promise<FileJson> {
    const json = Object.fromEntries(
      Object.entries(changes).filter(([field, value]) =>
        ["name", "description", "mimetype"].includes(field) && value !== undefined
      ),
    );
    if (Object.keys(json).length === 0) {
      throw new InputError("Nothing to change: give a name, description or mimetype");
    }
    if (changes.name !== undefined) {
      const clash = await this.#byName(changes.name);
      if (clash !== undefined && clash.id !== fileId) {
        throw new InputError(
          `The record ${this.id} already has a file named '${changes.name}': choose another name or delete that file first`,
        );
      }
    }
    return await this.transport.json("PATCH", this.#fileEndpoint(fileId), { json });
  }

  /**
   * Deletes a file.
   *
   * @param fileId Id of the file.
   */
  async deleteFile(fileId: string): Promise<void> {
    await (await this.transport.request("DELETE", this.#fileEndpoint(fileId))).body?.cancel();
  }

  /**
   * Deletes every file of the record.
   *
   * @returns How many files were deleted.
   */
  async deleteAllFiles(): Promise<number> {
    const ids = (await Array.fromAsync(this.files())).map((file) => file.id);
    for (const id of ids) await this.deleteFile(id);
    return ids.length;
  }

  /**
   * One page of the revisions of the record's files.
   *
   * @param query `page`, `per_page`.
   * @returns The page.
   */
  async getFileRevisions(query: QueryParams = {}): Promise<PageJson<RevisionJson>> {
    return await this.transport.json("GET", `${this.endpoint}/files/revisions`, { query });
  }

  /**
   * One file revision.
   *
   * @param revisionId Id of the revision.
   * @param query `revision`: compare against this revision instead of the parent.
   * @returns The revision.
   */
  async getFileRevision(revisionId: number, query: QueryParams = {}): Promise<RevisionJson> {
    const id = requireId(revisionId, "revision id");
    return await this.transport.json("GET", `${this.endpoint}/files/revisions/${id}`, { query });
  }

  #fileEndpoint(fileId: string): string {
    return `${this.endpoint}/files/${pathSegment(requireText(fileId, "file id"), "file id")}`;
  }

  async #byName(name: string): Promise<FileJson | undefined> {
    const segments = requireText(name, "file name").split("/");
    // A name with `.`, `..` or empty segments cannot be sent as a path (URLs normalize dot
    // segments, so the request would address another endpoint): search the file list instead.
    if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
      for await (const file of this.files({ filter: name })) {
        if (file.name === name) return file;
      }
      return undefined;
    }
    return await this.#get(
      `${this.endpoint}/files/name/${segments.map(encodeURIComponent).join("/")}`,
    );
  }

  async #get(endpoint: string): Promise<FileJson | undefined> {
    const response = await this.transport.request("GET", endpoint, { expect: [404] });
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json() as FileJson;
  }
}
