// The part of the library's `manager.misc` the `misc` commands use.

import type { PageJson } from "../../http/protocol.ts";
import type { QueryParams } from "../../http/url.ts";
import type { CLIRepoManager } from "../cli_manager.ts";

/** A trash entry. */
export interface TrashItem {
  id: number;
  identifier: string;
  type: string;
  deleted_at?: string;
}

/** Miscellaneous methods of `manager.misc`. */
export interface MiscLike {
  getDeletedResources(query: QueryParams): Promise<PageJson<TrashItem>>;
  restore(type: string, id: number): Promise<unknown>;
  purge(type: string, id: number): Promise<unknown>;
  getLicenses(
    query: QueryParams,
  ): Promise<PageJson<{ name: string; title: string; url?: string | null }>>;
  getRoles(): Promise<{ [type: string]: { name: string; permissions: { action: string }[] }[] }>;
  getTags(query: QueryParams): Promise<PageJson<{ name: string }>>;
}

/** `manager.misc`. */
export function miscOf(manager: CLIRepoManager): MiscLike {
  return (manager as unknown as { misc: MiscLike }).misc;
}
