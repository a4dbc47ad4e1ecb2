/**
 * The MD5 worker of {@linkcode ./_hash_pool.ts}: hashes the bytes it is sent and sends the buffer
 * back (transferred both ways, so nothing is copied). It announces itself once it is loaded, so
 * the pool knows a worker that failed to start (missing permission, unsupported runtime) from
 * one that is busy.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** A job: the bytes `buffer[offset, offset + length)`, hashed with MD5. */
export interface HashJob {
  /** Job number, echoed in the answer. */
  id: number;
  /** The buffer (transferred). */
  buffer: ArrayBuffer;
  /** Offset of the data in the buffer. */
  offset: number;
  /** Length of the data. */
  length: number;
}

/** The answer to a {@linkcode HashJob}, or the worker's start-up message (`id` -1). */
export interface HashAnswer {
  /** Job number; -1 for "ready". */
  id: number;
  /** MD5 as lower-case hex. */
  digest: string;
  /** The job's buffer, transferred back. */
  buffer: ArrayBuffer | null;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HashJob>) => void) | null;
  postMessage(message: HashAnswer, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (event) => {
  const { id, buffer, offset, length } = event.data;
  const digest = createHash("md5").update(new Uint8Array(buffer, offset, length)).digest("hex");
  scope.postMessage({ id, digest, buffer }, [buffer]);
};
scope.postMessage({ id: -1, digest: "", buffer: null }, []);
