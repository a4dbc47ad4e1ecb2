/**
 * {@linkcode hex}: lower-case hex of bytes, shared by the transfers (digests, part-file tags) and
 * the local server (stored checksums).
 *
 * @module
 */

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * Lowercase hex of bytes.
 *
 * @example Usage
 * ```ts
 * import { hex } from "./_hex.ts";
 * console.log(hex(new Uint8Array([0, 171, 255]))); // "00abff"
 * ```
 *
 * @param bytes Bytes.
 * @returns Hex text.
 */
export function hex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.byteLength; i++) out += HEX[bytes[i]!];
  return out;
}
