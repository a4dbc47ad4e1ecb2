// Shared setup of the resources integration tests: a local server, a manager, tiny uploads.
import type { FileJson, UploadJson } from "../../lib/http/protocol.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";

export interface Setup extends AsyncDisposable {
  server: TestServer;
  manager: RepoManager;
}

export async function setup(): Promise<Setup> {
  const server = await startServer();
  const manager = new RepoManager({ host: server.url, pat: server.pat });
  return {
    server,
    manager,
    async [Symbol.asyncDispose]() {
      await manager.close();
      await server.close();
    },
  };
}

/** A manager acting as a second user with its own token (every scope). */
export function secondManager(server: TestServer, username: string): {
  manager: RepoManager;
  userId: number;
} {
  const { id } = server.createUser({ username, displayname: `User ${username}` });
  const pat = server.createToken({ userId: id });
  return { manager: new RepoManager({ host: server.url, pat }), userId: id };
}

/** Uploads a small text file with raw transport calls (direct upload protocol). */
export async function uploadText(
  manager: RepoManager,
  recordId: number,
  name: string,
  text: string,
): Promise<FileJson> {
  const bytes = new TextEncoder().encode(text);
  const upload = await manager.transport.json<UploadJson>("POST", `/records/${recordId}/uploads`, {
    json: { name, size: bytes.length },
  });
  const target = upload._actions.upload_data;
  if (target === undefined) throw new Error("upload without upload_data action");
  return await manager.transport.json<FileJson>("PUT", target, {
    body: bytes,
    headers: { "Content-Type": "application/octet-stream" },
  });
}

/** Counts logged requests with this method whose path ends with the suffix. */
export function countRequests(server: TestServer, method: string, suffix: string): number {
  return server.log.filter((entry) => entry.method === method && entry.path.endsWith(suffix))
    .length;
}
