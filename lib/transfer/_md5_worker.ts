/**
 * The MD5 worker of {@linkcode ./_hash_pool.ts}: hashes the bytes it is sent and sends the buffer
 * back (transferred both ways, so nothing is copied), a bank of four lanes in a shared memory
 * ({@linkcode Md5Lanes}) in place, or up to four parts of a file read back from the disk
 * ({@linkcode md5FileRanges}). It announces itself once it is loaded, so the pool knows a worker
 * that failed to start (missing permission, unsupported runtime) from one that is busy.
 * `node:crypto` is loaded with the first bytes job: a download's worker never needs it.
 *
 * @module
 */

import { md5FileRanges } from "./_file_lanes.ts";
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

/** A job: the `length` bytes at each of `offsets` (one to four) of a file, hashed with MD5. */
export interface FileJob {
  kind: "file";
  /** Job number, echoed in the answer. */
  id: number;
  /** The file, where its parts start, and their length. */
  path: string;
  offsets: number[];
  length: number;
}

/** The answer to a job, or the worker's start-up message (`id` -1). */
export interface HashAnswer {
  /** Job number; -1 for "ready". */
  id: number;
  /** MD5 as lower-case hex (of a bytes job), or the digests of a lanes or file job. */
  digests: string[];
  /** Why a file job failed (the file could not be read). */
  error?: string;
  /** The bytes job's buffer, transferred back. */
  buffer: ArrayBuffer | null;
}

interface WorkerScope {
  onmessage: ((event: MessageEvent<HashJob | LanesJob | FileJob>) => void) | null;
  postMessage(message: HashAnswer, transfer: Transferable[]): void;
}

const scope = globalThis as unknown as WorkerScope;
let nodeCrypto: Promise<typeof import("node:crypto")> | undefined;
scope.onmessage = async (event) => {
  const job = event.data;
  if (job.kind === "lanes") {
    const bank = Md5Lanes.attach(job.memory, job.laneBytes, job.base);
    // The pool sends lanes jobs only where SIMD works on its own thread, so the bank is there.
    scope.postMessage({ id: job.id, digests: bank?.digests(job.length) ?? [], buffer: null }, []);
    return;
  }
  if (job.kind === "file") {
    let answer: HashAnswer;
    try {
      answer = {
        id: job.id,
        digests: md5FileRanges(job.path, job.offsets, job.length),
        buffer: null,
      };
    } catch (error) {
      answer = { id: job.id, digests: [], buffer: null, error: String(error) };
    }
    scope.postMessage(answer, []);
    return;
  }
  const { id, buffer, offset, length } = job;
  const { createHash } = await (nodeCrypto ??= import("node:crypto"));
  const digest = createHash("md5").update(new Uint8Array(buffer, offset, length)).digest("hex");
  scope.postMessage({ id, digests: [digest], buffer }, [buffer]);
};
scope.postMessage({ id: -1, digests: [], buffer: null }, []);
