/**
 * A local repository server for tests and demos: an in-process emulation of the repository's HTTP
 * API v1 (records, files, the upload protocol, exports, links, roles, revisions, collections,
 * templates, groups, users, tags, licenses, trash) with fault injection and a request log.
 *
 * Options of {@linkcode startServer} (all optional):
 * - `port` (default 0: any free port) and `hostname` (default `127.0.0.1`);
 * - `pat`: the full-scope token of the default user `testuser` (ID 1; default random `pat_...`);
 * - `users`: more accounts, each `{ username, displayname?, identityType?, pat?, inactive? }`
 *   (`identityType` `local` by default, or `ldap`, `oidc`, `shib`), with full-scope tokens; the
 *   running server lists every account with its token in `server.users` (an inactive account's
 *   token answers 401 "This account is currently inactive.");
 * - `tls`: `{ cert, key }` PEM text to serve HTTPS;
 * - `faults`: fault rules active from the start (more with `server.addFault()`);
 * - `quota`: per-user upload quota in bytes; `storageDir`: where file bytes are kept (bodies up to
 *   1 MiB stay in memory, up to 256 MiB of them per server).
 *
 * More users and tokens with chosen scopes can be added later with `server.createUser()` and
 * `server.createToken()`. Standalone: `deno task serve --help`.
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
 * @example A second user
 * ```ts
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
 * const response = await fetch(`${server.url}/api/v1/users/me`, {
 *   headers: { Authorization: "Bearer pat_alice" },
 * });
 * console.log((await response.json()).identity.username); // "alice"
 * ```
 *
 * @module
 */
export { startServer } from "./server.ts";
export type { ServerOptions, ServerUser, ServerUserInit, TestServer } from "./server.ts";
export type { IdentityType } from "./_state.ts";
export type { Fault } from "./_faults.ts";
export type { RequestLogEntry } from "./_log.ts";
