/**
 * The `collections` group: create, edit, inspect and delete collections, put records and child
 * collections in them, manage their tags and roles, search and export them.
 *
 * @module
 */

import type { Command } from "@commander-js/extra-typings";
import { changing } from "../_command_kind.ts";
import { addCommands } from "./_group.ts";
import { collectionLinkCommand, recordLinkCommand } from "./_collections_links.ts";
import { collectionsSyncCommand } from "./_collections_sync.ts";
import {
  createResourceCommand,
  deleteResourceCommand,
  editResourceCommand,
} from "./_resources_basic.ts";
import { exportResourceCommand } from "./_resources_export.ts";
import { roleCommands, tagCommands } from "./_roles.ts";
import { getResourceIdsCommand, getResourcesCommand } from "./_resources_search.ts";
import { showResourceCommand } from "./_resources_show.ts";

/**
 * Builds the `collections` group with the reference client's commands (`create`, `edit`,
 * `show-info`, `add-record-link`, `add-collection-link`, `get-collections`, `export`, …).
 */
export function collectionsCommand(group: Command): Command {
  return addCommands(group, [
    ...changing(
      () => createResourceCommand("collection"),
      () => editResourceCommand("collection"),
    ),
    () => showResourceCommand("collection"),
    ...changing(
      ...roleCommands("collection"),
      () => deleteResourceCommand("collection"),
      () => recordLinkCommand("add"),
      () => recordLinkCommand("remove"),
      () => collectionLinkCommand("add"),
      () => collectionLinkCommand("remove"),
      ...tagCommands("collection"),
    ),
    () =>
      getResourcesCommand(
        "collection",
        "-i, --use-my-user-id",
        "List the collections you created",
      ),
    () => getResourceIdsCommand("collection"),
    ...changing(
      () => exportResourceCommand("collection"),
      collectionsSyncCommand,
    ),
  ], EXAMPLES);
}

const EXAMPLES: { [command: string]: string[] } = {
  "create": [
    'repo-apy collections create -i campaign-2026 -t "Campaign 2026" -p   # prints the id',
  ],
  "show-info": ["repo-apy collections show-info -C campaign-2026 -r -s -n 50"],
  "add-record-link": ["repo-apy collections add-record-link -C campaign-2026 -R sample-17"],
  "add-collection-link": [
    "repo-apy collections add-collection-link -C campaign-2026 -L campaign-2026-week-1",
  ],
  "add-user": ["repo-apy collections add-user -C campaign-2026 -U jdoe -D local -p editor"],
  "get-collections": ["repo-apy collections get-collections -t calibrated,2026 -T and -q campaign"],
  "get-collection-ids": ["repo-apy collections get-collection-ids -t 2026 -p -s ' '"],
  "export": ["repo-apy collections export -C campaign-2026 -e ro-crate -p exports/ -u"],
  "sync": [
    "repo-apy collections sync -C campaign-2026 --from campaign/          # folder → collection",
    "repo-apy collections sync -C campaign-2026 --to campaign/ --dry-run  # what a download would do",
    "repo-apy collections sync -C campaign-2026 --from campaign/ --template sample --delete -y",
    "repo-apy collections sync -C campaign-2026 --from campaign/ --shard 3/8   # process 3 of 8",
  ],
};
