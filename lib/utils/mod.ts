/**
 * Utilities: identifiers from arbitrary text, file-name globs, safe local names for server names,
 * resource types.
 *
 * @module
 */

export * from "./file_name.ts";
export * from "./glob.ts";
export * from "./identifier.ts";
export * from "./resource_type.ts";
export * from "./part_file.ts";
