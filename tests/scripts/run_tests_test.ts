// scripts/run_tests.ts, the test task's runner: whatever the suite prints, its result is the last
// line, summed over every `deno test` run, and a failure anywhere is exit code 1.

import { fileURLToPath } from "node:url";
import { assertEquals, assertMatch } from "../_assert.ts";
import { addSummary, type Totals } from "../../scripts/run_tests.ts";
import { tempDir } from "../_temp.ts";

const RUNNER = fileURLToPath(new URL("../../scripts/run_tests.ts", import.meta.url));

Deno.test("addSummary() sums deno test's summary lines, coloured or not, and nothing else", () => {
  const totals: Totals = { passed: 0, failed: 0, ignored: 0, runs: 0 };
  addSummary(totals, "\x1b[0m\x1b[32mok\x1b[0m | 12 passed | 0 failed | 1 ignored (3s)");
  addSummary(totals, "FAILED | 3 passed (2 steps) | 2 failed (4s)");
  addSummary(totals, "./a_test.ts => ok | 9 passed | 9 failed"); // a test's name, not a summary
  assertEquals(totals, { passed: 15, failed: 2, ignored: 1, runs: 2 });
});

Deno.test("the runner ends with one result line after all runs, exit 1 on a failure", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(
    `${dir.path}/pass_test.ts`,
    `Deno.test("p", () => console.log("noise"));`,
  );
  await Deno.writeTextFile(`${dir.path}/fail_test.ts`, `Deno.test("f", () => { throw 1; });`);
  await Deno.mkdir(`${dir.path}/tmp`);
  const run = async (...groups: string[][]) => {
    const { code, stdout } = await new Deno.Command("deno", {
      args: [
        "run",
        "--allow-run=deno",
        `--allow-read=${dir.path}/tmp`,
        RUNNER,
        `--leftovers=${dir.path}/tmp`,
        ...groups.flatMap((group) => ["--", "--quiet", "--no-check", "--no-config", ...group]),
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "null",
    }).output();
    return { code, last: new TextDecoder().decode(stdout).trimEnd().split("\n").at(-1) };
  };
  const pass = `${dir.path}/pass_test.ts`;
  const fail = `${dir.path}/fail_test.ts`;
  assertEquals(await run([pass], [pass]), {
    code: 0,
    last: `tests: 2 passed, 0 failed, 0 ignored; nothing left in ${dir.path}/tmp`,
  });
  // The failing run comes first; the next still runs and counts.
  assertEquals(await run([fail], [pass]), {
    code: 1,
    last: `tests: 1 passed, 1 failed, 0 ignored; nothing left in ${dir.path}/tmp`,
  });
  await Deno.writeTextFile(`${dir.path}/tmp/left.txt`, "");
  const left = await run([pass]);
  assertEquals(left.code, 1);
  assertMatch(left.last ?? "", /^tests: 1 passed, 0 failed, 0 ignored; 1 left in /);
});
