/**
 * The MD5 worker of {@linkcode ./_hash_pool.ts}: hashes the bytes it is sent and sends the buffer
 * back (transferred both ways, so nothing is copied), or a bank of four lanes in a shared memory
 * ({@linkcode Md5Lanes}), in place. It announces itself once it is loaded, so
 * the pool knows a worker that failed to start (missing permission, unsupported runtime) from
 * one that is busy.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { Md5Lanes } from "./_md5_lanes.ts";

/** A job: the bytes `buffer[offset, offset + length)`, hashed with MD5. */
export interface HashJob {
  kind: "bytes";
  /** Job number, echoed in the answer. */
  id: number;
  /** The buffer (transferred). */
  buffer: ArrayBuffer;
  /** Offset of the data in the buffer. */
  offset: number;
  /** Length of the data. */
  length: number;
}

/** A job: the first `length` bytes of each of the four lanes of a bank, hashed with MD5. */
export interface LanesJob {
  kind: "lanes";
  /** Job number, echoed in the answer. */
  id: number;
  /** The shared memory of the bank, its lane size and its start. */
  memory: WebAssembly.Memory;
  laneBytes: number;
  base: number;
  /** Bytes per lane. */
  length: number;
}

/** The answer to a job, or the worker's start-up message (`id` -1). */
export interface HashAnswer {
  /** Job number; -1 for "ready". */
  id: number;
  /** MD5 as lower-case hex (of a bytes job), or the four digests of a lanes job. */
  digests: string[];
  /** The bytes job's buffer, transferred back. */
  buffer: ArrayBuffer | null;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HashJob | LanesJob>) => void) | null;
  postMessage(message: HashAnswer, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (event) => {
  const job = event.data;
  if (job.kind === "lanes") {
    const bank = Md5Lanes.attach(job.memory, job.laneBytes, job.base);
    // The pool sends lanes jobs only where SIMD works on its own thread, so the bank is there.
    scope.postMessage({ id: job.id, digests: bank?.digests(job.length) ?? [], buffer: null }, []);
    return;
  }
  const { id, buffer, offset, length } = job;
  const digest = createHash("md5").update(new Uint8Array(buffer, offset, length)).digest("hex");
  scope.postMessage({ id, digests: [digest], buffer }, [buffer]);
};
scope.postMessage({ id: -1, digests: [], buffer: null }, []);
