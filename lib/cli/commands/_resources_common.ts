// Shared helpers of the `collections`, `templates` and `groups` commands: the selector options,
// opening the resource through the manager, and the shapes of the library's typed resources the
// commands use.

import { terminalLine } from "../_terminal_text.ts";
import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import type { PageJson, ResourceJson } from "../../http/protocol.ts";
import type { RepoGroup } from "../../resources/group.ts";
import type { RepoCollection } from "../../model/collection.ts";
import type { RepoTemplate } from "../../model/template.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { idIdentifierOptions, idIdentifierValue } from "../options.ts";
import { asValues } from "./_records_common.ts";
import { InputError } from "../../errors.ts";

/** The resource types these groups manage. */
export type ManagedType = "collection" | "template" | "group";

/** The resource of each type. */
export interface ManagedResources {
  collection: RepoCollection;
  template: RepoTemplate;
  group: RepoGroup;
}

/** Any of the managed resources. */
export type ManagedResource = ManagedResources[ManagedType];

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
  const opened: ManagedResource = type === "collection"
    ? await manager.collection(selector)
    : type === "template"
    ? await manager.template(selector)
    : await manager.group(selector);
  return opened as ManagedResources[T];
}

/** Page and page size of `-p/--page` and `-n/--per-page`. */
export function pageParams(values: object): { page: number; perPage: number } {
  const { page = 1, perPage = 10 } = asValues(values);
  return { page: Number(page), perPage: Number(perPage) };
}

/** Prints the page header the reference client prints: `Found N <what> on M page(s)…`. */
function printPageHeader(
  manager: CLIRepoManager,
  page: PageJson<unknown>,
  what: string,
): void {
  const { total_items: items, total_pages: pages, page: current } = page._pagination;
  manager.output.text(
    `Found ${items} ${what} on ${pages} page(s). Showing results of page ${current}:`,
  );
}

/** One resource as a list line: id, identifier, title. */
export function resourceLine(item: Pick<ResourceJson, "id" | "identifier" | "title">): string {
  return `id: ${item.id}, identifier: '${terminalLine(item.identifier)}', title: '${
    terminalLine(item.title)
  }'`;
}

/**
 * Prints one page of a list as text: the reference client's header and one indented `line` per
 * item (JSON output: `printList` in `_list_output.ts`).
 */
export function printPage<T>(
  manager: CLIRepoManager,
  page: PageJson<T>,
  options: { what: string; line: (item: T) => string },
): void {
  printPageHeader(manager, page, options.what);
  for (const item of page.items) manager.output.text(`  ${options.line(item)}`);
}
