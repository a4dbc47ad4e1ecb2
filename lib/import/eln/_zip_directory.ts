// The central directory of a ZIP archive, read without zip.js: the entry count comes from the end
// record before anything else is read, and each entry costs one small record (its name, sizes
// and where its header lies in the directory's one buffer) instead of zip.js's entry objects
// (about 7 KB and 100 µs each: 700 MiB and 18 s for 100,000 entries, see docs/perf/eln.md). zip.js still reads every entry's data (see _archive.ts).

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_LENGTH = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_LENGTH = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_LENGTH = 56;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_LENGTH = 46;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

/** The largest central directory read, in bytes (100,000 entries with long names fit). */
export const MAX_DIRECTORY_BYTES = 128 * 2 ** 20;

/** One entry of the central directory. */
export interface DirectoryEntry {
  /** The name as stored (UTF-8 decoded). */
  readonly name: string;
  /** Declared decompressed size. */
  readonly size: number;
  /** Declared compressed size. */
  readonly compressedSize: number;
  /** Whether the entry is a folder. */
  readonly directory: boolean;
  /** Whether the entry is a symbolic link (Unix mode). */
  readonly symlink: boolean;
  /** Whether the entry is encrypted. */
  readonly encrypted: boolean;
  /** Whether the entry is stored uncompressed (method 0). */
  readonly stored: boolean;
  /** Whether the entry is deflated (method 8). */
  readonly deflated: boolean;
  /** Where the entry's local header lies in the file. */
  readonly localOffset: number;
  /** The entry's central header, a view into the directory's buffer. */
  readonly header: Uint8Array<ArrayBuffer>;
}

/** A read central directory. */
export interface ZipDirectory {
  /** Where the directory starts in the file. */
  readonly offset: number;
  /** The entries, in directory order. */
  readonly entries: DirectoryEntry[];
}

/** Reads `length` bytes at `offset` (fewer only at the end of the file). */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array<ArrayBuffer>>;

/** Why a directory is refused, in the user's terms; the caller prefixes it. */
export class ZipDirectoryError extends Error {}

/**
 * Reads the end record, checks the entry count against `maxEntries` before anything else, then
 * reads and parses the directory.
 *
 * @throws {ZipDirectoryError} When the archive is no readable ZIP or has too many entries.
 */
export async function readZipDirectory(
  readAt: ReadAt,
  size: number,
  maxEntries: number,
): Promise<ZipDirectory> {
  const { count, directoryOffset, directoryLength } = await readEnd(readAt, size);
  if (count > maxEntries) {
    throw new ZipDirectoryError(`it has ${count} entries, more than the limit of ${maxEntries}`);
  }
  if (directoryLength > MAX_DIRECTORY_BYTES) {
    throw new ZipDirectoryError(
      `its central directory has ${directoryLength} bytes, more than the limit of ${MAX_DIRECTORY_BYTES}`,
    );
  }
  if (directoryOffset + directoryLength > size) {
    throw new ZipDirectoryError("its central directory lies beyond the end of the file");
  }
  const buffer = await readAt(directoryOffset, directoryLength);
  if (buffer.length !== directoryLength) throw new ZipDirectoryError("the file is truncated");
  return { offset: directoryOffset, entries: parseEntries(buffer, count) };
}

