/**
 * MD5 off the main thread: a small pool of Web Workers shared by every transfer of the process.
 * Chunked uploads and the per-part checksum of downloads hash independent 10 MB parts, so they
 * run in parallel on several cores while the main thread keeps the network and the disk busy.
 *
 * Buffers are transferred to a worker and back (zero-copy): the caller hands over its buffer and
 * gets a new view of the same memory with the digest. The workers start on first use and are
 * terminated as soon as no transfer holds the pool and no job is left, so they never keep a
 * process alive. When workers cannot start (a runtime without them, or a permission missing to
 * load the worker module), hashing runs on the main thread: slower, never wrong.
 *
 * @module
 */

import { md5Hex } from "./_chunks.ts";
import { md5FileRanges } from "./_file_lanes.ts";
import type { Md5Lanes } from "./_md5_lanes.ts";
import type { FileJob, HashAnswer, HashJob, LanesJob } from "./_md5_worker.ts";

/** A digest and the bytes it was computed from, handed back by {@linkcode HashPool.md5}. */
export interface Hashed {
  /** MD5 as lower-case hex. */
  digest: string;
  /** The hashed bytes: the same memory as the input, in a new view when it was transferred. */
  bytes: Uint8Array<ArrayBuffer>;
}

/** Options of {@linkcode HashPool.md5}. */
export interface HashOptions {
  /**
   * Move the input's whole buffer to the worker (the input view is detached until the answer
   * arrives); otherwise the bytes are copied first, for memory the caller does not own.
   * @default {true}
   */
  transfer?: boolean;
}

/** A hold on the shared hash pool; dispose it when the transfer is over. */
export interface HashPool extends Disposable {
  /**
   * MD5 of some bytes, computed by a worker.
   *
   * @param bytes The data.
   * @param options Whether the buffer may be transferred.
   * @returns The digest and the bytes (use the returned view: a transferred input is detached).
   */
  md5(bytes: Uint8Array<ArrayBuffer>, options?: HashOptions): Promise<Hashed>;
  /**
   * The MD5 of the first `length` bytes of each lane of a bank in shared memory, computed in
   * place by a worker (the bank must stay unchanged until the answer).
   *
   * @param bank The bank (from {@linkcode Md5Lanes.banks}).
   * @param length Bytes per lane.
   * @returns The four digests, in lane order.
   */
  lanes(bank: Md5Lanes, length: number): Promise<string[]>;
  /**
   * The MD5 of the `length` bytes at each of `offsets` (one to four) of a file, read back from
   * the disk by a worker ({@linkcode md5FileRanges}); the file must already hold them.
   *
   * @param path The file.
   * @param offsets Where the parts start.
   * @param length Bytes per part.
   * @returns The digests, in the order of `offsets`.
   */
  file(path: string, offsets: number[], length: number): Promise<string[]>;
}

/** Below this size a worker round trip costs more than hashing in place. */
const INLINE_BYTES = 1 << 20;

/** A job waiting for, or run by, a worker. */
interface Job {
  /** The message to the worker and what it transfers. */
  message: HashJob | LanesJob | FileJob;
  transfer: Transferable[];
  /** Takes the worker's answer. */
  answer(answer: HashAnswer): void;
  /** Computes the answer here (no worker could start). */
  inline(): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
}

let holders = 0;
let nextId = 0;
let slots: Slot[] = [];
const queue: Job[] = [];
/** Set once a worker failed to start: every later job is hashed on the main thread. */
let inlineOnly = false;

/** Options of {@linkcode acquireHashPool}. */
export interface AcquireOptions {
  /**
   * Only hash in workers where several of them run in parallel ({@linkcode parallelHashing}, 3+
   * cores); otherwise hash on the main thread. Uploads use it: with a single worker (2 cores)
   * the worker saved no time but cost about 14 MiB of the 120 MiB upload budget.
   * @default {false}
   */
  onlyParallel?: boolean;
}

/**
 * Takes a hold on the shared pool; the workers start with the first job.
 *
 * @param options Whether to use workers only when several run in parallel.
 * @returns The hold; dispose it (`using pool = acquireHashPool()`) when done.
 */
export function acquireHashPool(options: AcquireOptions = {}): HashPool {
  if (options.onlyParallel && !parallelHashing()) {
    return {
      md5: (bytes) => Promise.resolve({ digest: md5Hex(bytes), bytes }),
      lanes: (bank, length) => Promise.resolve(bank.digests(length)),
      file: fileInline,
      [Symbol.dispose]() {},
    };
  }
  holders++;
  let released = false;
  return {
    md5: (bytes, options = {}) => submit(bytes, options.transfer ?? true),
    lanes: submitLanes,
    file: submitFile,
    [Symbol.dispose]() {
      if (released) return;
      released = true;
      holders--;
      shrink();
    },
  };
}

/**
 * Number of live workers (for tests: 0 once every hold is disposed and all jobs are done).
 *
 * @returns The count.
 */
export function hashWorkerCount(): number {
  return slots.length;
}

/**
 * Whether jobs can go to workers: false where the worker module may not be loaded (no read
 * permission for it) or a worker failed to start; jobs are then hashed on the calling thread.
 *
 * @returns True when workers can be used.
 */
export function hashWorkersUsable(): boolean {
  return !inlineOnly && mayLoadWorker();
}

/**
 * Whether hashing a stream in parallel parts pays: only with at least two workers. With one (a
 * 2-core machine) gathering parts costs more CPU and memory than it saves (measured: +0.15 CPU s
 * and +45 MiB for a 300 MB download, no faster), so a stream is hashed in place there.
 *
 * @returns True with two or more workers.
 */
