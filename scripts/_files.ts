// File helpers of the scripts: test data (benchmarks, rate-limited uploads), a file of
// incompressible bytes written one MiB at a time, each MiB stamped with a counter so that no two
// are alike; and a file's SHA-256 (the demo, SHA256SUMS of the binaries).

import { createHash } from "node:crypto";

/**
 * Writes `size` bytes of random-looking data to `path` and returns their MD5 (hex). `seed`
 * varies the stamps, so that files of one run differ in more than their random part.
 */
export async function writeTestFile(path: string, size: number, seed = 0): Promise<string> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const piece = crypto.getRandomValues(new Uint8Array(1 << 16));
  const block = new Uint8Array(1 << 20);
  for (let i = 0; i < block.length; i += piece.length) block.set(piece, i);
  const view = new DataView(block.buffer);
  const hash = createHash("md5");
  for (let written = 0, n = 0; written < size; n++) {
    view.setUint32(0, seed * 100_000 + n); // no two MiB alike
    const part = block.subarray(0, Math.min(block.length, size - written));
    hash.update(part);
    for (let offset = 0; offset < part.length;) offset += await file.write(part.subarray(offset));
    written += part.length;
  }
  return hash.digest("hex");
}

/** SHA-256 of a file as hex, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}
