// Listing commands of collections, templates and groups (`get-collections`,
// `get-collection-ids`, `get-templates`, `get-groups`), all through `manager.search`.

import {
  Command,
  type CommandUnknownOpts,
  InvalidArgumentError,
  Option,
  type OptionValues,
} from "@commander-js/extra-typings";
import { InputError } from "../../errors.ts";
import { TooManyResultsError } from "../../resources/errors.ts";
import type { SearchParams, SearchResultJson, SearchType } from "../../resources/search.ts";
import { jsonMode, readingCommand } from "../_command_kind.ts";
import { printJson, streamJson } from "../_json_output.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { searchPaginationOptions, userIdOptions } from "../options.ts";
import { type ListSource, printList } from "./_list_output.ts";
import { resourceLine } from "./_resources_common.ts";
import {
  filterParams,
  type FilterValues,
  listedUser,
  queryOption,
  tagOptions,
  visibilityOption,
} from "./_search_filters.ts";

/** Hits an ids command fetches at most without `--i-am-sure`. */
export const MAX_IDS_UNSURE = 1000;

/**
 * `collections get-collections` and `groups get-groups`: one page of search results, or the
 * resources a user created; `mineFlag` lists the token user's own ones.
 */
export function getResourcesCommand(
  type: "collection" | "group",
  mineFlag: string,
  mineHelp: string,
): CommandUnknownOpts {
  const plural = `${type}s`;
  const mine = new Option(mineFlag, mineHelp);
  // Collections: the search filters exclude the user options (as in the reference client).
  // Groups: the reference client accepts any combination, so we do, and say which filters a
  // user's list ignores.
  const userOptions = type === "collection" ? ["user", "username", mine.attributeName()] : [];
  const base = new Command(`get-${plural}`)
    .description(
      `Search ${plural} (one page), or list the ${plural} a user created. ` +
        (type === "collection"
          ? "The search filters exclude the user options: combining them is a usage error"
          : "A user's list ignores the search filters (-v, -q)"),
    );
  // Added apart from the typed chain: its flag is the caller's, so it is read by name.
  base.addOption(mine);
  const command = userIdOptions(
    searchPaginationOptions(
      base.addOption(visibilityOption(plural, userOptions)).addOption(queryOption(userOptions)),
    ),
  );
  readingCommand(command, { list: true, what: `the ${plural}` });
  if (type === "collection") tagOptions(command, userOptions);
  apyCommand(command, async (manager, options) => {
    const values: FilterValues = options;
    const user = await listedUser(manager, options, mine.attributeName());
    if (user !== undefined) warnIgnoredFilters(manager, command, values);
    await printList(
      manager,
      options,
      resourceListSource(manager, type, filterParams(values), user),
    );
  });
  return command;
}

/** Warns about each search filter given for a user's list, which does not apply there. */
function warnIgnoredFilters(
  manager: CLIRepoManager,
  command: CommandUnknownOpts,
  values: FilterValues,
): void {
  const ignored = [];
  if (command.getOptionValueSource("visibility") === "cli") ignored.push("-v/--visibility");
  if (values.query !== undefined) ignored.push("-q/--query");
  if (ignored.length === 0) return;
  manager.output.warning(
    `${ignored.join(" and ")} ${
      ignored.length === 1 ? "does" : "do"
    } not apply to the list of a user's groups: ignored.`,
  );
}

/**
 * The list of a search (`user` undefined) or of the resources a user created, for
 * {@linkcode printList}.
 */
export function resourceListSource<T extends SearchType>(
  manager: CLIRepoManager,
  type: T,
  params: SearchParams,
  user: number | undefined,
): ListSource<SearchResultJson[T]> {
  return {
    what: `${type}(s)`,
    page: (paging) =>
      user === undefined
        ? manager.search.searchResourcesPage(type, { ...params, ...paging })
        : manager.search.searchUserResources(type, user, paging),
    all: (perPage) =>
      user === undefined
        ? manager.search.searchResources(type, { ...params, perPage })
        : manager.search.userResources(type, user, { perPage }),
    line: resourceLine,
  };
}

