import { assertEquals } from "../_assert.ts";
import { terminalLine } from "../../lib/cli/_terminal_text.ts";

const HOSTILE = "A\x1b]0;t\x07\x1b[31m\r\nB\u009b\u202e\tC";

Deno.test("terminalLine() shows each control character as '?' and keeps TAB", () => {
  assertEquals(terminalLine(HOSTILE), "A?]0;t??[31m??B??\tC");
  assertEquals(terminalLine(undefined), "");
});

Deno.test("terminalLine() with fold: control runs become one space, ends trimmed, the rest '?'", () => {
  assertEquals(terminalLine(` \n${HOSTILE}\r\n`, { fold: true }), "A ]0;t [31m B?? C");
});

Deno.test("terminalLine() with maxLength cuts where the text without replacements would be cut", () => {
  const text = `${"\u009b".repeat(5)}${"x".repeat(10)}`;
  assertEquals(terminalLine(text, { maxLength: 8 }), "?????xxx…");
  assertEquals(terminalLine("short", { maxLength: 8 }), "short");
});
