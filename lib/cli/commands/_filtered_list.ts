// The one builder of the list commands with a text filter (`misc get-licenses`, `get-tags`,
// `get-deleted-resources`, `users get-users`): `-f/--filter`, the command's own options, `-p/--page`
// and `-n/--per-page`, `--json`/`--jsonl`, and an action that prints one page as text or every
// item as JSON (`printList`).

import { Command, type CommandUnknownOpts, type Option } from "@commander-js/extra-typings";
import type { PageJson } from "../../http/protocol.ts";
import { readingCommand } from "../_command_kind.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { searchPaginationOptions } from "../options.ts";
import { type Paging, printList } from "./_list_output.ts";

/** The query of a filtered list: `filter` when `-f` is given, and the command's own values. */
export type FilterQuery<P> = P & { filter?: string };

/** What a filtered list command is called, offers and lists. */
export interface FilteredListSpec<T, P extends object> {
  /** The command's name, e.g. `get-licenses`. */
  name: string;
  /** The command's help line. */
  description: string;
  /** The help of `-f/--filter`. */
  filterHelp: string;
  /** Options of this command, shown after `-f/--filter` (`get-tags`' `-t/--type`). */
  options?: Option[];
  /** What `--json` prints, for its help, e.g. `the licenses`. */
  json: string;
  /** What is listed, for the text header, e.g. `license(s)`. */
  what: string;
  /** The query values of this command's own options. */
  query?: (values: object) => P;
  /** One page. */
  page: (manager: CLIRepoManager, query: FilterQuery<P> & Paging) => Promise<PageJson<T>>;
  /** Every item, `perPage` at a time. */
  all: (manager: CLIRepoManager, query: FilterQuery<P> & { perPage: number }) => AsyncIterable<T>;
  /** One item as a text line. */
  line: (item: T) => string;
}

/** Builds a list command with `-f/--filter` from its {@linkcode FilteredListSpec}. */
export function filteredListCommand<T, P extends object = Record<never, never>>(
  spec: FilteredListSpec<T, P>,
): CommandUnknownOpts {
  const command = new Command(spec.name)
    .description(spec.description)
    .option("-f, --filter <text>", spec.filterHelp, "");
  for (const option of spec.options ?? []) command.addOption(option);
  readingCommand(searchPaginationOptions(command), { list: true, what: spec.json });
  apyCommand(command, async (manager, options) => {
    const query: FilterQuery<P> = {
      ...(options.filter ? { filter: options.filter } : {}),
      ...spec.query?.(options) as P,
    };
    await printList(manager, options, {
      what: spec.what,
      page: (paging) => spec.page(manager, { ...paging, ...query }),
      all: (perPage) => spec.all(manager, { perPage, ...query }),
      line: spec.line,
    });
  });
  return command;
}
