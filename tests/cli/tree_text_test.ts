// Trees drawn as text (`collections show-info -s`): box-drawing branches, or ASCII where the
// terminal or the locale cannot show them.

import { assertEquals } from "../_assert.ts";
import { canDrawUnicode, treeLines } from "../../lib/cli/_tree_text.ts";

const TREE = {
  label: "root",
  children: [
    { label: "a", children: [{ label: "a1" }, { label: "a2" }] },
    { label: "b", children: [{ label: "b1" }] },
  ],
};

Deno.test("treeLines() draws branches with box-drawing characters", () => {
  assertEquals(treeLines(TREE), [
    "root",
    "├── a",
    "│   ├── a1",
    "│   └── a2",
    "└── b",
    "    └── b1",
  ]);
});

Deno.test("treeLines() falls back to ASCII", () => {
  assertEquals(treeLines(TREE, { ascii: true }), [
    "root",
    "|-- a",
    "|   |-- a1",
    "|   `-- a2",
    "`-- b",
    "    `-- b1",
  ]);
});

Deno.test({
  name: "canDrawUnicode() follows LC_ALL, LC_CTYPE and LANG, and TERM=dumb",
  ignore: Deno.build.os === "windows",
  fn() {
    const env = (vars: Record<string, string>) => (name: string) => vars[name];
    assertEquals(canDrawUnicode(env({ LANG: "C" })), false);
    assertEquals(canDrawUnicode(env({ LANG: "C", LC_ALL: "de_DE.UTF-8" })), true);
    assertEquals(canDrawUnicode(env({ LANG: "en_US.utf8", LC_CTYPE: "POSIX" })), false);
    assertEquals(canDrawUnicode(env({ LANG: "C.UTF-8", TERM: "dumb" })), false);
    assertEquals(canDrawUnicode(env({})), true);
  },
});
