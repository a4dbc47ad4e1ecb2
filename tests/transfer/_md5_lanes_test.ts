// Four MD5 streams in WebAssembly SIMD lanes give node:crypto's digests, at every length that
// matters to the padding.
import { createHash } from "node:crypto";
import { assert, assertEquals } from "../_assert.ts";
import { randomBytes } from "./_helpers.ts";
import { Md5Lanes, md5Small } from "../../lib/transfer/_md5_lanes.ts";
import { LaneChecksum } from "../../lib/transfer/_lane_checksum.ts";
import { Checksum } from "../../lib/transfer/_chunks.ts";
import { acquireHashPool, hashWorkerCount } from "../../lib/transfer/_hash_pool.ts";

const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");

Deno.test("Md5Lanes: four lanes give node:crypto's MD5 at every padding length", () => {
  const lanes = Md5Lanes.create(200_000);
  assert(lanes !== undefined, "WebAssembly SIMD is available on the test machines");
  for (
    const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, 65_536, 199_999, 200_000]
  ) {
    const inputs = [0, 1, 2, 3].map((lane) => randomBytes(length, length * 4 + lane + 1));
    inputs.forEach((input, lane) => lanes.lane(lane).set(input));
    assertEquals(lanes.digests(length), inputs.map(md5), `length ${length}`);
  }
});

Deno.test("Md5Lanes.available(): what create() gives, told from a probe module alone", () => {
  assertEquals(Md5Lanes.available(), Md5Lanes.create(64) !== undefined);
  assert(Md5Lanes.available(), "WebAssembly SIMD is available on the test machines");
});

Deno.test("Md5Lanes: the lanes can be hashed again (the state starts afresh)", () => {
  const lanes = Md5Lanes.create(1024)!;
  const inputs = [0, 1, 2, 3].map((lane) => randomBytes(1024, lane + 7));
  inputs.forEach((input, lane) => lanes.lane(lane).set(input));
  const first = lanes.digests(1024);
  inputs.forEach((input, lane) => lanes.lane(lane).set(input));
  assertEquals(lanes.digests(1024), first);
  assertEquals(first, inputs.map(md5));
});

Deno.test("Md5Lanes: blocks hashed in steps, then finished, give the digests of one pass", () => {
  const lanes = Md5Lanes.create(64 * 100 + 30)!;
  const inputs = [0, 1, 2, 3].map((lane) => randomBytes(64 * 100 + 30, lane + 11));
  inputs.forEach((input, lane) => lanes.lane(lane).set(input));
  lanes.reset();
  lanes.hash(0, 1);
  lanes.hash(1, 60);
  lanes.hash(61, 39);
  assertEquals(lanes.finish(64 * 100 + 30, 100), inputs.map(md5));
});

for (const workers of [false, true]) {
  const where = workers ? "by a worker" : "here";
  Deno.test(`LaneChecksum (${where}): the composite checksum of Checksum, for every count of parts and tails`, async () => {
    // A hold of the test's own keeps one worker for all the checksums (each would start one).
    using _hold = workers ? acquireHashPool() : undefined;
    const sizes = [0, 1, 999, 1000, 1001, 3000, 3999, 4000, 4001, 7999, 8000, 8001, 9500, 12_345];
    for (const partSize of [1000, 1024]) {
      for (const size of [...sizes, 16_000, 20_480, 24_577, 40_000]) {
        for (const piece of [1, 777, 4096, 10_000]) {
          if (piece === 1 && size > 9000) continue;
          const data = randomBytes(size, size + 3);
          const reference = new Checksum("composite", partSize);
          using lanes = LaneChecksum.create(partSize, { workers });
          assert(lanes !== undefined);
          // Pieces of an odd size, so parts start and end inside pieces.
          for (let offset = 0; offset < size; offset += piece) {
            reference.update(data.subarray(offset, offset + piece));
            await lanes.update(data.subarray(offset, offset + piece));
          }
          // The worker holds on while the checksum does: its jobs did run in a worker.
          if (workers && size >= 4 * partSize) assert(hashWorkerCount() >= 1);
          assertEquals(await lanes.result(), reference.result(), `part ${partSize} size ${size}`);
        }
      }
    }
  });
}

Deno.test("LaneChecksum: one at a time per process; the next one once the first is disposed", () => {
  const first = LaneChecksum.create(1000);
  assert(first !== undefined);
  assertEquals(LaneChecksum.create(1000), undefined);
  first[Symbol.dispose]();
  first[Symbol.dispose]();
  using again = LaneChecksum.create(1000);
  assert(again !== undefined);
  assertEquals(LaneChecksum.create(1000), undefined);
});

Deno.test("md5Small: node:crypto's MD5 up to 64 KiB, at every padding length; larger inputs are left to it", () => {
  for (const length of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 4096, 65_535, 65_536]) {
    const input = randomBytes(length, length + 5);
    assertEquals(md5Small(input), md5(input), `length ${length}`);
  }
  // A short input after a long one: nothing of the earlier data is left in the digest.
  assertEquals(md5Small(new Uint8Array(3)), md5(new Uint8Array(3)));
  assertEquals(md5Small(new Uint8Array(65_537)), undefined);
});
