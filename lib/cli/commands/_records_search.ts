// `records get-records` and `get-record-ids`: `manager.search` with the search filters (or a
// user's records).

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import type { SearchParams } from "../../resources/search.ts";
import { readingCommand } from "../_command_kind.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import {
  parseInteger,
  parseTokenList,
  searchPaginationOptions,
  userIdOptions,
  userIdValue,
} from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { resolveUser } from "./_records_common.ts";
import { printList } from "./_list_output.ts";
import {
  extrasOption,
  idsOutputOptions,
  type IdsValues,
  printIds,
  resourceListSource,
} from "./_resources_search.ts";

const USER_OPTIONS = ["user", "username", "useMyUserId"];

/** The filter values both search commands read. */
interface FilterValues {
  tag?: string[] | undefined;
  tagOperator: "or" | "and";
  mimetype?: string[] | undefined;
  collection?: number[] | undefined;
  child_collections?: true | undefined;
  visibility: "private" | "public" | "all";
  query?: string | undefined;
  extras?: SearchParams["extras"] | undefined;
}

function tokenOption(flags: string, description: string, conflicts: string[]) {
  const option = new Option(flags, description)
    .argParser((value) => parseTokenList(value))
    .conflicts(conflicts);
  setOptionType(option, "tokenlist");
  return option;
}

/**
 * Adds the filter options; with `conflicts`, each one excludes the user options (the reference
 * client's "exclude options": commander rejects the combination in either order, exit 2).
 */
function filterOptions<C extends CommandUnknownOpts>(command: C, conflicts: string[]): C {
  const collection = new Option("-c, --collection <ids>", "Comma-separated collection ids")
    .argParser((value) => parseTokenList(value).map((token) => parseInteger(token, { min: 1 })))
    .conflicts(conflicts);
  setOptionType(collection, "tokenlist");
  command
    .addOption(tokenOption("-t, --tag <tags>", "Comma-separated tags", conflicts))
    .addOption(
      new Option("-T, --tag-operator <operator>", "Whether records need any (or) or all tags")
        .choices(["or", "and"] as const).default("or" as const),
    )
    .addOption(tokenOption("-m, --mimetype <types>", "Comma-separated MIME types", conflicts))
    .addOption(collection)
    .addOption(
      new Option("-C, --child_collections", "Include records of child collections")
        .conflicts(conflicts),
    )
    .addOption(
      new Option("-v, --visibility <visibility>", "Visibility of the records")
        .choices(["private", "public", "all"] as const).default("all" as const)
        .conflicts(conflicts),
    )
    .addOption(
      new Option("-q, --query <text>", "Search text (title and identifier)").conflicts(conflicts),
    )
    .addOption(extrasOption().conflicts(conflicts));
  return command;
}

function searchParams(values: FilterValues): SearchParams {
  const params: SearchParams = {};
  if (values.query !== undefined) params.query = values.query;
  if (values.extras !== undefined) params.extras = values.extras;
  if (values.visibility !== "all") params.visibility = values.visibility;
  if (values.tag !== undefined && values.tag.length > 0) {
    params.tags = values.tag;
    params.tagOperator = values.tagOperator;
  }
  if (values.mimetype !== undefined && values.mimetype.length > 0) {
    params.mimetypes = values.mimetype;
  }
  if (values.collection !== undefined && values.collection.length > 0) {
    params.collections = values.collection;
    if (values.child_collections === true) params.childCollections = true;
  }
  return params;
}

/** The user whose records are listed (`-i`, `-u`, `-U`), or undefined for a search. */
async function listedUser(
  manager: CLIRepoManager,
  values: { useMyUserId?: true | undefined; [key: string]: unknown },
): Promise<number | undefined> {
  if (values.useMyUserId === true) return (await manager.patUser()).id;
  if (userIdValue(values) === undefined) return undefined;
  return (await resolveUser(manager, values)).id;
}

/** `records get-records`: one page of records matching the filters. */
export function getRecordsCommand(): CommandUnknownOpts {
  const command = filterOptions(
    userIdOptions(
      searchPaginationOptions(
        new Command("get-records")
          .description(
            "Search records (one page), or list the records a user created. The search " +
              "filters (-t, -m, -c, -C, -v, -q) exclude the user options (-u, -U, -i): " +
              "combining them is a usage error",
          )
          .addOption(
            new Option("-i, --use-my-user-id", "List the records you created")
              .conflicts(["user", "username"]),
          ),
      ),
    ),
    USER_OPTIONS,
  );
  readingCommand(command, { list: true, what: "the records" });
  apyCommand(command, async (manager, options) => {
    const values = options as unknown as FilterValues & { [key: string]: unknown };
    const user = await listedUser(manager, values);
    await printList(
      manager,
      options,
      resourceListSource(manager, "record", searchParams(values), user),
    );
  });
  return command;
}

/** `records get-record-ids`: the ids of all records matching the filters. */
export function getRecordIdsCommand(): CommandUnknownOpts {
  const command = filterOptions(
    idsOutputOptions(
      new Command("get-record-ids").description(
        "Print the ids of all records matching the filters",
      ),
    ),
    [],
  );
  apyCommand(command, async (manager, options) => {
    const values = options as unknown as FilterValues & IdsValues;
    await printIds(manager, "record", searchParams(values), values);
  });
  return command;
}
