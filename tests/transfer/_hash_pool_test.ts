import { assertEquals } from "../_assert.ts";
import { acquireHashPool, hashWorkerCount } from "../../lib/transfer/_hash_pool.ts";
import { md5Hex } from "../../lib/transfer/_chunks.ts";

const MB = 1 << 20;

function sample(length: number, seed: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(length).map((_, i) => (i * 31 + seed) & 0xff);
}

Deno.test("HashPool.md5() gives the same digests as single-threaded MD5, in parallel", async () => {
  const inputs = Array.from({ length: 6 }, (_, i) => sample(2 * MB + i, i));
  const expected = inputs.map(md5Hex);
  const copies = inputs.map((bytes) => bytes.slice());
  {
    using pool = acquireHashPool();
    const hashed = await Promise.all(inputs.map((bytes) => pool.md5(bytes)));
    assertEquals(hashed.map((h) => h.digest), expected);
    // The buffers came back intact (same content, same length) in new views.
    assertEquals(hashed.map((h) => md5Hex(h.bytes)), expected);
    assertEquals(hashed.map((h) => h.bytes.byteLength), copies.map((c) => c.byteLength));
    // Reused for a second round, as upload buffers are.
    const again = await Promise.all(hashed.map((h) => pool.md5(h.bytes)));
    assertEquals(again.map((h) => h.digest), expected);
  }
  assertEquals(hashWorkerCount(), 0);
});

Deno.test("HashPool.md5() hashes a view inside a larger buffer, and copies when not transferring", async () => {
  const big = sample(5 * MB, 7);
  const view = big.subarray(MB, 3 * MB + 5);
  const expected = md5Hex(view);
  using pool = acquireHashPool();
  const copied = await pool.md5(view, { transfer: false });
  assertEquals(copied.digest, expected);
  assertEquals(copied.bytes, view);
  assertEquals(big.byteLength, 5 * MB); // not detached
  const moved = await pool.md5(view);
  assertEquals(moved.digest, expected);
  assertEquals([moved.bytes.byteOffset, moved.bytes.byteLength], [MB, 2 * MB + 5]);
  assertEquals(md5Hex(new Uint8Array(moved.bytes.buffer)), md5Hex(sample(5 * MB, 7)));
});

Deno.test("HashPool.md5() hashes small inputs in place and empty ones too", async () => {
  using pool = acquireHashPool();
  const empty = await pool.md5(new Uint8Array(0));
  assertEquals(empty.digest, "d41d8cd98f00b204e9800998ecf8427e");
  const small = sample(1000, 1);
  assertEquals((await pool.md5(small)).digest, md5Hex(small));
  assertEquals(small.byteLength, 1000);
});

Deno.test("hash workers are terminated once the last hold is released", async () => {
  const first = acquireHashPool();
  const second = acquireHashPool();
  const pending = first.md5(sample(3 * MB, 3));
  first[Symbol.dispose]();
  const { digest } = await pending;
  assertEquals(digest, md5Hex(sample(3 * MB, 3)));
  // The second hold keeps the workers for its own jobs.
  assertEquals((await second.md5(sample(2 * MB, 4))).digest, md5Hex(sample(2 * MB, 4)));
  assertEquals(hashWorkerCount() > 0, true);
  second[Symbol.dispose]();
  second[Symbol.dispose](); // twice is harmless
  assertEquals(hashWorkerCount(), 0);
});

Deno.test("HashPool.md5() hashes on the main thread, silently, when the worker module cannot be read; workers never keep a process alive", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const pool = new URL("../../lib/transfer/_hash_pool.ts", import.meta.url).href;
    const script = `${dir}/hash.ts`;
    await Deno.writeTextFile(
      script,
      `import { acquireHashPool, hashWorkerCount } from "${pool}";\n` +
        `using pool = acquireHashPool();\n` +
        `const { digest } = await pool.md5(new Uint8Array(2_000_000).fill(1));\n` +
        `console.log(digest, hashWorkerCount());\n`,
    );
    // No --allow-read: the worker's file may not be loaded.
    const output = await new Deno.Command("deno", {
      args: ["run", "--quiet", "--no-prompt", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assertEquals(decoder.decode(output.stderr), "");
    assertEquals(
      decoder.decode(output.stdout).trim(),
      `${md5Hex(new Uint8Array(2_000_000).fill(1))} 0`,
    );
    assertEquals(output.code, 0);
    // With access a worker hashes, and the process still exits once the pool is released.
    const withWorker = await new Deno.Command("deno", {
      args: ["run", "--quiet", "--no-prompt", "--allow-read", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(decoder.decode(withWorker.stderr), "");
    assertEquals(
      decoder.decode(withWorker.stdout).trim(),
      `${md5Hex(new Uint8Array(2_000_000).fill(1))} 1`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
