import { assertEquals } from "../_assert.ts";
import { globToRegExp } from "../../lib/transfer/_glob.ts";

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
