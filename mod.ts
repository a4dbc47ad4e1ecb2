/**
 * repo-apy: a client for the HTTP API v1 of a research data repository (records, files, extra
 * metadata, collections, templates, groups, users, search, trash, revisions, import/export).
 *
 * Importing this module needs no permission. Each operation needs only what it touches:
 * `--allow-net=<host>` for requests, `--allow-read`/`--allow-write` for the files it streams,
 * and `--allow-env=REPO_APY_CONFIG,HOME` plus read access to the config file only when the
 * config file is used (host or PAT not given directly).
 *
 * @example Usage
 * ```ts
 * import { RepoManager } from "@repo/apy";
 * import { startServer } from "@repo/apy/testing";
 *
 * await using server = await startServer();
 * await using manager = new RepoManager({ host: server.url, pat: server.pat });
 * const record = await manager.record({ identifier: "sample-1", create: true, title: "Sample 1" });
 * await record.uploadString("hello", "hello.txt");
 * console.log((await record.getFileByName("hello.txt")).size); // 5
 * ```
 *
 * @module
 */

export * from "./lib/http/mod.ts";
export * from "./lib/config/mod.ts";
export * from "./lib/utils/mod.ts";
export * from "./lib/resources/mod.ts";
export * from "./lib/transfer/mod.ts";
export * from "./lib/convert/mod.ts";
export * from "./lib/import/mod.ts";
export * from "./lib/manager/mod.ts";
