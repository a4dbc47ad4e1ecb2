// readBoundedText(): a text file given by the user, refused when missing, not a file or too
// large, and read with the bound checked again while reading (the file may grow after its stat).
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { readBoundedText } from "../../lib/import/read_bounded_text.ts";

Deno.test("readBoundedText() reads a file of several pieces whole, up to the bound", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = "0123456789abcdef".repeat(200_000); // 3.2 MB: more than one read
    await Deno.writeTextFile(`${dir}/a.json`, text);
    assertEquals(await readBoundedText(`${dir}/a.json`, text.length), text);
    await Deno.writeTextFile(`${dir}/u.txt`, "grüße");
    assertEquals(await readBoundedText(`${dir}/u.txt`, 7), "grüße");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readBoundedText() refuses a missing path, a folder and a file over the bound", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/big.txt`, "x".repeat(100));
    const cases: [string, number, string][] = [
      [`${dir}/none.txt`, 10, "No file at"],
      [dir, 10, "is not a file"],
      [`${dir}/big.txt`, 99, "has 100 bytes, more than the 99 read"],
    ];
    for (const [path, max, text] of cases) {
      const error = await assertRejects(() => readBoundedText(path, max), InputError);
      assertStringIncludes(error.message, text);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
