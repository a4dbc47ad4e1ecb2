// Reading an .eln archive without extracting it: the central directory is validated before
// anything else happens (one root folder, no entry outside it, no symlink, sizes and ratios within
// the limits), and each entry is streamed on demand, its bytes counted (a lying header cannot
// inflate an entry beyond its declared size) and its SHA-256 checked when one is expected.

import { createHash } from "node:crypto";
import { type Entry, type FileEntry, Reader, ZipReader } from "@zip.js/zip.js";
import { InputError } from "../../http/errors.ts";
import { openLocalFile } from "../../utils/local_path.ts";
import { ChecksumMismatchError } from "./errors.ts";
import type { ElnLimits } from "./limits.ts";

/** The name of the metadata file inside the root folder. */
export const METADATA_FILE = "ro-crate-metadata.json";

/** One file of the archive, addressed by its normalised path below the root folder. */
export interface ArchiveFile {
  /** Path below the root folder, `/`-separated, without empty or `.` segments. */
  readonly path: string;
  /** Declared decompressed size. */
  readonly size: number;
  readonly entry: FileEntry;
}

/** A validated archive. */
export interface ElnArchive extends AsyncDisposable {
  /** Name of the single root folder. */
  readonly root: string;
  /** The files below the root folder, by normalised path. */
  readonly files: ReadonlyMap<string, ArchiveFile>;
  /** Reads a (small) file as UTF-8 text, refusing it when it is larger than `maxBytes`. */
  readText(file: ArchiveFile, maxBytes: number): Promise<string>;
  /** Streams a file's bytes, counted and (with `sha256`) verified at its end. */
  stream(file: ArchiveFile, options?: { sha256?: string; signal?: AbortSignal }): ReadableStream<
    Uint8Array<ArrayBuffer>
  >;
  close(): Promise<void>;
}

/** Reads a `Deno.FsFile` by position; reads are queued since zip.js may ask for ranges at once. */
class FsFileReader extends Reader<Deno.FsFile> {
  #file: Deno.FsFile;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: Deno.FsFile) {
    super(file);
    this.#file = file;
  }

  override async init(): Promise<void> {
    this.size = (await this.#file.stat()).size;
  }

  override readUint8Array(offset: number, length: number): Promise<Uint8Array> {
    const result = this.#queue.then(async () => {
      await this.#file.seek(offset, Deno.SeekMode.Start);
      const data = new Uint8Array(length);
      let read = 0;
      while (read < length) {
        const count = await this.#file.read(data.subarray(read));
        if (count === null) return data.subarray(0, read);
        read += count;
      }
      return data;
    });
    this.#queue = result.catch(() => undefined);
    return result;
  }
}

/**
 * Opens and validates an archive; nothing is decompressed except on request.
 *
 * @throws {InputError} When the archive is unreadable or breaks a rule or limit.
 */
export async function openElnArchive(path: string, limits: ElnLimits): Promise<ElnArchive> {
  const file = await openLocalFile(path, { hint: "check the path of the .eln file" });
  const reader = new ZipReader(new FsFileReader(file), { useWebWorkers: false });
  try {
    let entries: Entry[];
    try {
      // Names are checked below, each rule with its own message.
      entries = await reader.getEntries({ filenameValidation: "tolerant" });
    } catch (error) {
      throw refuse(`it is not a readable ZIP archive (${errorText(error)})`, error);
    }
    const { root, files } = validate(entries, limits);
    return archive(root, files, reader, file);
  } catch (error) {
    await reader.close().catch(() => {});
    file.close();
    throw error;
  }
}

function archive(
  root: string,
  files: Map<string, ArchiveFile>,
  reader: ZipReader<unknown>,
  file: Deno.FsFile,
): ElnArchive {
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await reader.close().catch(() => {});
    file.close();
  };
  const stream = (entry: ArchiveFile, options: { sha256?: string; signal?: AbortSignal } = {}) =>
    entryStream(entry, options);
  return {
    root,
    files,
    stream,
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

function entryStream(
  file: ArchiveFile,
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
  file.entry.getData(check.writable, {
    checkSignature: true,
    useWebWorkers: false,
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((error) => {
    try {
      control?.error(entryError(file, error, signal));
    } catch { /* already errored */ }
  });
  return check.readable;
}

function validate(entries: Entry[], limits: ElnLimits) {
  if (entries.length === 0) throw refuse("the archive is empty");
  if (entries.length > limits.maxEntries) {
    throw refuse(`it has ${entries.length} entries, more than the limit of ${limits.maxEntries}`);
  }
  let root: string | undefined;
  let total = 0;
  const files = new Map<string, ArchiveFile>();
  for (const entry of entries) {
    const segments = entrySegments(entry.filename, limits.maxDepth);
    const top = segments[0]!;
    if (root === undefined) root = top;
    else if (top !== root) {
      throw refuse(`it has more than one root folder ('${root}' and '${top}')`);
    }
    if (entry.symlink) throw refuse(`'${entry.filename}' is a symbolic link`);
    if (entry.directory) continue;
    if (segments.length === 1) {
      throw refuse(`'${entry.filename}' lies next to the root folder instead of inside it`);
    }
    if (entry.encrypted) throw refuse(`'${entry.filename}' is encrypted`);
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      throw refuse(
        `'${entry.filename}' expands to ${size} bytes, more than ${limits.maxEntryBytes}`,
      );
    }
    if (size > limits.ratioFloorBytes && size > entry.compressedSize * limits.maxRatio) {
      throw refuse(
        `'${entry.filename}' expands ${
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
    files.set(path, { path, size, entry: entry as FileEntry });
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
