// The part of the library's `manager.search` the CLI commands use.

import type { PageJson, ResourceJson, UserJson } from "../../http/protocol.ts";
import type { QueryParams } from "../../http/url.ts";
import type { CLIRepoManager } from "../cli_manager.ts";

/** Search methods of `manager.search`. */
export interface SearchLike {
  searchResources(type: string, params: QueryParams): Promise<PageJson<ResourceJson>>;
  searchUserResources(
    type: string,
    user: number,
    params: QueryParams,
  ): Promise<PageJson<ResourceJson>>;
  searchResourceIds(type: string, params: QueryParams): Promise<number[]>;
  searchUsers(params: QueryParams): Promise<PageJson<UserJson>>;
}

/** `manager.search`. */
export function searchOf(manager: CLIRepoManager): SearchLike {
  return (manager as unknown as { search: SearchLike }).search;
}
