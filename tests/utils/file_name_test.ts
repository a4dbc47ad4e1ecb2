import { assertEquals } from "../_assert.ts";
import { MAX_FILE_NAME_BYTES, safeFileName } from "../../lib/utils/file_name.ts";

const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

Deno.test("safeFileName() keeps every name one path component", () => {
  const cases: [string, string][] = [
    ["../../../victim", ".._.._.._victim"],
    ["..", "_"],
    [".", "_"],
    ["", "_"],
    ["a/b\\c", "a_b_c"],
    ["nul\u0000byte\nline\u007f\u0085", "nul_byte_line__"],
    ["evil\u202etxt.exe", "evil_txt.exe"],
    ["plain name.txt", "plain name.txt"],
  ];
  for (const [name, expected] of cases) {
    assertEquals(safeFileName(name, { platform: "posix" }), expected, name);
  }
});

Deno.test("safeFileName() applies the Windows rules: reserved names, characters, trailing dots", () => {
  const windows = (name: string) => safeFileName(name, { platform: "windows" });
  assertEquals(windows("CON"), "_CON");
  assertEquals(windows("con.txt"), "_con.txt");
  assertEquals(windows("Lpt1.tar.gz"), "_Lpt1.tar.gz");
  assertEquals(windows("aux .txt"), "_aux .txt");
  assertEquals(windows("console.txt"), "console.txt");
  assertEquals(windows("a:b*c?.txt"), "a_b_c_.txt");
  assertEquals(windows("name. . "), "name____");
  assertEquals(windows("..."), "___");
  assertEquals(windows(".."), "__");
  assertEquals(windows("../../x"), ".._.._x");
  assertEquals(safeFileName("CON", { platform: "posix" }), "CON");
  assertEquals(safeFileName("a:b", { platform: "posix" }), "a:b");
});

Deno.test("safeFileName() shortens long names at a character boundary, keeping the extension", () => {
  const long = `${"ä".repeat(200)}.csv`;
  const short = safeFileName(long);
  assertEquals(bytes(short) <= MAX_FILE_NAME_BYTES, true);
  assertEquals(short.endsWith("ä.csv"), true);
  const second = safeFileName(long, { suffix: "_2" });
  assertEquals(second.endsWith("_2.csv"), true);
  assertEquals(bytes(second) <= MAX_FILE_NAME_BYTES, true);
  assertEquals(safeFileName("x".repeat(300)).length, 255);
  assertEquals(safeFileName(`${"n".repeat(246)}.txt`), `${"n".repeat(246)}.txt`);
  // An emoji (4 bytes) is never cut in half.
  const emoji = safeFileName("😀".repeat(100), { maxBytes: 10 });
  assertEquals(emoji, "😀😀");
});
