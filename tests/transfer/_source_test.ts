// A file's bytes for a direct upload: one version of the file, read with bounded memory.
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { resolveSource } from "../../lib/transfer/_source.ts";
import { tempDir } from "../_temp.ts";

/** A temporary file with `bytes`, removed (with its folder) when disposed. */
async function fileWith(bytes: Uint8Array): Promise<{ path: string } & AsyncDisposable> {
  const dir = await tempDir();
  const path = `${dir.path}/data.bin`;
  await Deno.writeFile(path, bytes);
  return { path, [Symbol.asyncDispose]: () => dir[Symbol.asyncDispose]() };
}

for (const size of [0, 4096, (1 << 20) + 3]) {
  Deno.test(`a file of ${size} bytes is read whole, exactly`, async () => {
    const bytes = crypto.getRandomValues(new Uint8Array(Math.min(size, 65_536)));
    const data = new Uint8Array(size).map((_, i) => bytes[i % bytes.length] ?? 0);
    await using file = await fileWith(data);
    const source = await resolveSource(file.path);
    assertEquals(source.size, size);
    assertEquals(await source.readAll(), data);
  });

  Deno.test(`a file of ${size} bytes that grew after it was measured is refused`, async () => {
    await using file = await fileWith(new Uint8Array(size));
    const { path } = file;
    const source = await resolveSource(path);
    await Deno.writeFile(path, new Uint8Array(10), { append: true });
    const error = await assertRejects(() => source.readAll(), InputError);
    assertStringIncludes(error.message, "changed while it was uploaded");
  });
}

Deno.test("a small file that shrank after it was measured is refused", async () => {
  await using file = await fileWith(new Uint8Array(4096));
  const { path } = file;
  const source = await resolveSource(path);
  await Deno.writeFile(path, new Uint8Array(100));
  const error = await assertRejects(() => source.readAll(), InputError);
  assertStringIncludes(error.message, "shrank while it was uploaded");
});

Deno.test("a small file rewritten with the same size but a new time is refused", async () => {
  await using file = await fileWith(new Uint8Array(4096));
  const { path } = file;
  const source = await resolveSource(path);
  await Deno.writeFile(path, new Uint8Array(4096).fill(1));
  await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
  const error = await assertRejects(() => source.readAll(), InputError);
  assertStringIncludes(error.message, "changed while it was uploaded");
});
