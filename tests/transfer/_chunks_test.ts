import { createHash } from "node:crypto";
import { assertEquals } from "../_assert.ts";
import { Checksum, checksumKind, FixedChunkStream, md5Hex } from "../../lib/transfer/_chunks.ts";
import { hashWorkerCount } from "../../lib/transfer/_hash_pool.ts";
import { PartChecksum } from "../../lib/transfer/_part_checksum.ts";

Deno.test("FixedChunkStream cuts bytes into equal chunks and a shorter last one", async () => {
  const input = ReadableStream.from([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5, 6, 7])]);
  const chunks = await Array.fromAsync(input.pipeThrough(new FixedChunkStream(3)));
  assertEquals(chunks.map((c) => [...c]), [[1, 2, 3], [4, 5, 6], [7]]);
});

Deno.test("Checksum computes the plain and the per-part composite MD5", () => {
  const data = new Uint8Array(25).map((_, i) => i);
  const pieces = [data.subarray(0, 7), data.subarray(7)];
  const plain = new Checksum("md5", 10);
  for (const piece of pieces) plain.update(piece);
  assertEquals(plain.result(), { size: 25, candidates: [md5Hex(data)] });
  const hasher = new Checksum("composite", 10);
  for (const piece of pieces) hasher.update(piece);
  const sums = hasher.result();
  const parts = [data.subarray(0, 10), data.subarray(10, 20), data.subarray(20)];
  const composite = createHash("md5");
  for (const part of parts) composite.update(createHash("md5").update(part).digest());
  assertEquals(sums.candidates[0], `${composite.digest("hex")}-3`);
});

Deno.test("checksumKind() recognizes plain and composite MD5 checksums", () => {
  assertEquals(checksumKind("d41d8cd98f00b204e9800998ecf8427e", 0), "md5");
  assertEquals(checksumKind(`${"a".repeat(32)}-2`, 10_000_001), "composite");
  assertEquals(checksumKind(`${"a".repeat(32)}-3`, 10_000_001), undefined);
  assertEquals(checksumKind("sha256:abc", 5), undefined);
  assertEquals(checksumKind(null, 5), undefined);
});

Deno.test("PartChecksum computes the composite MD5 in parallel, equal to Checksum", async () => {
  for (const length of [0, 7, 25, 30, 47]) {
    const data = new Uint8Array(length).map((_, i) => i * 7);
    const serial = new Checksum("composite", 10);
    using parallel = new PartChecksum(10);
    for (let offset = 0; offset < length; offset += 6) {
      const piece = data.slice(offset, offset + 6);
      serial.update(piece);
      await parallel.update(piece);
      piece.fill(0); // the caller reuses its buffer
    }
    assertEquals(await parallel.result(), serial.result());
  }
});

Deno.test("PartChecksum hashes 10 MB parts in workers and matches the single-threaded form", async () => {
  const size = 3 * 10_000_000 + 123;
  const data = new Uint8Array(size).map((_, i) => (i * 13) >> 3);
  const serial = new Checksum("composite");
  serial.update(data);
  const sums = await (async () => {
    using parallel = new PartChecksum();
    for (let offset = 0; offset < size; offset += 1 << 20) {
      await parallel.update(data.subarray(offset, offset + (1 << 20)));
    }
    return await parallel.result();
  })();
  assertEquals(sums, serial.result());
  assertEquals(hashWorkerCount(), 0);
});
