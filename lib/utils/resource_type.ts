/**
 * The resource types of the repository and a checked lookup by name (the spec's
 * `utils.RESOURCE_TYPES` and `utils.get_resource_type`).
 *
 * @module
 */

import { InputError } from "../errors.ts";

/**
 * The resource types (users are not resources in this sense), in the reference's order.
 *
 * @example Usage
 * ```ts
 * import { RESOURCE_TYPES } from "./resource_type.ts";
 * console.log(RESOURCE_TYPES.includes("group")); // true
 * ```
 */
export const RESOURCE_TYPES = ["record", "collection", "group", "template"] as const;

/** One of {@link RESOURCE_TYPES}. */
export type RepoResourceType = typeof RESOURCE_TYPES[number];

/**
 * Looks a resource type up by name (case and surrounding spaces ignored). The library has no
 * class per type to return as the reference does; the checked name is what every factory
 * (`manager.record`, `manager.collection`, …) and trash function takes.
 *
 * @example Usage
 * ```ts
 * import { getResourceType } from "./resource_type.ts";
 * console.log(getResourceType("collection")); // "collection"
 * try {
 *   getResourceType("sample");
 * } catch (error) {
 *   console.log((error as Error).message); // "Resource type 'sample' does not exist: use record, collection, group or template"
 * }
 * ```
 *
 * @param name The type's name.
 * @returns The type.
 * @throws {InputError} When no resource type has that name.
 */
export function getResourceType(name: string): RepoResourceType {
  const wanted = name.trim().toLowerCase();
  const found = RESOURCE_TYPES.find((type) => type === wanted);
  if (found === undefined) {
    throw new InputError(
      `Resource type '${name}' does not exist: use record, collection, group or template`,
    );
  }
  return found;
}
