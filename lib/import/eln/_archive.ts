// Reading an .eln archive without extracting it: the entry count is checked from the end record,
// then the central directory is validated before anything else happens (one root folder, no entry
// outside it, no symlink, sizes and ratios within the limits), and each entry is streamed on
// demand, its bytes counted (a lying header cannot inflate an entry beyond its declared size) and
// its SHA-256 checked when one is expected. The directory is parsed here (_zip_directory.ts) and
// kept as one small record per entry. Every read of an entry (the pre-pass's check and the
// upload) goes through `stream`, CRC-32 checked: a small deflated entry is inflated in one step
// with node:zlib, any other read by zip.js through a view of the file whose central directory
// holds just that entry.

import { createHash } from "node:crypto";
import { crc32, inflateRawSync } from "node:zlib";
import { type FileEntry, Reader, ZipReader } from "@zip.js/zip.js";
import { InputError } from "../../errors.ts";
import { openLocalFile } from "../../utils/local_path.ts";
import { ChecksumMismatchError } from "./errors.ts";
import type { ElnLimits } from "./limits.ts";
import {
  type DirectoryEntry,
  headerAtZero,
  type ReadAt,
  readZipDirectory,
  singleEntryEnd,
  ZipDirectoryError,
} from "./_zip_directory.ts";

/** The name of the metadata file inside the root folder. */
export const METADATA_FILE = "ro-crate-metadata.json";

/** One file of the archive, addressed by its normalised path below the root folder. */
export interface ArchiveFile {
  /** Path below the root folder, `/`-separated, without empty or `.` segments. */
  readonly path: string;
  /** Declared decompressed size. */
  readonly size: number;
  /** Declared compressed size. */
  readonly compressedSize: number;
  /**
   * Stored uncompressed: its data is exactly its declared size (checked), so reading it cannot
   * find another size.
   */
  readonly stored: boolean;
  /** Deflated (method 8). */
  readonly deflated: boolean;
  /** Where its local header lies in the file. */
  readonly localOffset: number;
  /** The entry's central header (a view into the directory), for reading its data. */
  readonly header: Uint8Array<ArrayBuffer>;
}

/** A validated archive. */
export interface ElnArchive extends AsyncDisposable {
  /** Name of the single root folder. */
  readonly root: string;
  /** The files below the root folder, by normalised path. */
  readonly files: ReadonlyMap<string, ArchiveFile>;
  /** Reads a (small) file as UTF-8 text, refusing it when it is larger than `maxBytes`. */
  readText(file: ArchiveFile, maxBytes: number): Promise<string>;
  /** Reads a file once to check that it holds exactly its declared size; throws an `InputError` otherwise. */
  checkSize(file: ArchiveFile, signal?: AbortSignal): Promise<void>;
  /** Streams a file's bytes, counted and (with `sha256`) verified at its end. */
  stream(file: ArchiveFile, options?: { sha256?: string; signal?: AbortSignal }): ReadableStream<
    Uint8Array<ArrayBuffer>
  >;
  close(): Promise<void>;
}

/** Reads a `Deno.FsFile` by position; reads are queued since zip.js may ask for ranges at once. */
function positionalReader(file: Deno.FsFile): ReadAt {
  let queue: Promise<unknown> = Promise.resolve();
  return (offset, length) => {
    const result = queue.then(async () => {
      await file.seek(offset, Deno.SeekMode.Start);
      const data = new Uint8Array(length);
      let read = 0;
      while (read < length) {
        const count = await file.read(data.subarray(read));
        if (count === null) return data.subarray(0, read);
        read += count;
      }
      return data;
    });
    queue = result.catch(() => undefined);
    return result;
  };
}

/**
 * The archive as zip.js sees it to read one entry: the entry's local header and data, then a
 * central directory holding only its header. Small, so zip.js's search for the end record (the
 * last 64 KiB) costs nothing per entry.
 */
class SingleEntryReader extends Reader<ReadAt> {
  #readAt: ReadAt;
  #file: ArchiveFile;
  #limit: number;
  #region = 0;
  #tail = new Uint8Array();

  /** `limit`: where the central directory starts; no entry's data reaches beyond it. */
  constructor(readAt: ReadAt, file: ArchiveFile, limit: number) {
    super(readAt);
    this.#readAt = readAt;
    this.#file = file;
    this.#limit = limit;
  }

