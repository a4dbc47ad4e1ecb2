/**
 * Upload sources: a file path, a byte stream or bytes in memory, read chunk by chunk. A file is
 * read with positioned reads so only the chunks still missing are read (resume), and never more
 * than one chunk is read ahead of the requests in flight.
 *
 * @module
 */

import { basename } from "node:path";
import { InputError } from "../errors.ts";
import { statLocalPathSync } from "../utils/local_path.ts";
import { FixedChunkStream } from "./_chunks.ts";

/** What can be uploaded: a file path, a byte stream, or bytes in memory. */
export type UploadSource = string | ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>;

/** One chunk to send. */
export interface SourceChunk {
  /** Index from 0. */
  index: number;
  /** The chunk's bytes; valid until `release`. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Hands the buffer back for the next chunk; call once the chunk was sent (or failed). */
  release(): void;
}

/** A resolved upload source. */
export interface ResolvedSource {
  /** Bytes in total. */
  size: number;
  /** Default file name (a path's base name). */
  name: string | undefined;
  /** Whether the data can be read more than once (a file or bytes; not a stream). */
  rereadable: boolean;
  /** Reads the whole content into memory (direct uploads only, which the server caps). */
  readAll(): Promise<Uint8Array<ArrayBuffer>>;
  /** Yields the wanted chunks in index order, reading each only when it is pulled. */
  chunks(chunkSize: number, wanted: (index: number) => boolean): AsyncGenerator<SourceChunk>;
  /** Releases what is still open (an unread stream). */
  close(): Promise<void>;
}

/**
 * Resolves a source: stats a file, checks a stream's declared size.
 *
 * @param size Declared size (required for a stream).
 */
export async function resolveSource(source: UploadSource, size?: number): Promise<ResolvedSource> {
  if (typeof source === "string") return fileSource(source);
  if (source instanceof Uint8Array) return bytesSource(source);
  if (size === undefined || !Number.isSafeInteger(size) || size < 0) {
    await source.cancel().catch(() => {});
    throw new InputError(
      "Cannot upload a stream without its size: pass `size` (bytes) with a stream source",
    );
  }
  return streamSource(source, size);
}

/**
 * Files up to this size are read with synchronous calls: Deno's asynchronous file calls cost
 * about 0.15 ms of CPU per file more (measured, docs/perf/transfers.md "Small files, fourth round"),
 * which is a large part of what a small file costs; such a read blocks for one read's time.
 */
const SYNC_READ_BYTES = 1 << 20;

function fileSource(path: string): ResolvedSource {
  // Synchronous: one call, mostly answered from the cache (a folder's files were listed).
  const info = statLocalPathSync(path);
  if (!info.isFile) throw new InputError(`'${path}' is not a regular file: pass a file path`);
  const size = info.size;
  return {
    size,
    name: basename(path),
    rereadable: true,
    async readAll() {
      if (size <= SYNC_READ_BYTES) return readSmallFile(path, info);
      using file = await Deno.open(path);
      const bytes = new Uint8Array(size);
      await readInto(file, bytes, path);
      checkUnchanged(await file.stat(), info, path);
      return bytes;
    },
    async *chunks(chunkSize, wanted) {
      using file = await Deno.open(path);
      const count = Math.max(1, Math.ceil(size / chunkSize));
      // Buffers are reused once their chunk was sent, so memory stays at the chunks in flight
      // plus one, independent of the file size and of the garbage collector's timing.
      const free: ArrayBuffer[] = [];
      for (let index = 0; index < count; index++) {
        if (!wanted(index)) continue;
        await file.seek(index * chunkSize, Deno.SeekMode.Start);
        const length = Math.min(chunkSize, size - index * chunkSize);
        const bytes = new Uint8Array(free.pop() ?? new ArrayBuffer(chunkSize), 0, length);
        await readInto(file, bytes, path);
        yield { index, bytes, release: () => free.push(bytes.buffer) };
      }
      // Reached only when every chunk was pulled: the data sent must be one version of the file.
      checkUnchanged(await file.stat(), info, path);
    },
    async close() {},
  };
}

