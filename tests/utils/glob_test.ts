import { assertEquals, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/http/errors.ts";
import { globFilter, globToRegExp } from "../../lib/utils/glob.ts";

Deno.test("globToRegExp() matches like fnmatch", () => {
  const cases: [string, string, boolean][] = [
    ["*.txt", "a.txt", true],
    ["*.txt", "a.txt.gz", false],
    ["?.csv", "a.csv", true],
    ["?.csv", "ab.csv", false],
    ["[ab]*", "beta", true],
    ["[!ab]*", "beta", false],
    ["[a-c].txt", "c.txt", true],
    ["data(1).txt", "data(1).txt", true],
    ["*", "dir/name", true],
    ["[x", "[x", true],
    ["[]]", "]", true],
  ];
  for (const [glob, name, expected] of cases) {
    assertEquals(globToRegExp(glob).test(name), expected, `${glob} vs ${name}`);
  }
});

Deno.test("globFilter() keeps names that match the pattern and not the exclude pattern", () => {
  const names = ["a.csv", "b.txt", "tmp_c.csv"];
  assertEquals(names.filter(globFilter("*")), names);
  assertEquals(names.filter(globFilter("*.csv")), ["a.csv", "tmp_c.csv"]);
  assertEquals(names.filter(globFilter("*.csv", "tmp_*")), ["a.csv"]);
});

Deno.test("globToRegExp() handles **, dots and brackets like fnmatch, and rejects a reversed range", () => {
  const cases: [string, string, boolean][] = [
    ["**", "a/b/c.txt", true],
    ["*.tar.gz", "x.tar.gz", true],
    ["*.tar.gz", "x.tarxgz", false],
    [".*", ".hidden", true],
    ["*", ".hidden", true],
    ["[", "[", true],
    ["a[", "a[", true],
    ["[!]", "[!]", true],
    ["[^a]", "^", true],
    ["[\\]", "\\", true],
  ];
  for (const [glob, name, expected] of cases) {
    assertEquals(globToRegExp(glob).test(name), expected, `${glob} vs ${name}`);
  }
  const error = assertThrows(() => globToRegExp("[z-a]"), InputError);
  assertEquals(error.message.includes("[z-a]"), true);
});
