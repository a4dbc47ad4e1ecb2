/**
 * Resources of the repository: the {@linkcode Resource} core, records (without byte transfers),
 * groups, users, search, trash and misc, and the extra-metadata helpers. Collections and
 * templates (they export) are in `lib/transfer`.
 *
 * @module
 */

export * from "./errors.ts";
export * from "./group.ts";
export * from "./metadata.ts";
export * from "./misc.ts";
export * from "./resource.ts";
export * from "./search.ts";
export * from "./user.ts";
export * from "./shared.ts";
