// Shared helpers of the `collections`, `templates` and `groups` commands: the selector options,
// opening the resource through the manager, and the shapes of the library's typed resources the
// commands use.

import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { InputError } from "../../http/errors.ts";
import type { PageJson, ResourceJson } from "../../http/protocol.ts";
import type { QueryParams } from "../../http/url.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { idIdentifierOptions, idIdentifierValue } from "../options.ts";
import { asValues } from "./_records_common.ts";

/** The resource types these groups manage. */
export type ManagedType = "collection" | "template" | "group";

/** Metadata fields the commands read (every type has the first ones). */
export type ManagedJson = ResourceJson & {
  description?: string;
  plain_description?: string;
  tags?: string[];
  type?: string | null;
  data?: unknown;
};

/** What every opened resource offers (the library's `RepoCollection`, `RepoTemplate`, `RepoGroup`). */
export interface ManagedResource {
  readonly id: number;
  readonly created: boolean;
  meta(): Promise<ManagedJson>;
  refresh(): Promise<ManagedJson>;
  edit(changes: { [field: string]: unknown }): Promise<unknown>;
  delete(): Promise<void>;
  toString(): string;
}

/** Resources with user roles (collections, templates; a group's members). */
export interface UserRoles {
  addUser(userId: number, role: string): Promise<unknown>;
  changeUserRole(userId: number, role: string): Promise<unknown>;
  removeUser(userId: number): Promise<unknown>;
}

/** Resources with group roles (collections, templates). */
export interface GroupRoles {
  addGroupRole(groupId: number, role: string): Promise<unknown>;
  changeGroupRole(groupId: number, role: string): Promise<unknown>;
  removeGroupRole(groupId: number): Promise<unknown>;
}

/** Resources with tags (collections). */
export interface Tagged {
  addTag(tag: string): Promise<unknown>;
  removeTag(tag: string): Promise<unknown>;
  checkTag(tag: string): Promise<boolean>;
}

/** Resources that export (collections, templates). */
export interface Exportable {
  export(path: string, exportType: string, options?: {
    force?: boolean;
    useFolder?: boolean;
    onProgress?: (progress: { bytes: number }) => void;
  }): Promise<string>;
  exportStream(exportType: string): Promise<ReadableStream<Uint8Array>>;
}

/** A collection as the commands use it. */
export type CollectionLike = ManagedResource & UserRoles & GroupRoles & Tagged & Exportable & {
  getRecords(query?: QueryParams): Promise<PageJson<ResourceJson>>;
  getCollections(query?: QueryParams): Promise<PageJson<ResourceJson>>;
  addRecordLink(recordId: number): Promise<unknown>;
  removeRecordLink(recordId: number): Promise<unknown>;
  addCollectionLink(childId: number): Promise<unknown>;
  removeCollectionLink(childId: number): Promise<unknown>;
};

/** A template as the commands use it. */
export type TemplateLike = ManagedResource & UserRoles & GroupRoles & Exportable;

/** A group as the commands use it. */
export type GroupLike = ManagedResource & UserRoles;

/** The resource of each type. */
export interface ManagedResources {
  collection: CollectionLike;
  template: TemplateLike;
  group: GroupLike;
}

/** Adds the selector of `type`: `-c/-C` (collection), `-t/-T` (template), `-g/-G` (group). */
export function resourceOptions<C extends CommandUnknownOpts>(
  command: C,
  type: ManagedType,
  options: { name?: string; char?: string } = {},
): C {
  return idIdentifierOptions(command, type, options);
}

/** The selection of `type` made on the command line (required). */
export function selectedResource(
  values: object,
  type: ManagedType,
  options: { name?: string } = {},
): { id: number } | { identifier: string } {
  const selected = idIdentifierValue(asValues(values), type, { ...options, required: true });
  if (selected === undefined || "ids" in selected) {
    throw new InputError(`Please specify the ${type} by id or identifier`);
  }
  return selected;
}

/** Opens the resource of `type` picked on the command line. */
export async function openResource<T extends ManagedType>(
  manager: CLIRepoManager,
  type: T,
  values: object,
  options: { name?: string } = {},
): Promise<ManagedResources[T]> {
  const selector = selectedResource(values, type, options);
  const opened: unknown = type === "collection"
    ? await manager.collection(selector)
    : type === "template"
    ? await manager.template(selector)
    : await manager.group(selector);
  return opened as ManagedResources[T];
}

/** Page and page size of `-p/--page` and `-n/--per-page`. */
export function pageQuery(values: object): { page: number; per_page: number } {
  const { page = 1, perPage = 10 } = asValues(values);
  return { page: Number(page), per_page: Number(perPage) };
}

/** Prints the page header the reference client prints: `Found N <what> on M page(s)…`. */
export function printPageHeader(
  manager: CLIRepoManager,
  page: PageJson<unknown>,
  what: string,
): void {
  const { total_items: items, total_pages: pages, page: current } = page._pagination;
  manager.printInfo(
    `Found ${items} ${what} on ${pages} page(s). Showing results of page ${current}:`,
  );
}

/** One line per resource of a page: id, identifier, title. */
export function printResources(manager: CLIRepoManager, items: readonly ResourceJson[]): void {
  for (const item of items) {
    manager.printInfo(
      `  id: ${item.id}, identifier: '${printable(item.identifier)}', title: '${
        printable(item.title)
      }'`,
    );
  }
}

/**
 * Server text made safe for a terminal: control characters (escape sequences, carriage returns)
 * become `?`, so a hostile title cannot rewrite the screen.
 */
export function printable(text: unknown): string {
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  return String(text ?? "").replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "?");
}
