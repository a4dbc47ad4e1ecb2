// Helpers of the `records` CLI tests: run the CLI in-process against a local server, temp dirs,
// and direct API access for setting up fixtures.

import { RepoManager } from "../../lib/manager/repo_manager.ts";
import type { TestServer } from "../../lib/testing/mod.ts";
import { runCli } from "../../lib/cli/run.ts";

/** What one in-process CLI run produced. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `repo-apy <args>` in-process against `server` (host and PAT passed directly). */
export async function repo(
  server: TestServer,
  args: string[],
  options: { pat?: string } = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    version: "0.0.0-test",
    stdout: (text) => stdout += text,
    stderr: (text) => stderr += text,
    managerOptions: { host: server.url, pat: options.pat ?? server.pat, retry: { maxAttempts: 1 } },
  });
  return { code, stdout, stderr };
}

/** Runs `repo-apy records <args>` and fails the test unless it exits 0. */
export async function ok(server: TestServer, args: string[]): Promise<Run> {
  const run = await repo(server, ["records", ...args]);
  if (run.code !== 0) {
    throw new Error(`records ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  }
  return run;
}

export { type TempDir, tempDir } from "../_temp.ts";

/** A library manager on `server` for setting up and checking fixtures. */
export function managerFor(server: TestServer): RepoManager {
  return new RepoManager({ host: server.url, pat: server.pat });
}

/** The names of the files of record `id`, sorted. */
export async function fileNames(server: TestServer, id: number): Promise<string[]> {
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  return (await Array.fromAsync(record.files())).map((file) => file.name).sort();
}

/** Creates a record through the CLI and returns its id. */
export async function createRecord(server: TestServer, identifier: string): Promise<number> {
  const run = await ok(server, ["create", "-i", identifier, "-p"]);
  return Number(run.stdout.trim());
}

/** Sorted entries of a directory. */
export async function listDir(path: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) names.push(entry.name);
  return names.sort();
}