/** `templates get-templates`: one page of templates. */
export function getTemplatesCommand(): CommandUnknownOpts {
  const command = readingCommand(
    searchPaginationOptions(
      new Command("get-templates")
        .description("Search templates (one page)")
        .addOption(queryOption()),
    ),
    { list: true, what: "the templates" },
  );
  apyCommand(command, async (manager, options) => {
    const params: SearchParams = {};
    if (options.query !== undefined) params.query = options.query;
    await printList(manager, options, resourceListSource(manager, "template", params, undefined));
  });
  return command;
}

/** `collections get-collection-ids`: the ids of every collection matching the filters. */
export function getResourceIdsCommand(type: "collection"): CommandUnknownOpts {
  const command = tagOptions(
    idsOutputOptions(
      new Command(`get-${type}-ids`)
        .description(`Print the ids of all ${type}s matching the filters`)
        .addOption(visibilityOption(`${type}s`, []))
        .addOption(queryOption()),
    ),
    [],
  );
  apyCommand(command, async (manager, options) => {
    const values: FilterValues & IdsValues = options;
    await printIds(manager, type, filterParams(values), values);
  });
  return command;
}

/**
 * `--extras <json>`: the extras filter of the record search (server-api §8.3), a JSON list such
 * as `[{"key": "temperature", "type": "numeric", "numeric": {"min": 20}}]`. Not in the
 * reference client's CLI (its library has it).
 */
export function extrasOption() {
  const option = new Option(
    "--extras <json>",
    'Extras filter as a JSON list, e.g. \'[{"key": "operator", "str": "jdoe"}]\'',
  ).argParser((value): SearchParams["extras"] => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new InvalidArgumentError("--extras is not valid JSON: give a JSON list of filters");
    }
    if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "object" && item)) {
      throw new InvalidArgumentError("--extras must be a JSON list of filter objects");
    }
    return parsed as SearchParams["extras"];
  });
  return option;
}

/**
 * Adds the output options of the ids commands: `-p/--pipe`, `-s/--separator` (default `,`),
 * `--json` and `--i-am-sure`. The command it returns has the types of `-p`, `-s` and `--i-am-sure`.
 */
export function idsOutputOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>) {
  return readingCommand(
    command
      .addOption(
        new Option(
          "-p, --pipe",
          "Print only the ids (the default too; kept for compatibility, it also drops the count " +
            "on stderr)",
        ),
      )
      .addOption(
        new Option("-s, --separator <text>", "Separator of the ids printed on stdout")
          .default(","),
      )
      .addOption(new Option("--i-am-sure", `Allow fetching more than ${MAX_IDS_UNSURE} ids`)),
    {
      what: "the ids (one array of numbers)",
      jsonlHelp: "Print each id as a JSON number on its own line on stdout",
      conflicts: ["pipe"],
    },
  );
}

/** The values of {@linkcode idsOutputOptions}. */
export interface IdsValues {
  json?: true;
  jsonl?: true;
  pipe?: true;
  iAmSure?: true;
  separator: string;
}

/**
 * Prints the ids of every resource the search finds: `--json` as a list (`--jsonl` one id per
 * line), else joined with the separator (the count on stderr unless `-p`). More than {@linkcode MAX_IDS_UNSURE} need `--i-am-sure`.
 */
export async function printIds(
  manager: CLIRepoManager,
  type: SearchType,
  params: SearchParams,
  options: IdsValues,
): Promise<void> {
  const limit = options.iAmSure === true ? Infinity : MAX_IDS_UNSURE;
  const ids = await idsOrHint(manager.search.resourceIds(type, params, { limit }), type);
  const mode = jsonMode(options);
  if (mode === "json") printJson(manager.output, ids, mode);
  else if (mode === "jsonl") await streamJson(manager.output, ids, mode);
  else {
    // The whole output is the ids: bare on stdout (with or without -p), the count on stderr.
    if (options.pipe !== true) manager.output.info(`Found ${ids.length} ${type}(s)`);
    manager.output.data(ids.join(options.separator));
  }
}

async function idsOrHint<T>(search: Promise<T>, type: string): Promise<T> {
  try {
    return await search;
  } catch (error) {
    if (!(error instanceof TooManyResultsError)) throw error;
    // A missing confirmation, like `delete` without --i-am-sure: exit 1 as in the reference.
    throw new InputError(
      `Found ${error.total} ${type}s: add --i-am-sure to fetch more than ${MAX_IDS_UNSURE} ids, ` +
        "or narrow the search",
    );
  }
}
