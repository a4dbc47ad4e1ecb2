import { RepoManager } from "../../lib/manager/repo_manager.ts";
import type { TestServer } from "../../lib/testing/mod.ts";

/** A library manager on `server`. */
export function managerOf(server: TestServer): RepoManager {
  return new RepoManager({ host: server.url, pat: server.pat });
}

/** The names of the files of the record `identifier`, sorted. */
export async function fileNames(manager: RepoManager, identifier: string): Promise<string[]> {
  const record = await manager.record({ identifier });
  return (await Array.fromAsync(record.files())).map((file) => file.name).sort();
}
