// Helpers of the collections/templates/groups/users/misc CLI tests: run a command in-process
// against a local server and fail the test unless it exits 0.

import type { TestServer } from "../../lib/testing/mod.ts";
import { repo, type Run } from "./_records.ts";

/** Runs `repo-apy <args>` and fails the test unless it exits 0. */
export async function must(server: TestServer, args: string[]): Promise<Run> {
  const run = await repo(server, args);
  if (run.code !== 0) {
    throw new Error(`${args.join(" ")} exited ${run.code}: ${run.stderr}`);
  }
  return run;
}

/** Runs a command that prints one id with `-p` and returns it. */
export async function createdId(server: TestServer, args: string[]): Promise<number> {
  const run = await must(server, [...args, "-p"]);
  const id = Number(run.stdout.trim());
  if (!Number.isSafeInteger(id) || id < 1) throw new Error(`No id printed: ${run.stdout}`);
  return id;
}
