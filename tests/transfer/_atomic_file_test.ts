// writeAtomic(): big writes are flushed to disk in the background while writing goes on; every
// handle is closed (the test sanitizer checks) whether the write ends, fails or is refused.
import { assertEquals, assertRejects } from "../_assert.ts";
import { writeAtomic } from "../../lib/transfer/_atomic_file.ts";
import { tempDir } from "../_temp.ts";

const SIZE = 80 * 1024 * 1024 + 12_345; // two background flushes and more

/** 1 MiB and one period of the pattern (byte i is i mod 251): every piece is a copy of a window. */
const PATTERN = Uint8Array.from({ length: (1 << 20) + 251 }, (_, i) => i % 251);

/** A stream of `size` bytes in 1 MiB pieces (byte i is i mod 251), failing after `failAt`. */
function pattern(size: number, failAt = Infinity): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= failAt) return controller.error(new Error("connection lost"));
      if (sent >= size) return controller.close();
      const start = sent % 251;
      const piece = PATTERN.slice(start, start + Math.min(1 << 20, size - sent));
      sent += piece.byteLength;
      controller.enqueue(piece);
    },
  });
}

/** Index of the first byte that is not i mod 251, or -1. */
function firstWrongByte(data: Uint8Array): number {
  for (let i = 0; i < data.length; i++) if (data[i] !== i % 251) return i;
  return -1;
}

async function entries(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name).sort();
}

Deno.test("writeAtomic(): a write of 80 MiB, flushed on the way, has every byte", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  await writeAtomic(`${dir}/big.bin`, pattern(SIZE));
  const data = await Deno.readFile(`${dir}/big.bin`);
  assertEquals(data.byteLength, SIZE);
  assertEquals(firstWrongByte(data), -1);
  assertEquals(await entries(dir), ["big.bin"]);
});

Deno.test("writeAtomic(): a stream failing after 70 MiB leaves no file and no open handle", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  await assertRejects(() => writeAtomic(`${dir}/big.bin`, pattern(SIZE, 70 << 20)), Error);
  assertEquals(await entries(dir), []);
});

Deno.test("writeAtomic(): a refused check after the flushes leaves no file and no open handle", async () => {
  await using temp = await tempDir();
  const dir = temp.path;
  const error = await assertRejects(
    () =>
      writeAtomic(`${dir}/big.bin`, pattern(SIZE), {
        verify: () => Promise.reject(new Error("checksum mismatch")),
      }),
    Error,
  );
  assertEquals(error.message, "checksum mismatch");
  assertEquals(await entries(dir), []);
});
