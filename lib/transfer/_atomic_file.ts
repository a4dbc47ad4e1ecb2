/**
 * Atomic file writes: data is streamed to a hidden temporary file beside the target
 * (`.<name>.<random>.part`), synced, checked, and renamed onto the target only when complete.
 * On any failure the temporary file is deleted and the target is left as it was.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";

/** Options of {@linkcode writeAtomic}. */
export interface WriteAtomicOptions {
  /**
   * Runs after all data is written and synced, before the rename; throwing cancels the write.
   */
  verify?: () => void | Promise<void>;
  /**
   * Called with each piece before it is written, and awaited after the write; the piece's
   * buffer is reused afterwards, so keep a copy (synchronously) of what is needed.
   */
  onChunk?: (chunk: Uint8Array) => void | Promise<void>;
}

/**
 * Writes a stream to `path` atomically.
 *
 * @param path The target file.
 * @param body The data; it is consumed fully or cancelled.
 * @param options Verification before the rename.
 * @returns The number of bytes written.
 */
export async function writeAtomic(
  path: string,
  body: ReadableStream<Uint8Array>,
  options: WriteAtomicOptions = {},
): Promise<number> {
  const temp = tempPathFor(path);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(temp, { write: true, createNew: true, mode: 0o644 });
  } catch (error) {
    await body.cancel().catch(() => {});
    throw error;
  }
  let written = 0;
  let open = true;
  try {
    for await (const chunk of readChunks(body)) {
      const handled = options.onChunk?.(chunk);
      await writeAll(file, chunk);
      await handled;
      written += chunk.byteLength;
    }
    await file.sync();
    file.close();
    open = false;
    await options.verify?.();
    await Deno.rename(temp, path);
    return written;
  } catch (error) {
    if (open) file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

const READ_BUFFER_BYTES = 1 << 20;

/**
 * Reads a stream piece by piece. A byte stream is read into two reused 1 MiB buffers, the next
 * read running while the caller handles the current piece, so a download of any size allocates
 * nothing per piece and the network does not wait for the disk. Each piece is valid until the
 * next one is requested. An early stop cancels the stream.
 */
async function* readChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = body.getReader({ mode: "byob" });
  } catch {
    yield* body;
    return;
  }
  let spare = new ArrayBuffer(READ_BUFFER_BYTES);
  // A read may fail while the caller still handles the previous piece (an abort, a broken
  // connection); it is awaited later, so mark it handled now.
  const read = (buffer: ArrayBuffer) => {
    const result = reader.read(new Uint8Array(buffer));
    result.catch(() => {});
    return result;
  };
  let pending = read(new ArrayBuffer(READ_BUFFER_BYTES));
  let finished = false;
  try {
    while (true) {
      const { done, value } = await pending;
      if (done) {
        finished = true;
        return;
      }
      pending = read(spare);
      yield value;
      spare = value.buffer as ArrayBuffer;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/**
 * Name of a fresh temporary file beside `path`.
 *
 * @param path The target file.
 * @returns `<dir>/.<name>.<random>.part`.
 */
export function tempPathFor(path: string): string {
  const random = crypto.randomUUID().slice(0, 8);
  return join(dirname(path), `.${shorten(basename(path), TEMP_NAME_BYTES)}.${random}.part`);
}

/** Bytes of the target's name kept in a temporary name, so it stays within 255 bytes. */
const TEMP_NAME_BYTES = 200;

function shorten(name: string, maxBytes: number): string {
  const encoder = new TextEncoder();
  if (encoder.encode(name).byteLength <= maxBytes) return name;
  let kept = "";
  let bytes = 0;
  for (const char of name) {
    bytes += encoder.encode(char).byteLength;
    if (bytes > maxBytes) break;
    kept += char;
  }
  return kept;
}

async function writeAll(file: Deno.FsFile, data: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < data.byteLength) offset += await file.write(data.subarray(offset));
}
