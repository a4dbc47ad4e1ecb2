/**
 * Conversion between plain JSON and the repository's extra metadata: a lossless JSON parser,
 * `jsonToRepo`, `repoToJson` and the date rule they share.
 *
 * @example Usage
 * ```ts
 * import { jsonToRepo, parseJson, repoToJson } from "./mod.ts";
 * const extras = jsonToRepo(parseJson('{"sample": "A-17", "mass": 3}'));
 * console.log(extras);
 * // [{ key: "sample", type: "str", value: "A-17" }, { key: "mass", type: "int", value: 3 }]
 * console.log(repoToJson(extras)); // { sample: "A-17", mass: 3 }
 * ```
 *
 * @module
 */

export * from "./is_iso_date.ts";
export * from "./json_to_repo.ts";
export * from "./parse_json.ts";
export * from "./repo_to_json.ts";
