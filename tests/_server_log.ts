import type { TestServer } from "../lib/testing/mod.ts";

/** Requests that change something on the server (not GET or HEAD), from `from` on in its log. */
export function changing(server: TestServer, from = 0): string[] {
  return server.log.slice(from).filter(({ method }) => method !== "GET" && method !== "HEAD")
    .map(({ method, path }) => `${method} ${path}`);
}
