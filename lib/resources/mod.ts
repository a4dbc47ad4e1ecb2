/**
 * Resources of the repository: the {@linkcode Resource} base, records (without byte transfers),
 * users, and the extra-metadata helpers.
 *
 * @example Usage
 * ```ts
 * import { flattenExtras } from "./mod.ts";
 * console.log(flattenExtras([{ key: "a", type: "int", value: 1 }])); // [{ key: "a", type: "int", value: 1 }]
 * ```
 *
 * @module
 */

export * from "./resource.ts";
export * from "./record.ts";
export * from "./metadata.ts";
export * from "./user.ts";
export { RoleResource } from "./_roles.ts";
export { type FileChanges, RecordFileResource } from "./_record_files.ts";