function bytesSource(bytes: Uint8Array<ArrayBuffer>): ResolvedSource {
  return {
    size: bytes.byteLength,
    name: undefined,
    rereadable: true,
    readAll: () => Promise.resolve(bytes),
    async *chunks(chunkSize, wanted) {
      const count = Math.max(1, Math.ceil(bytes.byteLength / chunkSize));
      for (let index = 0; index < count; index++) {
        if (wanted(index)) {
          const chunk = bytes.subarray(index * chunkSize, (index + 1) * chunkSize);
          yield { index, bytes: chunk, release: () => {} };
        }
      }
    },
    async close() {},
  };
}

function streamSource(stream: ReadableStream<Uint8Array>, size: number): ResolvedSource {
  let used = false;
  const take = () => {
    if (used) throw new InputError("A stream can be uploaded only once: pass a new stream");
    used = true;
    return stream;
  };
  return {
    size,
    name: undefined,
    rereadable: false,
    async readAll() {
      const buffer = new Uint8Array(size);
      let offset = 0;
      for await (const chunk of take()) {
        if (offset + chunk.byteLength > size) throw sizeMismatch(size, "more");
        buffer.set(chunk, offset);
        offset += chunk.byteLength;
      }
      if (offset !== size) throw sizeMismatch(size, "fewer");
      return buffer;
    },
    async *chunks(chunkSize, wanted) {
      const count = Math.max(1, Math.ceil(size / chunkSize));
      let index = 0;
      let total = 0;
      for await (const bytes of take().pipeThrough(new FixedChunkStream(chunkSize))) {
        total += bytes.byteLength;
        if (index >= count || total > size) throw sizeMismatch(size, "more");
        if (wanted(index)) yield { index, bytes, release: () => {} };
        index++;
      }
      if (total !== size) throw sizeMismatch(size, "fewer");
      if (size === 0 && wanted(0)) {
        yield { index: 0, bytes: new Uint8Array(0), release: () => {} };
      }
    },
    async close() {
      if (!used) await stream.cancel().catch(() => {});
    },
  };
}

function sizeMismatch(size: number, what: "more" | "fewer"): InputError {
  return new InputError(
    `The stream delivered ${what} bytes than the declared size ${size}: pass the exact size`,
  );
}

/**
 * Throws when the file's size or modification time differ from what it had when the upload
 * started: the bytes read would then mix two versions of the file (or miss appended data).
 */
function checkUnchanged(now: Deno.FileInfo, before: Deno.FileInfo, path: string): void {
  if (now.size !== before.size || now.mtime?.getTime() !== before.mtime?.getTime()) {
    throw changed(path, before, now.size);
  }
}

function changed(path: string, before: Deno.FileInfo, size: number): InputError {
  return new InputError(
    `The file '${path}' changed while it was uploaded (${before.size} bytes before, ${size} now): upload it again once it is complete`,
  );
}

function shrank(path: string): InputError {
  return new InputError(`The file '${path}' shrank while it was uploaded: upload it again`);
}

/**
 * Reads a small file whole with synchronous calls (open, reads, fstat, close): exactly the size it
 * had, then the same check as every other read (a file that grew or changed is refused by its
 * size or time).
 */
function readSmallFile(path: string, info: Deno.FileInfo): Uint8Array<ArrayBuffer> {
  using file = Deno.openSync(path);
  const bytes = new Uint8Array(info.size);
  for (let offset = 0; offset < bytes.byteLength;) {
    const read = file.readSync(bytes.subarray(offset));
    if (read === null) throw shrank(path);
    offset += read;
  }
  checkUnchanged(file.statSync(), info, path);
  return bytes;
}

async function readInto(file: Deno.FsFile, buffer: Uint8Array, path: string): Promise<void> {
  let offset = 0;
  while (offset < buffer.byteLength) {
    const read = await file.read(buffer.subarray(offset));
    if (read === null) {
      throw shrank(path);
    }
    offset += read;
  }
}
