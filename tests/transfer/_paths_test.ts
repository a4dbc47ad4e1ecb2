// freePath: the numbered-name search is bounded.
import { join } from "node:path";
import { InputError } from "../../lib/errors.ts";
import { freePath } from "../../lib/transfer/_paths.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";

Deno.test("freePath picks the smallest free numbered name", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const taken = new Set([join(dir, "a.txt"), join(dir, "a_2.txt")]);
    assertEquals(await freePath(join(dir, "a.txt"), taken), join(dir, "a_3.txt"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("freePath gives up with a clear error after 10000 taken names", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const taken = new Set([join(dir, "a.txt")]);
    for (let n = 2; n <= 10_000; n++) taken.add(join(dir, `a_${n}.txt`));
    const error = await assertRejects(() => freePath(join(dir, "a.txt"), taken), InputError);
    assertStringIncludes(error.message, "No free file name for 'a.txt'");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
