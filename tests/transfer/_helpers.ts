// Shared setup of the transfer integration tests: a local server, a record, generated files.
import { createHash } from "node:crypto";
import type { RetryOptions } from "../../lib/http/retry.ts";
import { Transport } from "../../lib/http/transport.ts";
import { type Fault, startServer, type TestServer } from "../../lib/testing/mod.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { openResource } from "../../lib/resources/resource.ts";

export interface Env extends AsyncDisposable {
  server: TestServer;
  transport: Transport;
  record: RepoRecord;
  /** A fresh temporary directory, removed on dispose. */
  dir: string;
}

/** Short retry delays so fault tests run fast. */
export const FAST_RETRY: RetryOptions = { minDelayMs: 5, maxDelayMs: 50 };

export async function setup(
  options: { faults?: Fault[]; identifier?: string } = {},
): Promise<Env> {
  const server = await startServer(options.faults ? { faults: options.faults } : {});
  const transport = new Transport({
    settings: { host: server.url, pat: server.pat, timeout: 20 },
    retry: FAST_RETRY,
  });
  const dir = await Deno.makeTempDir({ prefix: "repo-apy-transfer-" });
  const record = await openResource(transport, RepoRecord, {
    identifier: options.identifier ?? "transfer-test",
    create: true,
  });
  return {
    server,
    transport,
    record,
    dir,
    async [Symbol.asyncDispose]() {
      await transport.close();
      await server.close();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** `size` pseudo-random bytes (xorshift, seeded), for tests of hashing. */
export function randomBytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let x = seed * 2654435761 >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes[i] = x & 0xff;
  }
  return bytes;
}

/** Writes `size` pseudo-random bytes (xorshift, seeded) to `path` in 1 MiB pieces. */
export async function writeRandomFile(path: string, size: number, seed = 1): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  let state = seed >>> 0 || 1;
  const piece = new Uint8Array(1 << 20);
  const words = new Uint32Array(piece.buffer);
  for (let written = 0; written < size;) {
    for (let i = 0; i < words.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[i] = state >>> 0;
    }
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    for (let offset = 0; offset < part.length;) offset += await file.write(part.subarray(offset));
    written += part.length;
  }
}

/** SHA-256 of a stream, computed piece by piece. */
export async function sha256(stream: ReadableStream<Uint8Array>): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk);
  return hash.digest("hex");
}

/** SHA-256 of a file, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const file = await Deno.open(path);
  return await sha256(file.readable);
}

/** Names of the entries of a directory, sorted. */
export async function listDir(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** Chunk indexes of the logged chunk PUTs that got an answer, in order. */
export function chunkPuts(server: TestServer, from = 0): number[] {
  return server.log.slice(from)
    .filter((entry) => entry.method === "PUT" && entry.chunkIndex !== undefined)
    .map((entry) => entry.chunkIndex as number);
}

/**
 * Upload options that send one chunk at a time and cancel the upload (with the error "stop
 * here") once `bytes` are on the server.
 */
export function stopAfter(
  bytes: number,
): { concurrency: number; signal: AbortSignal; onProgress: (p: { bytes: number }) => void } {
  const controller = new AbortController();
  return {
    concurrency: 1,
    signal: controller.signal,
    onProgress: (progress) => {
      if (progress.bytes >= bytes) controller.abort(new Error("stop here"));
    },
  };
}
