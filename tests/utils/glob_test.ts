import { assertEquals } from "../_assert.ts";
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