  override async init(): Promise<void> {
    const { localOffset, compressedSize, header } = this.#file;
    const local = await this.#readAt(localOffset, LOCAL_HEADER_LENGTH);
    const view = new DataView(local.buffer, local.byteOffset, local.byteLength);
    const nameAndExtra = local.length === LOCAL_HEADER_LENGTH
      ? view.getUint16(26, true) + view.getUint16(28, true)
      : 0;
    // The data, and room for a data descriptor after it (at most 24 bytes).
    const wanted = LOCAL_HEADER_LENGTH + nameAndExtra + compressedSize + 24;
    this.#region = Math.max(0, Math.min(wanted, this.#limit - localOffset));
    const moved = headerAtZero(header);
    const end = singleEntryEnd(moved, this.#region);
    this.#tail = new Uint8Array(moved.length + end.length);
    this.#tail.set(moved);
    this.#tail.set(end, moved.length);
    this.size = this.#region + this.#tail.length;
  }

  override async readUint8Array(offset: number, length: number): Promise<Uint8Array> {
    const split = this.#region;
    const end = Math.min(offset + length, this.size);
    const base = this.#file.localOffset;
    if (end <= split) return await this.#readAt(base + offset, end - offset);
    const result = new Uint8Array(Math.max(0, end - offset));
    let filled = 0;
    if (offset < split) {
      const head = await this.#readAt(base + offset, split - offset);
      result.set(head);
      filled = head.length;
      if (filled < split - offset) return result.subarray(0, filled);
    }
    const from = Math.max(0, offset - split);
    result.set(this.#tail.subarray(from, end - split), filled);
    return result;
  }
}

const LOCAL_HEADER_LENGTH = 30;

/**
 * Opens and validates an archive; nothing is decompressed except on request.
 *
 * @throws {InputError} When the archive is unreadable or breaks a rule or limit.
 */
export async function openElnArchive(path: string, limits: ElnLimits): Promise<ElnArchive> {
  const file = await openLocalFile(path, { hint: "check the path of the .eln file" });
  try {
    const readAt = positionalReader(file);
    let directory;
    try {
      directory = await readZipDirectory(readAt, (await file.stat()).size, limits.maxEntries);
    } catch (error) {
      if (!(error instanceof ZipDirectoryError)) throw error;
      const reason = error.message.startsWith("it ")
        ? error.message
        : `it is not a readable ZIP archive (${error.message})`;
      throw refuse(reason);
    }
    const { root, files } = validate(directory.entries, limits);
    return archive(
      root,
      files,
      file,
      readAt,
      directory.offset,
    );
  } catch (error) {
    file.close();
    throw error;
  }
}

function archive(
  root: string,
  files: Map<string, ArchiveFile>,
  file: Deno.FsFile,
  readAt: ReadAt,
  limit: number,
): ElnArchive {
  const readerOf = (entry: ArchiveFile) => new SingleEntryReader(readAt, entry, limit);
  let closed = false;
  const close = () => {
    if (!closed) file.close();
    closed = true;
    return Promise.resolve();
  };
  const stream = (entry: ArchiveFile, options: { sha256?: string; signal?: AbortSignal } = {}) =>
    entryStream(
      entry,
      (writable) =>
        small(entry)
          ? writeInflated(entry, readAt, limit, writable)
          : readEntry(readerOf(entry), writable, options.signal),
      options,
    );
  const checkSize = async (entry: ArchiveFile, signal?: AbortSignal) => {
    signal?.throwIfAborted();
    try {
      for await (const _chunk of stream(entry, signal ? { signal } : {})) {
        // Only the count of the archive's stream matters here.
      }
    } catch (error) {
      throw entryError(entry, error, signal);
    }
  };
  return {
    root,
    files,
    stream,
    checkSize,
    async readText(entry, maxBytes) {
      if (entry.size > maxBytes) {
        throw refuse(`'${entry.path}' has ${entry.size} bytes, more than the limit of ${maxBytes}`);
      }
      const bytes = new Uint8Array(entry.size);
      let offset = 0;
      for await (const chunk of stream(entry)) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return new TextDecoder().decode(bytes);
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Deflated entries up to this size, compressed and inflated, are read in one step. */
const SMALL_ENTRY_BYTES = 1024 * 1024;

/**
 * Whether an entry is read in one step with `node:zlib` rather than through a zip.js reader: a
 * reader per entry costs about 1 ms of CPU. A dry run over 2,000 deflated entries of 1 KB took
 * 1.5–2.9 s with zip.js for every entry, 0.3–0.6 s with this path (shared 2-core machine).
 */
function small(file: ArchiveFile): boolean {
  return file.deflated && file.size <= SMALL_ENTRY_BYTES &&
    file.compressedSize <= SMALL_ENTRY_BYTES;
}

/**
 * Reads a small deflated entry into `writable`: inflated in one step, at most one byte past its
 * declared size, refused unless it holds exactly that size and its CRC-32 is the directory's.
 */
async function writeInflated(
  file: ArchiveFile,
  readAt: ReadAt,
  limit: number,
  writable: WritableStream<Uint8Array>,
): Promise<void> {
  // One read for the local header and the data, guessing room for its name and extra field.
  const guess = LOCAL_HEADER_LENGTH + 512 + file.compressedSize;
  const bytes = await readAt(file.localOffset, Math.min(guess, limit - file.localOffset));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < LOCAL_HEADER_LENGTH || view.getUint32(0, true) !== 0x04034b50) {
    throw refuse(`'${file.path}' cannot be read (its local header is missing)`);
  }
  const start = LOCAL_HEADER_LENGTH + view.getUint16(26, true) + view.getUint16(28, true);
  if (file.localOffset + start + file.compressedSize > limit) {
    throw refuse(`'${file.path}' cannot be read (its data runs into the central directory)`);
  }
  const data = start + file.compressedSize <= bytes.length
    ? bytes.subarray(start, start + file.compressedSize)
    : await readAt(file.localOffset + start, file.compressedSize);
  let inflated: Uint8Array<ArrayBuffer>;
  try {
    // An output buffer no larger than the entry: the default (16 KiB) per small entry adds up.
    const chunkSize = Math.max(64, Math.min(file.size + 1, 16 * 1024));
    const output = inflateRawSync(data, { maxOutputLength: file.size + 1, chunkSize });
    inflated = new Uint8Array(output.buffer as ArrayBuffer, output.byteOffset, output.byteLength);
  } catch (error) {
    if (error instanceof RangeError) {
      throw refuse(`'${file.path}' expands beyond its declared size of ${file.size} bytes`);
    }
    throw refuse(`'${file.path}' cannot be read (${errorText(error)})`, error);
  }
  if (inflated.length !== file.size) {
    throw refuse(
      `'${file.path}' has ${inflated.length} bytes instead of its declared ${file.size}`,
    );
  }
  const header = new DataView(file.header.buffer, file.header.byteOffset, file.header.byteLength);
  // zip.js's words for the same mismatch on the other read path.
  if (crc32(inflated) !== header.getUint32(16, true)) {
    throw refuse(`'${file.path}' cannot be read (Invalid CRC32)`);
  }
  const writer = writable.getWriter();
  await writer.write(inflated);
  await writer.close();
}

/**
 * The bytes of an entry as `read` writes them, counted against its declared size and (with
 * `sha256`) hashed and checked at the end.
 */
function entryStream(
  file: ArchiveFile,
  read: (writable: WritableStream<Uint8Array>) => Promise<void>,
  options: { sha256?: string; signal?: AbortSignal },
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const hash = options.sha256 === undefined ? undefined : createHash("sha256");
  const signal = options.signal;
  let count = 0;
  let control: TransformStreamDefaultController<Uint8Array<ArrayBuffer>> | undefined;
  const check = new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
    start(controller) {
      control = controller;
    },
    transform(chunk, controller) {
      count += chunk.byteLength;
      // The header's size bounds what is accepted, whatever the compressed data expands to.
      if (count > file.size) {
        throw refuse(`'${file.path}' expands beyond its declared size of ${file.size} bytes`);
      }
      hash?.update(chunk);
      controller.enqueue(chunk);
    },
    flush() {
      if (count !== file.size) {
        throw refuse(`'${file.path}' has ${count} bytes instead of its declared ${file.size}`);
      }
      const actual = hash?.digest("hex");
      if (actual !== undefined && actual !== options.sha256?.toLowerCase()) {
        throw new ChecksumMismatchError(
          `SHA-256 checksum mismatch for '${file.path}': the crate declares ${options.sha256}, ` +
            `the archive holds ${actual}`,
        );
      }
    },
  });
  read(check.writable as WritableStream<Uint8Array>).catch((error) => {
    try {
      control?.error(entryError(file, error, signal));
    } catch { /* already errored */ }
  });
  return check.readable;
}

/** Reads the one entry `source` shows into `writable` through zip.js (CRC-32 checked). */
async function readEntry(
  source: Reader<unknown>,
  writable: WritableStream<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<void> {
  const reader = new ZipReader(source, { useWebWorkers: false });
  try {
    const [entry] = await reader.getEntries({ filenameValidation: "tolerant" });
    if (entry === undefined || entry.directory) throw new Error("the entry is missing");
    await (entry as FileEntry).getData(writable, {
      checkSignature: true,
      useWebWorkers: false,
      ...(signal ? { signal } : {}),
    });
  } finally {
    await reader.close().catch(() => {});
  }
}

function validate(entries: readonly DirectoryEntry[], limits: ElnLimits) {
  if (entries.length === 0) throw refuse("the archive is empty");
  let root: string | undefined;
  let total = 0;
  const files = new Map<string, ArchiveFile>();
  for (const entry of entries) {
    const segments = entrySegments(entry.name, limits.maxDepth);
    const top = segments[0]!;
    if (root === undefined) root = top;
    else if (top !== root) {
      throw refuse(`it has more than one root folder ('${root}' and '${top}')`);
    }
    if (entry.symlink) throw refuse(`'${entry.name}' is a symbolic link`);
    if (entry.directory) continue;
    if (segments.length === 1) {
      throw refuse(`'${entry.name}' lies next to the root folder instead of inside it`);
    }
    if (entry.encrypted) throw refuse(`'${entry.name}' is encrypted`);
    const { size } = entry;
    if (size > limits.maxEntryBytes) {
      throw refuse(
        `'${entry.name}' expands to ${size} bytes, more than ${limits.maxEntryBytes}`,
      );
    }
    if (size > limits.ratioFloorBytes && size > entry.compressedSize * limits.maxRatio) {
      throw refuse(
        `'${entry.name}' expands ${
          Math.round(size / Math.max(1, entry.compressedSize))
        } times (${size} bytes), more than the limit of ${limits.maxRatio} (a zip bomb?)`,
      );
    }
    total += size;
    if (total > limits.maxTotalBytes) {
      throw refuse(`its entries expand to more than ${limits.maxTotalBytes} bytes`);
    }
    const path = segments.slice(1).join("/");
    if (files.has(path)) throw refuse(`it holds '${path}' twice`);
    const { compressedSize, localOffset, header, stored, deflated } = entry;
    if (stored && size !== compressedSize) {
      throw refuse(
        `'${entry.name}' is stored uncompressed, yet declares ${size} bytes for ${compressedSize} ` +
          "bytes of data",
      );
    }
    files.set(path, { path, size, compressedSize, localOffset, header, stored, deflated });
  }
  const metadata = files.get(METADATA_FILE);
  if (metadata === undefined) {
    throw refuse(`'${root}/${METADATA_FILE}' is missing: it is not an .eln (RO-Crate) archive`);
  }
  if (metadata.size > limits.maxMetadataBytes) {
    throw refuse(
      `its ${METADATA_FILE} has ${metadata.size} bytes, more than the limit of ${limits.maxMetadataBytes}`,
    );
  }
  return { root: root!, files };
}

/** The segments of an entry name, refusing names that could leave the root folder. */
function entrySegments(name: string, maxDepth: number): string[] {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(name)) throw refuse(`an entry name has control characters`);
  const shown = JSON.stringify(name);
  if (name.includes("\\")) throw refuse(`the entry ${shown} contains a backslash`);
  if (name.startsWith("/")) throw refuse(`the entry ${shown} is an absolute path`);
  if (/^[A-Za-z]:/.test(name)) throw refuse(`the entry ${shown} starts with a drive letter`);
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw refuse(`the entry ${shown} points outside the root ('..')`);
  if (segments.length === 0) throw refuse(`the entry ${shown} has no name`);
  if (segments.length > maxDepth) {
    throw refuse(`the entry ${shown} is nested deeper than ${maxDepth} levels`);
  }
  return segments;
}

/**
 * The error of a failed read of an entry as the import reports it: refusals, checksum mismatches
 * and aborts unchanged, anything the ZIP reader throws as a refusal naming the entry.
 */
export function entryError(file: ArchiveFile, error: unknown, signal?: AbortSignal): unknown {
  if (error instanceof InputError || signal?.aborted) return error;
  return refuse(`'${file.path}' cannot be read (${errorText(error)})`, error);
}

function refuse(reason: string, cause?: unknown): InputError {
  return new InputError(`The archive is refused: ${reason}`, cause ? { cause } : undefined);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
