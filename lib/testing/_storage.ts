/**
 * Streaming of request bodies into the storage directory and of stored files back out.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { MAX_CONTENT_LENGTH } from "../http/protocol.ts";
import { HttpError } from "./_errors.ts";
import type { State } from "./_state.ts";

/** What {@linkcode storeBody} wrote. */
export interface Stored {
  path: string;
  size: number;
  /** MD5 digest (raw bytes). */
  md5: Uint8Array;
  /** The first bytes stored (at most {@linkcode SNIFF_BYTES}), for {@linkcode sniffMimetype}. */
  head: Uint8Array;
}

/** Bytes {@linkcode sniffMimetype} looks at. */
const SNIFF_BYTES = 512;

/** Bodies up to this size are gathered in memory and kept there (or written with one call). */
const SMALL_BODY_BYTES = 1 << 20;

/** Most bytes of small bodies one server keeps in memory; beyond, they go to the storage directory. */
const MEMORY_BUDGET_BYTES = 256 << 20;

/**
 * A new unique path in the storage directory.
 *
 * @param label Readable part of the name.
 */
export function storagePath(state: State, label: string): string {
  return join(state.storageDir, `${label}-${crypto.randomUUID()}`);
}

/**
 * Keeps small stored bodies in memory under their storage path, within a budget per server.
 * Durability is no part of the local server's contract (its storage is a temporary directory
 * removed on close), and creating a file costs more CPU than everything else a small upload does.
 *
 * @param path The body's storage path (its key).
 * @returns Whether the bytes are kept (else the caller writes them to `path`).
 */
function keepInMemory(state: State, path: string, bytes: Uint8Array): boolean {
  if (state.memoryBytes + bytes.byteLength > MEMORY_BUDGET_BYTES) return false;
  // A view into a larger buffer (a socket read) would keep all of that buffer alive.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  state.memory.set(path, own ? bytes : bytes.slice());
  state.memoryBytes += bytes.byteLength;
  return true;
}

/**
 * Removes stored bytes (kept in memory or written to the storage directory); a missing one is
 * no error.
 */
export async function removeStored(state: State, path: string): Promise<void> {
  const bytes = state.memory.get(path);
  if (bytes !== undefined) {
    state.memory.delete(path);
    state.memoryBytes -= bytes.byteLength;
    return;
  }
  await Deno.remove(path).catch(() => {});
}

/**
 * Stores a request body, hashing it: a small body (most requests: direct uploads of small files)
 * is gathered and kept in memory ({@linkcode keepInMemory}), a larger one streamed to a new file
 * in the storage directory, which is removed if the body breaks.
 *
 * @param label Readable part of the file name.
 * @param corrupt Store the first byte flipped (fault injection: damaged storage).
 * @returns Path, size, MD5 (of the bytes stored) and the first bytes.
 */
export async function storeBody(
  state: State,
  body: ReadableStream<Uint8Array> | null,
  label: string,
  corrupt = false,
): Promise<Stored> {
  const path = storagePath(state, label);
  const hash = createHash("md5");
  const gathered: Uint8Array[] = [];
  let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let size = 0;
  let small: Uint8Array | undefined;
  const head = new HeadBytes();
  // A reader, not `for await`: the async iterator costs more than the rest of a small upload.
  const reader = body?.getReader();
  try {
    while (reader !== undefined) {
      const read = await reader.read();
      if (read.done) break;
      let chunk = read.value;
      if (corrupt && size === 0 && chunk.byteLength > 0) {
        chunk = chunk.slice();
        chunk[0] = chunk[0]! ^ 0xff;
      }
      size += chunk.byteLength;
      if (size > MAX_CONTENT_LENGTH) throw new HttpError(413);
      hash.update(chunk);
      head.add(chunk);
      if (writer === undefined && size <= SMALL_BODY_BYTES) {
        gathered.push(chunk);
        continue;
      }
      if (writer === undefined) {
        const file = await Deno.open(path, { write: true, createNew: true });
        writer = file.writable.getWriter();
        for (const piece of gathered.splice(0)) await writer.write(piece);
      }
      await writer.write(chunk);
    }
    // The reader is not released: releasing makes an error object (a stack trace) per request.
    if (writer !== undefined) await writer.close();
    else {
      small = concatBytes(gathered, size);
      if (!keepInMemory(state, path, small)) await Deno.writeFile(path, small, { createNew: true });
    }
  } catch (error) {
    // As `for await` did: a body left unread is cancelled.
    await reader?.cancel().catch(() => {});
    await writer?.abort().catch(() => {});
    await Deno.remove(path).catch(() => {});
    throw error;
  }
  return { path, size, md5: new Uint8Array(hash.digest()), head: head.bytes };
}

/**
 * Pieces of bytes as one array (the piece itself when there is one).
 */
