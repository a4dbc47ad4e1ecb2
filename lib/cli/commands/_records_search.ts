// `records get-records` and `get-record-ids`: `manager.search` with the search filters (or a
// user's records).

import {
  Command,
  type CommandUnknownOpts,
  Option,
  type OptionValues,
} from "@commander-js/extra-typings";
import { readingCommand } from "../_command_kind.ts";
import { apyCommand } from "../apy_command.ts";
import {
  parseInteger,
  parseTokenList,
  searchPaginationOptions,
  userIdOptions,
} from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { printList } from "./_list_output.ts";
import {
  extrasOption,
  idsOutputOptions,
  type IdsValues,
  printIds,
  resourceListSource,
} from "./_resources_search.ts";
import {
  filterParams,
  type FilterValues,
  listedUser,
  queryOption,
  tagOptions,
  tokenListOption,
  visibilityOption,
} from "./_search_filters.ts";

const USER_OPTIONS = ["user", "username", "useMyUserId"];

/**
 * Adds the filter options; with `conflicts`, each one excludes the user options (the reference
 * client's "exclude options": commander rejects the combination in either order, exit 2). The
 * command it returns has their types.
 */
function filterOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>, conflicts: string[]) {
  const collection = new Option("-c, --collection <ids>", "Comma-separated collection ids")
    .argParser((value) => parseTokenList(value).map((token) => parseInteger(token, { min: 1 })))
    .conflicts(conflicts);
  setOptionType(collection, "tokenlist");
  return tagOptions(command, conflicts, "records")
    .addOption(tokenListOption("-m, --mimetype <types>", "Comma-separated MIME types", conflicts))
    .addOption(collection)
    .addOption(
      new Option("-C, --child_collections", "Include records of child collections")
        .conflicts(conflicts),
    )
    .addOption(visibilityOption("records", conflicts))
    .addOption(queryOption(conflicts))
    .addOption(extrasOption().conflicts(conflicts));
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
          .addOption(new Option("-i, --use-my-user-id", "List the records you created")),
      ),
    ),
    USER_OPTIONS,
  );
  readingCommand(command, { list: true, what: "the records" });
  apyCommand(command, async (manager, options) => {
    const values: FilterValues = options;
    const user = await listedUser(manager, options, "useMyUserId");
    await printList(
      manager,
      options,
      resourceListSource(manager, "record", filterParams(values), user),
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
    const values: FilterValues & IdsValues = options;
    await printIds(manager, "record", filterParams(values), values);
  });
  return command;
}