async function readEnd(readAt: ReadAt, size: number) {
  const tailLength = Math.min(size, EOCD_LENGTH + MAX_16);
  const tailStart = size - tailLength;
  const tail = await readAt(tailStart, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  // The last end record whose comment reaches exactly the end of the file.
  let at = -1;
  for (let index = tail.length - EOCD_LENGTH; index >= 0; index--) {
    if (
      view.getUint32(index, true) === EOCD_SIGNATURE &&
      index + EOCD_LENGTH + view.getUint16(index + 20, true) === tail.length
    ) {
      at = index;
      break;
    }
  }
  if (at < 0) throw new ZipDirectoryError("no end of central directory record was found");
  let count = view.getUint16(at + 10, true);
  let directoryLength = view.getUint32(at + 12, true);
  let directoryOffset = view.getUint32(at + 16, true);
  if (count === MAX_16 || directoryLength === MAX_32 || directoryOffset === MAX_32) {
    const locatorAt = tailStart + at - ZIP64_LOCATOR_LENGTH;
    if (locatorAt < 0) throw new ZipDirectoryError("its ZIP64 end record is missing");
    const locator = dataView(await readAt(locatorAt, ZIP64_LOCATOR_LENGTH));
    if (
      locator.byteLength < ZIP64_LOCATOR_LENGTH ||
      locator.getUint32(0, true) !== ZIP64_LOCATOR_SIGNATURE
    ) {
      throw new ZipDirectoryError("its ZIP64 end record is missing");
    }
    const end = dataView(
      await readAt(safeNumber(locator.getBigUint64(8, true)), ZIP64_EOCD_LENGTH),
    );
    if (end.byteLength < ZIP64_EOCD_LENGTH || end.getUint32(0, true) !== ZIP64_EOCD_SIGNATURE) {
      throw new ZipDirectoryError("its ZIP64 end record is missing");
    }
    count = safeNumber(end.getBigUint64(32, true));
    directoryLength = safeNumber(end.getBigUint64(40, true));
    directoryOffset = safeNumber(end.getBigUint64(48, true));
  }
  return { count, directoryOffset, directoryLength };
}

function parseEntries(buffer: Uint8Array<ArrayBuffer>, count: number): DirectoryEntry[] {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const decoder = new TextDecoder();
  const entries: DirectoryEntry[] = [];
  let at = 0;
  for (let index = 0; index < count; index++) {
    if (at + CENTRAL_LENGTH > buffer.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw new ZipDirectoryError("its central directory is damaged");
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const end = at + CENTRAL_LENGTH + nameLength + extraLength + view.getUint16(at + 32, true);
    if (end > buffer.length) throw new ZipDirectoryError("its central directory is damaged");
    const nameBytes = buffer.subarray(at + CENTRAL_LENGTH, at + CENTRAL_LENGTH + nameLength);
    const name = decoder.decode(nameBytes);
    const fields = zip64Fields(view, at + CENTRAL_LENGTH + nameLength, extraLength, [
      view.getUint32(at + 24, true),
      view.getUint32(at + 20, true),
      view.getUint32(at + 42, true),
    ]);
    const madeBy = view.getUint16(at + 4, true) >> 8;
    const external = view.getUint32(at + 38, true);
    const unixType = madeBy === 3 ? (external >>> 16) & 0o170000 : 0;
    entries.push({
      name,
      size: fields[0],
      compressedSize: fields[1],
      localOffset: fields[2],
      directory: name.endsWith("/") || unixType === 0o040000 || (external & 0x10) !== 0,
      symlink: unixType === 0o120000,
      encrypted: (flags & 1) !== 0,
      stored: view.getUint16(at + 10, true) === 0,
      deflated: view.getUint16(at + 10, true) === 8,
      header: buffer.subarray(at, end),
    });
    at = end;
  }
  return entries;
}

/**
 * Size, compressed size and local header offset, each from the ZIP64 extra field where the
 * header holds 0xFFFFFFFF (the field lists only those, in this order).
 */
function zip64Fields(
  view: DataView,
  extraStart: number,
  extraLength: number,
  values: [number, number, number],
): [number, number, number] {
  if (!values.includes(MAX_32)) return values;
  for (let at = extraStart; at + 4 <= extraStart + extraLength;) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      return values.map((value) => {
        if (value !== MAX_32) return value;
        if (field + 8 > at + 4 + length) throw new ZipDirectoryError("a ZIP64 field is damaged");
        const real = safeNumber(view.getBigUint64(field, true));
        field += 8;
        return real;
      }) as [number, number, number];
    }
    at += 4 + length;
  }
  throw new ZipDirectoryError("an entry's ZIP64 fields are missing");
}

/**
 * A copy of an entry's central header whose local header offset is 0 (in the header or in its
 * ZIP64 field), for a view of the file that starts at that local header.
 */
export function headerAtZero(header: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const copy = header.slice();
  const view = new DataView(copy.buffer);
  if (view.getUint32(42, true) !== MAX_32) {
    view.setUint32(42, 0, true);
    return copy;
  }
  const nameLength = view.getUint16(28, true);
  const extraStart = CENTRAL_LENGTH + nameLength;
  const extraEnd = extraStart + view.getUint16(30, true);
  for (let at = extraStart; at + 4 <= extraEnd;) {
    const length = view.getUint16(at + 2, true);
    if (view.getUint16(at, true) === 0x0001) {
      // The offset follows the sizes that are in the field.
      let field = at + 4;
      if (view.getUint32(24, true) === MAX_32) field += 8;
      if (view.getUint32(20, true) === MAX_32) field += 8;
      view.setBigUint64(field, 0n, true);
      return copy;
    }
    at += 4 + length;
  }
  throw new ZipDirectoryError("an entry's ZIP64 fields are missing");
}

function dataView(bytes: Uint8Array<ArrayBuffer>): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipDirectoryError("a size is too large");
  return Number(value);
}

/**
 * A one-entry end of central directory for `header` placed at `offset`: with it, zip.js reads
 * just that entry of the real file (ZIP64 records when the offset needs them).
 */
export function singleEntryEnd(header: Uint8Array, offset: number): Uint8Array<ArrayBuffer> {
  if (offset < MAX_32) {
    const end = new Uint8Array(EOCD_LENGTH);
    const view = new DataView(end.buffer);
    view.setUint32(0, EOCD_SIGNATURE, true);
    view.setUint16(8, 1, true);
    view.setUint16(10, 1, true);
    view.setUint32(12, header.length, true);
    view.setUint32(16, offset, true);
    return end;
  }
  const end = new Uint8Array(ZIP64_EOCD_LENGTH + ZIP64_LOCATOR_LENGTH + EOCD_LENGTH);
  const view = new DataView(end.buffer);
  view.setUint32(0, ZIP64_EOCD_SIGNATURE, true);
  view.setBigUint64(4, BigInt(ZIP64_EOCD_LENGTH - 12), true);
  view.setUint16(12, 45, true);
  view.setUint16(14, 45, true);
  view.setBigUint64(24, 1n, true);
  view.setBigUint64(32, 1n, true);
  view.setBigUint64(40, BigInt(header.length), true);
  view.setBigUint64(48, BigInt(offset), true);
  const locator = ZIP64_EOCD_LENGTH;
  view.setUint32(locator, ZIP64_LOCATOR_SIGNATURE, true);
  view.setBigUint64(locator + 8, BigInt(offset + header.length), true);
  view.setUint32(locator + 16, 1, true);
  const eocd = locator + ZIP64_LOCATOR_LENGTH;
  view.setUint32(eocd, EOCD_SIGNATURE, true);
  view.setUint16(eocd + 8, MAX_16, true);
  view.setUint16(eocd + 10, MAX_16, true);
  view.setUint32(eocd + 12, MAX_32, true);
  view.setUint32(eocd + 16, MAX_32, true);
  return end;
}
