/**
 * Chunking and hashing for transfers: a fixed-size chunker for uploads, MD5 of one chunk, and a
 * pass-through stream that computes the checksums the server stores (plain MD5 for direct
 * uploads, MD5 of the chunk MD5s plus `-<count>` for chunked ones) while a download flows by.
 *
 * @module
 */

import type { Hash } from "node:crypto";
import process from "node:process";
import { UPLOAD_CHUNK_SIZE } from "../http/protocol.ts";

let nodeCrypto: typeof import("node:crypto") | undefined;

/** `node:crypto`'s MD5, loaded on first use (importing `mod.ts` stays cheap without it). */
function createMd5(): Hash {
  nodeCrypto ??= process.getBuiltinModule("node:crypto") as typeof import("node:crypto");
  return nodeCrypto.createHash("md5");
}

/**
 * Cuts a byte stream into chunks of exactly `size` bytes; the last one may be shorter. Each
 * emitted chunk is a fresh buffer the consumer may keep.
 */
export class FixedChunkStream extends TransformStream<Uint8Array, Uint8Array<ArrayBuffer>> {
  /**
   * Creates the chunker.
   */
  constructor(size: number) {
    if (!Number.isInteger(size) || size <= 0) {
      throw new RangeError(`Cannot cut chunks: size must be a positive integer, got ${size}`);
    }
    let buffer = new Uint8Array(size);
    let filled = 0;
    super({
      transform(chunk, controller) {
        let offset = 0;
        while (offset < chunk.byteLength) {
          const take = Math.min(size - filled, chunk.byteLength - offset);
          buffer.set(chunk.subarray(offset, offset + take), filled);
          filled += take;
          offset += take;
          if (filled === size) {
            controller.enqueue(buffer);
            buffer = new Uint8Array(size);
            filled = 0;
          }
        }
      },
      flush(controller) {
        if (filled > 0) controller.enqueue(buffer.slice(0, filled));
      },
    });
  }
}

/**
 * MD5 of some bytes as lower-case hex.
 */
export function md5Hex(data: Uint8Array): string {
  return createMd5().update(data).digest("hex");
}

/** Checksum of a byte stream in one of the forms the server uses. */
export interface StreamChecksum {
  /** Total bytes. */
  size: number;
  /**
   * Candidates for the checksum: the MD5 of the content (`md5`), or for `composite` the MD5 over
   * the concatenated part digests (raw bytes, then hex text) plus `-<part count>`.
   */
  candidates: string[];
}

const PLAIN_MD5 = /^[0-9a-f]{32}$/i;
const COMPOSITE_MD5 = /^([0-9a-f]{32})-(\d+)$/i;

/**
 * Tells whether a server checksum can be verified by {@linkcode Checksum}, and with which
 * part size.
 *
 * @param checksum The checksum of a file.
 * @returns `"md5"`, `"composite"` or `undefined` when the form is unknown.
 */
export function checksumKind(
  checksum: string | null | undefined,
  size: number,
): "md5" | "composite" | undefined {
  if (!checksum) return undefined;
  if (PLAIN_MD5.test(checksum)) return "md5";
  const match = COMPOSITE_MD5.exec(checksum);
  if (match && Number(match[2]) === Math.max(1, Math.ceil(size / UPLOAD_CHUNK_SIZE))) {
    return "composite";
  }
  return undefined;
}

/**
 * Computes the checksum of data fed to it piece by piece: the plain MD5, or the composite MD5 of
 * fixed-size parts (only the one asked for, to keep the cost low). It keeps no reference to the
 * pieces, so callers may reuse their buffers. This is the one MD5 path of every transfer, on
 * every machine.
 */
export class Checksum {
  #hash: Hash = createMd5();
  #partBytes = 0;
  #parts: Buffer[] = [];
  #size = 0;
  #kind: "md5" | "composite";
  #partSize: number;

  /**
   * Creates the accumulator.
   *
   * @param kind `md5` for the whole content, `composite` for the per-part form.
   * @param partSize Bytes per part of the composite checksum.
   */
  constructor(kind: "md5" | "composite", partSize: number = UPLOAD_CHUNK_SIZE) {
    this.#kind = kind;
    this.#partSize = partSize;
  }

  /**
   * Adds the next piece of data.
   *
   * @param chunk The data; it is hashed at once and not kept.
   */
  update(chunk: Uint8Array): void {
    this.#size += chunk.byteLength;
    if (this.#kind === "md5") {
      this.#hash.update(chunk);
      return;
    }
    let offset = 0;
    while (offset < chunk.byteLength) {
      const take = Math.min(this.#partSize - this.#partBytes, chunk.byteLength - offset);
      this.#hash.update(
        offset === 0 && take === chunk.byteLength ? chunk : chunk.subarray(offset, offset + take),
      );
      this.#partBytes += take;
      offset += take;
      if (this.#partBytes === this.#partSize) this.#closePart();
    }
  }

  #closePart(): void {
    this.#parts.push(this.#hash.digest());
    this.#hash = createMd5();
    this.#partBytes = 0;
  }

  /**
   * The checksum; call once, after the last piece.
   */
  result(): StreamChecksum {
    if (this.#kind === "md5") return { size: this.#size, candidates: [this.#hash.digest("hex")] };
    if (this.#partBytes > 0 || this.#parts.length === 0) this.#closePart();
    return {
      size: this.#size,
      candidates: compositeCandidates(this.#parts.map((part) => part.toString("hex"))),
    };
  }
}

/**
 * The composite checksum of some parts in both forms servers use: the MD5 over the concatenated
 * raw part digests, and over the concatenated hex digests, each with `-<part count>`.
 *
 * @param parts The part digests as hex, in order.
 */
export function compositeCandidates(parts: readonly string[]): string[] {
  const raw = new Uint8Array(parts.length * 16);
  parts.forEach((part, index) => {
    for (let byte = 0; byte < 16; byte++) {
      raw[index * 16 + byte] = parseInt(part.slice(2 * byte, 2 * byte + 2), 16);
    }
  });
  const count = parts.length;
  const hex = new TextEncoder().encode(parts.join(""));
  return [`${md5Hex(raw)}-${count}`, `${md5Hex(hex)}-${count}`];
}
