// The output of every list command (a command declared with `readingCommand(…, { list: true })`):
// the reference client's page text, or JSON. With `--json`/`--jsonl` and no `-p/--page`, every
// item is streamed from the library's iterator, page after page; with `-p`, one page is printed.

import type { PageJson } from "../../http/protocol.ts";
import { MAX_PER_PAGE } from "../../http/protocol.ts";
import { jsonMode } from "../_command_kind.ts";
import { printJson, streamJson } from "../_json_output.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { printPage } from "./_resources_common.ts";

/** Page and page size of one request. */
export interface Paging {
  page: number;
  perPage: number;
}

/** How a list command gets its items and prints them as text. */
export interface ListSource<T> {
  /** What is listed, for the text header, e.g. `record(s)`. */
  what: string;
  /** One item as a text line. */
  line: (item: T) => string;
  /** One page. */
  page: (paging: Paging) => Promise<PageJson<T>>;
  /** Every item, fetched `perPage` at a time, a few pages ahead of the output (the library's iterator). */
  all: (perPage: number) => AsyncIterable<T>;
}

/** The values a list command reads: `-p/--page`, `-n/--per-page`, `--json`, `--jsonl`. */
export interface ListValues {
  page?: unknown;
  perPage?: unknown;
  json?: unknown;
  jsonl?: unknown;
}

/**
 * Prints a list: text (one page), `--json`/`--jsonl` of one page with `-p`, or without `-p` every
 * item streamed from {@linkcode ListSource.all} (`-n` sets the page size, default the maximum).
 */
export async function printList<T>(
  manager: CLIRepoManager,
  options: object,
  source: ListSource<T>,
): Promise<void> {
  const values = options as ListValues;
  const mode = jsonMode(values);
  const perPage = values.perPage === undefined ? undefined : Number(values.perPage);
  if (mode !== undefined && values.page === undefined) {
    await streamJson(manager.output, source.all(perPage ?? MAX_PER_PAGE), mode);
    return;
  }
  const page = await source.page({ page: Number(values.page ?? 1), perPage: perPage ?? 10 });
  if (mode === "json") printJson(manager.output, page, mode);
  else if (mode === "jsonl") await streamJson(manager.output, page.items, mode);
  else printPage(manager, page, { what: source.what, line: source.line });
}
