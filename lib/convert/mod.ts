/**
 * Conversion between plain JSON and the repository's extra metadata: a lossless JSON parser,
 * `jsonToRepo`, `repoToJson` and the date rule they share.
 *
 * @module
 */

export * from "./is_iso_date.ts";
export * from "./json_to_repo.ts";
export * from "./parse_json.ts";
export * from "./repo_to_json.ts";
