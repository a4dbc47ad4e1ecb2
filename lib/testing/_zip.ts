/**
 * A streaming, store-only ZIP writer (no compression, data descriptors, UTF-8 names) whose total
 * size is known in advance, so responses can carry `Content-Length`.
 *
 * @module
 */

/** One ZIP member. */
export interface ZipEntry {
  /** Path inside the archive. */
  name: string;
  /** Exact byte size of the content. */
  size: number;
  /** The content: bytes, or a function opening a stream of exactly `size` bytes. */
  content: Uint8Array | (() => Promise<ReadableStream<Uint8Array>>);
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(crc: number, data: Uint8Array): number {
  let c = crc ^ 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * Total archive size for the given entries.
 */
export function zipSize(entries: readonly ZipEntry[]): number {
  const encoder = new TextEncoder();
  let total = 22;
  for (const e of entries) {
    const n = encoder.encode(e.name).byteLength;
    total += 30 + n + e.size + 16 + 46 + n;
  }
  return total;
}

/**
 * Streams a store-only ZIP archive of `entries`.
 *
 * @param entries Members (sizes must be exact; each must be below 4 GiB).
 */
export function zipStream(entries: readonly ZipEntry[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { time, date } = dosDateTime(new Date());
  const central: Uint8Array[] = [];
  let offset = 0;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const entry of entries) {
      const name = encoder.encode(entry.name);
      const local = new Uint8Array(30 + name.byteLength);
      const lv = new DataView(local.buffer);
      lv.setUint32(0, 0x04034b50, true);
      lv.setUint16(4, 20, true);
      lv.setUint16(6, 0x0808, true);
      lv.setUint16(8, 0, true);
      lv.setUint16(10, time, true);
      lv.setUint16(12, date, true);
      lv.setUint16(26, name.byteLength, true);
      local.set(name, 30);
      yield local;
      let crc = 0;
      let size = 0;
      if (entry.content instanceof Uint8Array) {
        crc = crc32(0, entry.content);
        size = entry.content.byteLength;
        yield entry.content;
      } else {
        for await (const part of await entry.content()) {
          crc = crc32(crc, part);
          size += part.byteLength;
          yield part;
        }
      }
      if (size !== entry.size) throw new Error(`size of ${entry.name} changed while zipping`);
      const descriptor = new Uint8Array(16);
      const dv = new DataView(descriptor.buffer);
      dv.setUint32(0, 0x08074b50, true);
      dv.setUint32(4, crc, true);
      dv.setUint32(8, size, true);
      dv.setUint32(12, size, true);
      yield descriptor;
      const header = new Uint8Array(46 + name.byteLength);
      const cv = new DataView(header.buffer);
      cv.setUint32(0, 0x02014b50, true);
      cv.setUint16(4, 20, true);
      cv.setUint16(6, 20, true);
      cv.setUint16(8, 0x0808, true);
      cv.setUint16(10, 0, true);
      cv.setUint16(12, time, true);
      cv.setUint16(14, date, true);
      cv.setUint32(16, crc, true);
      cv.setUint32(20, size, true);
      cv.setUint32(24, size, true);
      cv.setUint16(28, name.byteLength, true);
      cv.setUint32(42, offset, true);
      header.set(name, 46);
      central.push(header);
      offset += local.byteLength + size + 16;
    }
    let centralSize = 0;
    for (const header of central) {
      centralSize += header.byteLength;
      yield header;
    }
    const end = new Uint8Array(22);
    const ev = new DataView(end.buffer);
    ev.setUint32(0, 0x06054b50, true);
    ev.setUint16(8, central.length, true);
    ev.setUint16(10, central.length, true);
    ev.setUint32(12, centralSize, true);
    ev.setUint32(16, offset, true);
    yield end;
  }
  const iterator = generate();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}
