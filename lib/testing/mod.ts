/**
 * A local repository server for tests and demos: an in-process emulation of the repository's HTTP
 * API v1 (records, files, the upload protocol, exports, links, roles, revisions, collections,
 * templates, groups, users, tags, licenses, trash), so that the library's tests and examples run
 * without a real host. It can inject the faults a real server shows rarely (an error status, a
 * broken connection, a slow answer) and logs every request, so a test can see what was sent.
 * {@linkcode startServer} shows it; standalone: `deno task serve --help`.
 *
 * @module
 */
export { startServer } from "./server.ts";
export type { ServerOptions, ServerUser, ServerUserInit, TestServer } from "./server.ts";
export type { IdentityType } from "./_state.ts";
export type { Fault } from "./_faults.ts";
export type { RequestLogEntry } from "./_log.ts";
