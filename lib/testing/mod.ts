/**
 * A local repository server for tests and demos: an in-process emulation of the repository's HTTP
 * API v1 (records, files, the upload protocol, exports, links, roles, revisions, collections,
 * groups, users, trash) with fault injection and a request log.
 *
 * @example Usage
 * ```ts
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer({ faults: [{ path: "/info", status: 503, nth: 1 }] });
 * const headers = { Authorization: `Bearer ${server.pat}` };
 * const first = await fetch(`${server.url}/api/v1/info`, { headers });
 * await first.body?.cancel(); // 503 once
 * const second = await fetch(`${server.url}/api/v1/info`, { headers });
 * console.log(await second.json()); // { version: "1.13.0" }
 * ```
 *
 * @module
 */
export { startServer } from "./server.ts";
export type { ServerOptions, TestServer } from "./server.ts";
export type { Fault } from "./_faults.ts";
export type { RequestLogEntry } from "./_log.ts";
