/**
 * The transport layer: one {@linkcode Transport} per repository, errors, the retry policy,
 * pagination and the wire protocol's names and constants.
 *
 * @example Usage
 * ```ts
 * import { parseRetryAfter, UPLOAD_CHUNK_SIZE } from "./mod.ts";
 * console.log(parseRetryAfter("3"), UPLOAD_CHUNK_SIZE); // 3000 10000000
 * ```
 *
 * @module
 */

export * from "../errors.ts";
export * from "./errors.ts";
export * from "./list_options.ts";
export * from "./log.ts";
export * from "./paginate.ts";
export * from "./pacer.ts";
export * from "./protocol.ts";
export * from "./retry.ts";
export * from "./transport.ts";
export * from "./url.ts";
export * from "./version.ts";