export function parallelHashing(): boolean {
  return poolSize() >= 2;
}

/**
 * Workers to use: one per core but one (the main thread keeps the network and the disk busy, and
 * each worker costs about 15 MiB), at least 1, at most 4 (MD5 runs at about 600 MB/s per core,
 * so 4 outpace a 10 Gbit/s link).
 */
function poolSize(): number {
  const cores = typeof navigator === "object" ? navigator.hardwareConcurrency ?? 1 : 1;
  return Math.max(1, Math.min(4, cores - 1));
}

function submit(bytes: Uint8Array<ArrayBuffer>, transfer: boolean): Promise<Hashed> {
  if (inlineOnly || bytes.byteLength < INLINE_BYTES) {
    return Promise.resolve({ digest: md5Hex(bytes), bytes });
  }
  const owned = transfer ? bytes : bytes.slice();
  // Where the data sits in its buffer (the view reads 0 once the buffer is transferred).
  const { byteOffset: offset, byteLength: length } = owned;
  return enqueue(
    { kind: "bytes", id: nextId++, buffer: owned.buffer, offset, length },
    [owned.buffer],
    ({ digests, buffer }) => ({
      digest: digests[0] ?? "",
      bytes: transfer ? new Uint8Array(buffer!, offset, length) : bytes,
    }),
    () => ({ digest: md5Hex(owned), bytes: transfer ? owned : bytes }),
  );
}

function submitLanes(bank: Md5Lanes, length: number): Promise<string[]> {
  const { memory, laneBytes, base } = bank;
  return enqueue(
    { kind: "lanes", id: nextId++, memory, laneBytes, base, length },
    [],
    // The worker is the same runtime as this thread, so it has SIMD too; if not, hash here.
    ({ digests }) => digests.length === 4 ? digests : bank.digests(length),
    () => bank.digests(length),
  );
}

function submitFile(path: string, offsets: number[], length: number): Promise<string[]> {
  return enqueue(
    { kind: "file", id: nextId++, path, offsets, length },
    [],
    ({ digests, error }) => {
      if (error !== undefined) throw new Error(`Could not hash ${path}: ${error}`);
      return digests;
    },
    () => md5FileRanges(path, offsets, length),
  );
}

/**
 * Queues a job for a worker and resolves with what `answer` makes of the worker's answer, or
 * with `inline`'s result when no worker can run (then at once); either may throw to reject.
 */
function enqueue<T>(
  message: Job["message"],
  transfer: Transferable[],
  answer: (answer: HashAnswer) => T,
  inline: () => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = (result: () => T) => {
      try {
        resolve(result());
      } catch (error) {
        reject(error);
      }
    };
    queue.push({
      message,
      transfer,
      answer: (received) => settle(() => answer(received)),
      inline: () => settle(inline),
      reject,
    });
    dispatch();
  });
}

/** {@linkcode HashPool.file} on this thread. */
function fileInline(path: string, offsets: number[], length: number): Promise<string[]> {
  return Promise.resolve().then(() => md5FileRanges(path, offsets, length));
}

function dispatch(): void {
  if (inlineOnly) {
    for (const job of queue.splice(0)) job.inline();
    return;
  }
  for (const slot of slots) {
    if (queue.length === 0) return;
    if (!slot.ready || slot.job !== undefined) continue;
    const job = queue.shift() as Job;
    slot.job = job;
    slot.worker.postMessage(job.message, job.transfer);
  }
  // Jobs still waiting get a worker each, up to the pool size (one that is starting counts).
  let starting = slots.filter((slot) => !slot.ready).length;
  while (slots.length < poolSize() && queue.length > starting) {
    if (!spawn()) return;
    starting++;
  }
}

const WORKER_URL = new URL("./_md5_worker.ts", import.meta.url);

/**
 * Whether the worker module may be loaded: a local module needs read access to its file, and a
 * worker denied it prints an uncaught error on stderr, so it is not even tried then.
 */
function mayLoadWorker(): boolean {
  if (WORKER_URL.protocol !== "file:") return true;
  try {
    return Deno.permissions.querySync({ name: "read", path: WORKER_URL }).state === "granted";
  } catch {
    return false;
  }
}

function spawn(): boolean {
  let worker: Worker;
  try {
    if (!mayLoadWorker()) throw new Error("no read access to the worker module");
    worker = new Worker(WORKER_URL, { type: "module" });
  } catch {
    goInline();
    return false;
  }
  const slot: Slot = { worker, ready: false, job: undefined };
  slots.push(slot);
  worker.onmessage = (event: MessageEvent<HashAnswer>) => {
    const answer = event.data;
    if (answer.id === -1) {
      slot.ready = true;
    } else {
      const job = slot.job;
      slot.job = undefined;
      job?.answer(answer);
    }
    dispatch();
    shrink();
  };
  const fail = (event: Event) => {
    event.preventDefault();
    slots = slots.filter((other) => other !== slot);
    worker.terminate();
    if (!slot.ready) {
      // It never started: the data is still here, so hash it on the main thread from now on.
      goInline();
      return;
    }
    // A started worker failed mid-job: its buffer is lost with it.
    slot.job?.reject(new Error("An MD5 worker failed; the transfer has to be run again"));
    dispatch();
    shrink();
  };
  worker.onerror = fail;
  worker.onmessageerror = fail;
  return true;
}

function goInline(): void {
  inlineOnly = true;
  dispatch();
  shrink();
}

/** Terminates every worker once nobody holds the pool and no job is left. */
function shrink(): void {
  if (holders > 0 || queue.length > 0 || slots.some((slot) => slot.job !== undefined)) return;
  for (const slot of slots) slot.worker.terminate();
  slots = [];
}
