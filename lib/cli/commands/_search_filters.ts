// The search filters the listing commands share (`get-records`, `get-record-ids`,
// `get-collections`, `get-collection-ids`, `get-groups`, `get-templates`): their options, the
// search parameters they make, and the user whose resources `-i`/`-u`/`-U` list instead.

import { type Command, Option, type OptionValues } from "@commander-js/extra-typings";
import type { SearchParams } from "../../resources/search.ts";
import type { CLIRepoManager } from "../cli_manager.ts";
import { InputError } from "../../errors.ts";
import { parseTokenList, userIdValue } from "../options.ts";
import { setOptionType } from "../_tree.ts";
import { asValues, resolveUser } from "./_records_common.ts";

const VISIBILITY_CHOICES = ["private", "public", "all"] as const;

/** The filter values of the listing commands; each command reads those it offers. */
export interface FilterValues {
  tag?: string[] | undefined;
  tagOperator?: "or" | "and";
  mimetype?: string[] | undefined;
  collection?: number[] | undefined;
  child_collections?: true | undefined;
  visibility?: "private" | "public" | "all";
  query?: string | undefined;
  extras?: SearchParams["extras"] | undefined;
}

/** An option with a comma-separated list (`-t a,b`), excluding `conflicts`. */
export function tokenListOption<Flags extends string>(
  flags: Flags,
  description: string,
  conflicts: string[],
) {
  const option = new Option(flags, description)
    .argParser((value) => parseTokenList(value))
    .conflicts(conflicts);
  setOptionType(option, "tokenlist");
  return option;
}

/**
 * Adds `-t/--tag` (excluding `conflicts`) and `-T/--tag-operator`; `what` the help names. The
 * command it returns has their types (`tag`, `tagOperator`).
 */
export function tagOptions<
  Args extends unknown[],
  Opts extends OptionValues,
  Global extends OptionValues,
>(command: Command<Args, Opts, Global>, conflicts: string[], what = "results") {
  return command
    .addOption(tokenListOption("-t, --tag <tags>", "Comma-separated tags", conflicts))
    .addOption(
      new Option("-T, --tag-operator <operator>", `Whether ${what} need any (or) or all tags`)
        .choices(["or", "and"] as const).default("or" as const).conflicts(conflicts),
    );
}

/** `-v/--visibility` (default `all`) of `what`, excluding `conflicts`. */
export function visibilityOption(what: string, conflicts: string[]) {
  return new Option("-v, --visibility <visibility>", `Visibility of the ${what}`)
    .choices(VISIBILITY_CHOICES).default("all" as const).conflicts(conflicts);
}

/** `-q/--query`, excluding `conflicts`. */
export function queryOption(conflicts: string[] = []) {
  return new Option("-q, --query <text>", "Search text (title and identifier)")
    .conflicts(conflicts);
}

/** The search parameters of the filter values (visibility `all` is not sent). */
export function filterParams(values: FilterValues): SearchParams {
  const params: SearchParams = {};
  if (values.query !== undefined) params.query = values.query;
  if (values.extras !== undefined) params.extras = values.extras;
  if (values.visibility !== undefined && values.visibility !== "all") {
    params.visibility = values.visibility;
  }
  if (values.tag !== undefined && values.tag.length > 0) {
    params.tags = values.tag;
    params.tagOperator = values.tagOperator ?? "or";
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

/**
 * The user whose resources are listed: the token's user when the `mine` flag (its attribute
 * name) is set, the one `-u`/`-U` name, or undefined for a search.
 */
export async function listedUser(
  manager: CLIRepoManager,
  options: object,
  mine: string,
): Promise<number | undefined> {
  const values = asValues(options);
  if (values[mine] === true) {
    if (userIdValue(values) !== undefined) {
      // Exit 1, as the Python client: its exit code wins over the usage code 2.
      throw new InputError("Please specify either a user (-u, or -U with -D) or the flag '-i'");
    }
    return (await manager.patUser()).id;
  }
  if (userIdValue(values) === undefined) return undefined;
  return (await resolveUser(manager, values)).id;
}
