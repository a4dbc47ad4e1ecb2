/**
 * Capability: the trash state of a record, collection, template or group — restore and purge
 * (`<base>/<id>/restore|purge`), and the trash listing (`/trash`).
 *
 * @module
 */

import { InputError } from "../../errors.ts";
import type { PageJson, ResourceJson, TrashItemJson } from "../../http/protocol.ts";
import { purgePath, restorePath, TRASH_PATH, type TrashableType } from "../../http/paths.ts";
import type { Transport } from "../../http/transport.ts";
import type { QueryParams } from "../../http/url.ts";
import { allItems, getPage, send } from "./context.ts";

/** Resource types with a trash. */
const TRASHABLE_TYPES: readonly TrashableType[] = [
  "record",
  "collection",
  "template",
  "group",
];

/**
 * Checks a resource type against the types with a trash.
 *
 * @param type The type, as a user gave it.
 * @returns The type.
 * @throws {InputError} When the type has no trash.
 */
function checkTrashable(type: string): TrashableType {
  if (!(TRASHABLE_TYPES as readonly string[]).includes(type)) {
    throw new InputError(
      `The type '${type}' has no trash: use one of ${TRASHABLE_TYPES.join(", ")}`,
    );
  }
  return type as TrashableType;
}

/**
 * Restores a deleted resource (POST `<base>/<id>/restore`; only its creator may).
 *
 * @param transport The transport.
 * @param ref The resource's type and id.
 * @returns The restored resource.
 */
export async function restoreResource(
  transport: Transport,
  ref: { type: string; id: number },
): Promise<ResourceJson> {
  return await transport.jsonObject("POST", restorePath(checkTrashable(ref.type), ref.id), {
    shape: { id: "number" },
  });
}

/**
 * Deletes a resource in the trash for good (POST `<base>/<id>/purge`; records are purged
 * asynchronously, 202).
 *
 * @param transport The transport.
 * @param ref The resource's type and id.
 */
export async function purgeResource(
  transport: Transport,
  ref: { type: string; id: number },
): Promise<void> {
  await send(transport, "POST", purgePath(checkTrashable(ref.type), ref.id));
}

/**
 * One page of your deleted resources, newest deletion first.
 *
 * @param transport The transport.
 * @param query `filter` (identifier), `page`, `per_page`.
 * @returns The page.
 */
export async function getDeletedResources(
  transport: Transport,
  query: QueryParams = {},
): Promise<PageJson<TrashItemJson>> {
  return await getPage(transport, TRASH_PATH, query);
}

/**
 * Every deleted resource of yours.
 *
 * @param transport The transport.
 * @param query `filter` (identifier).
 * @returns An async iterator over the trash items.
 */
export function deletedResources(
  transport: Transport,
  query: QueryParams = {},
): AsyncGenerator<TrashItemJson, void, undefined> {
  return allItems(transport, TRASH_PATH, query);
}
