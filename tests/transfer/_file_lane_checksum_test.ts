// A download's composite checksum hashed from the file it is written to: md5FileRanges reads up to
// four parts back in rounds and gives node:crypto's digests at every length that matters to the
// rounds and the padding; FileLaneChecksum gives Checksum's composite for every count of parts.
import { createHash } from "node:crypto";
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { randomBytes } from "./_helpers.ts";
import { tempDir } from "../_temp.ts";
import { md5FileRanges } from "../../lib/transfer/_file_lanes.ts";
import { FileLaneChecksum } from "../../lib/transfer/_file_lane_checksum.ts";
import { Checksum } from "../../lib/transfer/_chunks.ts";
import {
  acquireHashPool,
  hashWorkerCount,
  hashWorkersUsable,
} from "../../lib/transfer/_hash_pool.ts";

const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("hex");
const ROUND = 256 * 1024;

Deno.test("md5FileRanges: one to four ranges give node:crypto's MD5 around every round and padding length", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/data.bin`;
  const data = randomBytes(4 * (2 * ROUND + 70) + 13, 5);
  await Deno.writeFile(path, data);
  for (
    const length of [0, 1, 55, 56, 63, 64, 65, 1000, ROUND - 1, ROUND, ROUND + 1, 2 * ROUND + 70]
  ) {
    for (let count = 1; count <= 4; count++) {
      // Ranges that start anywhere, in any order, even overlapping.
      const offsets = [13, 7 + 3 * length, 2 * length, 1].slice(0, count);
      const expected = offsets.map((at) => md5(data.subarray(at, at + length)));
      assertEquals(md5FileRanges(path, offsets, length), expected, `${count} × ${length}`);
    }
  }
});

Deno.test("md5FileRanges: a file that ends within a range, or a wrong count of ranges, is refused", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/short.bin`;
  await Deno.writeFile(path, randomBytes(1000, 2));
  const short = assertThrows(() => md5FileRanges(path, [0, 500], 600), RangeError);
  assertEquals(short.message, "The file ends at 1000 bytes, within a part");
  assertThrows(() => md5FileRanges(path, [], 10), RangeError);
  assertThrows(() => md5FileRanges(path, [0, 1, 2, 3, 4], 10), RangeError);
  assertThrows(() => md5FileRanges(`${dir.path}/missing.bin`, [0], 10), Deno.errors.NotFound);
});

Deno.test("FileLaneChecksum: Checksum's composite for every count of parts and tails, hashed by a worker as the file is written", async () => {
  // A hold of the test's own keeps one worker for all the checksums (each would start one).
  using _hold = acquireHashPool();
  await using dir = await tempDir();
  const sizes = [0, 1, 999, 1000, 1001, 3000, 3999, 4000, 4001, 7999, 8000, 8001, 12_345, 40_000];
  for (const partSize of [1000, 1024]) {
    for (const size of sizes) {
      for (const piece of [777, 4096]) {
        for (const known of [true, false]) {
          const path = `${dir.path}/${partSize}-${size}-${piece}-${known}.part`;
          const data = randomBytes(size, size + 3);
          const reference = new Checksum("composite", partSize);
          reference.update(data);
          using checksum = FileLaneChecksum.create(path, {
            partSize,
            size: known ? size : undefined,
          });
          assert(checksum !== undefined, "the tests may read their files and start workers");
          using file = await Deno.open(path, { write: true, createNew: true });
          // Pieces of an odd size, so parts start and end inside pieces; each counted once written.
          for (let offset = 0; offset < size; offset += piece) {
            const bytes = data.subarray(offset, offset + piece);
            await file.write(bytes);
            checksum.written(bytes.byteLength);
          }
          const label = `part ${partSize} size ${size} piece ${piece} known ${known}`;
          assertEquals(await checksum.result(), reference.result(), label);
        }
      }
    }
  }
  // The jobs ran in a worker (the pool spawns one for the first file job).
  assert(hashWorkerCount() >= 1);
});

Deno.test("FileLaneChecksum: bytes already in the file (a resumed download) count as written", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/resumed.part`;
  const data = randomBytes(9_500, 17);
  await Deno.writeFile(path, data.subarray(0, 6_100));
  using checksum = FileLaneChecksum.create(path, { partSize: 1000, size: data.byteLength })!;
  checksum.written(6_100);
  await Deno.writeFile(path, data.subarray(6_100), { append: true });
  checksum.written(data.byteLength - 6_100);
  const reference = new Checksum("composite", 1000);
  reference.update(data);
  assertEquals(await checksum.result(), reference.result());
});

Deno.test({
  name: "FileLaneChecksum: not made when the file may not be read (the download hashes in memory)",
  permissions: { read: [new URL("../../lib/", import.meta.url)] },
  fn() {
    const path = `${Deno.cwd()}/.cache/tmp/not-readable.part`;
    assert(hashWorkersUsable(), "the worker itself could run");
    assertEquals(FileLaneChecksum.create(path, { partSize: 1000 }), undefined);
  },
});
