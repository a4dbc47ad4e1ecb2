// Listing commands of collections, templates and groups (`get-collections`,
// `get-collection-ids`, `get-templates`, `get-groups`), all through `manager.search`.

import { Command, type CommandUnknownOpts, Option } from "@commander-js/extra-typings";
import { InputError } from "../../http/errors.ts";
import type { PageJson, ResourceJson } from "../../http/protocol.ts";
import type { QueryParams } from "../../http/url.ts";
import { apyCommand } from "../apy_command.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { parseTokenList, searchPaginationOptions, userIdOptions, userIdValue } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { resolveUser } from "./_records_common.ts";
import {
  type ManagedType,
  pageQuery,
  printPageHeader,
  printResources,
} from "./_resources_common.ts";
import { searchOf } from "./_search.ts";

/** Hits an ids command fetches at most without `--i-am-sure`. */
export const MAX_IDS_UNSURE = 1000;

const VISIBILITY_CHOICES = ["private", "public", "all"] as const;

/** The filter values the listing commands read. */
interface FilterValues {
  tag?: string[] | undefined;
  tagOperator?: "or" | "and";
  visibility?: "private" | "public" | "all";
  query?: string | undefined;
}

/** `-t/--tag`, `-T/--tag-operator`. */
function tagOptions<C extends CommandUnknownOpts>(command: C, conflicts: string[]): C {
  const tag = new Option("-t, --tag <tags>", "Comma-separated tags")
    .argParser((value) => parseTokenList(value))
    .conflicts(conflicts);
  setOptionType(tag, "tokenlist");
  command.addOption(tag).addOption(
    new Option("-T, --tag-operator <operator>", "Whether results need any (or) or all tags")
      .choices(["or", "and"] as const).default("or" as const),
  );
  return command;
}

function visibilityOption(what: string, conflicts: string[]) {
  return new Option("-v, --visibility <visibility>", `Visibility of the ${what}`)
    .choices(VISIBILITY_CHOICES).default("all" as const).conflicts(conflicts);
}

/** The search parameters of the filter options (`all` is not sent). */
function filterQuery(values: FilterValues): QueryParams {
  const query: QueryParams = {};
  if (values.query !== undefined) query.query = values.query;
  if (values.visibility !== undefined && values.visibility !== "all") {
    query.visibility = values.visibility;
  }
  if (values.tag !== undefined && values.tag.length > 0) {
    query.tag = values.tag;
    query.tag_operator = values.tagOperator ?? "or";
  }
  return query;
}

/** The user whose resources to list: `-i` (the token's user), `-u`, `-U -D`, or none. */
async function listedUser(
  manager: CLIRepoManager,
  values: { mine?: true | undefined; [key: string]: unknown },
): Promise<number | undefined> {
  if (values.mine === true) return (await manager.patUser()).id;
  if (userIdValue(values) === undefined) return undefined;
  return (await resolveUser(manager, values)).id;
}

async function printPage(
  manager: CLIRepoManager,
  page: PageJson<ResourceJson>,
  what: string,
  json: boolean | undefined,
): Promise<void> {
  if (json === true) {
    manager.output.json(page);
    return;
  }
  printPageHeader(manager, page, what);
  printResources(manager, page.items);
  await Promise.resolve();
}

/**
 * `collections get-collections` and `groups get-groups`: one page of search results, or the
 * resources a user created. With `mineFlag`, the flag that lists the token user's own ones.
 */
export function getResourcesCommand(
  type: "collection" | "group",
  mineFlag: string,
  mineHelp: string,
): CommandUnknownOpts {
  const plural = `${type}s`;
  const mineName = mineFlag.replace(/^.*--/, "").replace(
    /-([a-z])/g,
    (_, c: string) => c.toUpperCase(),
  );
  const userOptions = ["user", "username", mineName];
  const command = userIdOptions(
    searchPaginationOptions(
      new Command(`get-${plural}`)
        .description(
          `Search ${plural} (one page), or list the ${plural} of a user. The search filters ` +
            "exclude the user options: combining them is a usage error",
        )
        .addOption(new Option(mineFlag, mineHelp).conflicts(["user", "username"]))
        .addOption(visibilityOption(plural, userOptions))
        .addOption(
          new Option("-q, --query <text>", "Search text (title and identifier)")
            .conflicts(userOptions),
        )
        .option("--json", "Print the page as the server sends it (JSON) on stdout"),
    ),
  );
  if (type === "collection") tagOptions(command, userOptions);
  apyCommand(command, async (manager, options) => {
    const values = options as unknown as FilterValues & { [key: string]: unknown };
    const user = await listedUser(manager, {
      ...values,
      mine: values[mineName] === true ? true : undefined,
    });
    const paging = pageQuery(options);
    const search = searchOf(manager);
    const page = user === undefined
      ? await search.searchResources(type, { ...filterQuery(values), ...paging })
      : await search.searchUserResources(type, user, paging);
    await printPage(manager, page, `${type}(s)`, options.json);
  });
  return command;
}

/** `templates get-templates`: one page of templates. */
export function getTemplatesCommand(): CommandUnknownOpts {
  const command = searchPaginationOptions(
    new Command("get-templates")
      .description("Search templates (one page)")
      .option("-q, --query <text>", "Search text (title and identifier)")
      .option("--json", "Print the page as the server sends it (JSON) on stdout"),
  );
  apyCommand(command, async (manager, options) => {
    const query: QueryParams = { ...pageQuery(options) };
    if (options.query !== undefined) query.query = options.query;
    const page = await searchOf(manager).searchResources("template", query);
    await printPage(manager, page, "template(s)", options.json);
  });
  return command;
}

/** `collections get-collection-ids`: the ids of every collection matching the filters. */
export function getResourceIdsCommand(type: "collection"): CommandUnknownOpts {
  const command = tagOptions(
    new Command(`get-${type}-ids`)
      .description(`Print the ids of all ${type}s matching the filters`)
      .addOption(visibilityOption(`${type}s`, []))
      .option("-q, --query <text>", "Search text (title and identifier)")
      .option("-p, --pipe", "Print only the ids, separated by -s/--separator, on stdout")
      .option("-s, --separator <text>", "Separator of the ids with -p/--pipe", ",")
      .addOption(
        new Option("--json", "Print the ids as a JSON array on stdout").conflicts("pipe"),
      )
      .option("--i-am-sure", `Allow fetching more than ${MAX_IDS_UNSURE} ids`),
    [],
  );
  apyCommand(command, async (manager, options) => {
    const values = options as unknown as FilterValues;
    const ids = await collectIds(manager, type, filterQuery(values), options.iAmSure === true);
    if (options.json === true) {
      manager.output.json(ids);
      return;
    }
    if (options.pipe === true) {
      manager.echo(ids.join(options.separator));
      return;
    }
    manager.printInfo(`Found ${ids.length} ${type}(s): ${ids.join(", ")}`);
  });
  return command;
}

/** Every id the search finds, refusing more than {@linkcode MAX_IDS_UNSURE} unless `sure`. */
export async function collectIds(
  manager: CLIRepoManager,
  type: ManagedType | "record",
  query: QueryParams,
  sure: boolean,
): Promise<number[]> {
  const search = searchOf(manager);
  const first = await search.searchResources(type, { ...query, page: 1, per_page: 1 });
  const total = first._pagination.total_items;
  if (total > MAX_IDS_UNSURE && !sure) {
    throw new InputError(
      `Found ${total} ${type}s: add --i-am-sure to fetch more than ${MAX_IDS_UNSURE} ids, ` +
        "or narrow the search",
    );
  }
  return await search.searchResourceIds(type, query);
}
