// What the Ctrl-C tests in a real terminal share: a link the local server slows down, and the
// digests that tell whether every file arrived once and whole.

import type { RepoRecord } from "../../lib/model/record.ts";
import type { TestServer } from "../../lib/testing/mod.ts";

/** Each request of a transfer slowed to `rate` bytes per second. */
export function slowLink(server: TestServer, rate: number): void {
  server.addFault({ method: "PUT", path: /\/uploads\//, slowRequestBytesPerSecond: rate });
  server.addFault({ method: "GET", path: /\/download$/, slowBodyBytesPerSecond: rate });
}

/** The first 8 bytes of the SHA-256 of `data`, in hex. */
export async function digest(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(hash.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The record's files, name to digest, in name order. */
export async function recordTree(record: RepoRecord): Promise<Record<string, string>> {
  const found: [string, string][] = [];
  for await (const file of record.files()) {
    const stream = await record.downloadFile(file.id);
    found.push([file.name, await digest(new Uint8Array(await new Response(stream).arrayBuffer()))]);
  }
  return Object.fromEntries(found.sort(([a], [b]) => a.localeCompare(b)));
}
