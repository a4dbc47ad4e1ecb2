import { createHash } from "node:crypto";
import { assertEquals } from "../_assert.ts";
import { Checksum, checksumKind, FixedChunkStream, md5Hex } from "../../lib/transfer/_chunks.ts";

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
