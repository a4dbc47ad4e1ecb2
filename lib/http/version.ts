/**
 * The client's version and `User-Agent`, read from `deno.json` so they are never typed twice.
 *
 * @example Usage
 * ```ts
 * import { USER_AGENT, VERSION } from "./version.ts";
 * console.log(USER_AGENT === `repo-apy/${VERSION}`); // true
 * ```
 *
 * @module
 */

import denoJson from "../../deno.json" with { type: "json" };

/** Version of repo-apy. */
export const VERSION: string = denoJson.version;

/** `User-Agent` header value sent with every request. */
export const USER_AGENT: string = `repo-apy/${VERSION}`;