export function concatBytes(pieces: Uint8Array[], size: number): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.byteLength;
  }
  return bytes;
}

/** The first bytes (at most {@linkcode SNIFF_BYTES}) of data that passes by in pieces. */
export class HeadBytes {
  #bytes = new Uint8Array(SNIFF_BYTES);
  #length = 0;

  /** Takes what it still needs of the next piece (a copy). */
  add(piece: Uint8Array): void {
    if (this.#length === SNIFF_BYTES) return;
    const take = piece.subarray(0, SNIFF_BYTES - this.#length);
    this.#bytes.set(take, this.#length);
    this.#length += take.byteLength;
  }

  /** The first bytes seen. */
  get bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#length);
  }
}

/**
 * Opens stored bytes as a byte stream, optionally only the bytes `start` to `end` (inclusive).
 *
 * @param range First and last byte to send (default: all).
 */
export async function openStored(
  state: State,
  path: string,
  range?: { start: number; end: number },
): Promise<ReadableStream<Uint8Array>> {
  const bytes = state.memory.get(path);
  if (bytes !== undefined) {
    // A copy: the kept bytes never leave the server, whatever a reader does with its chunk.
    const part = range === undefined ? bytes.slice() : bytes.slice(range.start, range.end + 1);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (part.byteLength > 0) controller.enqueue(part);
        controller.close();
      },
    });
  }
  const file = await Deno.open(path, { read: true });
  if (range !== undefined) await file.seek(range.start, Deno.SeekMode.Start);
  return fileStream(file, range === undefined ? undefined : range.end - range.start + 1);
}

/** Bytes read from a stored file per piece: few reads and writes per megabyte sent. */
const READ_PIECE = 1 << 20;

/**
 * A stored file's bytes from its current position, `length` of them (all by default), read in
 * pieces of {@linkcode READ_PIECE}; the file is closed at the end, on error and on cancel.
 */
function fileStream(file: Deno.FsFile, length?: number): ReadableStream<Uint8Array> {
  let left = length ?? Infinity;
  const close = () => {
    try {
      file.close();
    } catch { /* closed */ }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const piece = new Uint8Array(Math.min(READ_PIECE, left));
        const read = piece.byteLength === 0 ? null : await file.read(piece);
        if (read === null) {
          close();
          controller.close();
          return;
        }
        left -= read;
        controller.enqueue(piece.subarray(0, read));
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    cancel: close,
  }, { highWaterMark: 0 });
}

/** Python's built-in `mimetypes` table (the part a research repository meets), by extension. */
const GUESSED: Record<string, string> = {
  txt: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  md: "text/markdown",
  html: "text/html",
  htm: "text/html",
  xml: "text/xml",
  css: "text/css",
  js: "text/javascript",
  py: "text/x-python",
  json: "application/json",
  pdf: "application/pdf",
  zip: "application/zip",
  tar: "application/x-tar",
  bin: "application/octet-stream",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  bmp: "image/bmp",
  mp4: "video/mp4",
  wav: "audio/x-wav",
};

/**
 * The MIME type the real server guesses from a file name when an upload gives none (Python's
 * `mimetypes.guess_type`); undefined when it guesses nothing, and the sniffed type applies.
 */
export function guessMimetype(name: string): string | undefined {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? undefined : GUESSED[name.slice(dot + 1).toLowerCase()];
}

/**
 * A rough magic MIME type from the first bytes of a file.
 *
 * @param head The file's first bytes (all of them when shorter than {@linkcode SNIFF_BYTES}).
 */
export function sniffMimetype(head: Uint8Array): string {
  const bytes = head.subarray(0, SNIFF_BYTES);
  const n = bytes.byteLength;
  if (n === 0) return "application/x-empty";
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0x25, 0x50, 0x44, 0x46)) return "application/pdf";
  if (starts(0x50, 0x4b, 0x03, 0x04)) return "application/zip";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x1f, 0x8b)) return "application/gzip";
  const whole = n < SNIFF_BYTES;
  // A control character makes it binary either way (UTF-8 decoding keeps every ASCII byte as it
  // is, and no JSON text holds one): found on the bytes, without decoding them.
  if (hasControlByte(whole ? bytes : bytes.subarray(0, n - 4))) return "application/octet-stream";
  try {
    const text = new TextDecoder("utf-8", { fatal: whole }).decode(
      whole ? bytes : bytes.subarray(0, n - 4),
    );
    if (whole && /^\s*[{[]/.test(text)) {
      try {
        JSON.parse(text);
        return "application/json";
      } catch { /* plain text */ }
    }
    return "text/plain";
  } catch {
    return "application/octet-stream";
  }
}

/** Whether bytes hold a control character other than tab, line feeds and carriage return. */
function hasControlByte(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.byteLength; i++) {
    const b = bytes[i]!;
    if (b < 9 || (b > 13 && b < 32)) return true;
  }
  return false;
}
