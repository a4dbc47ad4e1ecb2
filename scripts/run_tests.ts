// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * The test task's runner: runs each `deno test` invocation it is given in turn (all of them, also
 * after a failure), passes their output through, checks that the suite left nothing in its
 * temporary folder, and ends with one line that sums it all up, so the result is the last thing a
 * person or a CI log shows:
 *
 * `tests: 1268 passed, 0 failed, 1 ignored; nothing left in .cache/tmp`
 *
 * Exit code 1 when any invocation failed or printed no summary, or something was left behind.
 *
 * Usage: `deno run --allow-run=deno --allow-read=<tmp> scripts/run_tests.ts --leftovers=<tmp>
 * -- <deno test arguments> [-- <deno test arguments> ...]`
 *
 * @module
 */

import { leftovers } from "./check_leftovers.ts";

/** Totals of `deno test` summary lines (`ok | 12 passed | 0 failed | 1 ignored (3s)`). */
export interface Totals {
  passed: number;
  failed: number;
  ignored: number;
  /** Summary lines seen. */
  runs: number;
}

const SUMMARY =
  /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored)?/;

/**
 * Adds the summary in `line` (colours removed) to `totals`.
 *
 * @param totals Running totals, changed in place.
 * @param line One line of `deno test` output.
 */
export function addSummary(totals: Totals, line: string): void {
  // deno-lint-ignore no-control-regex -- terminal colours
  const match = SUMMARY.exec(line.replace(/\x1b\[[0-9;]*m/g, ""));
  if (match === null) return;
  totals.passed += Number(match[1]);
  totals.failed += Number(match[2]);
  totals.ignored += Number(match[3] ?? 0);
  totals.runs++;
}

/** Runs `deno test <args>`, passing its output through; true when it succeeded with a summary. */
async function runTests(args: string[], totals: Totals): Promise<boolean> {
  const before = totals.runs;
  const child = new Deno.Command("deno", { args: ["test", ...args], stdout: "piped" }).spawn();
  const encoder = new TextEncoder();
  let rest = "";
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop()!;
    for (const line of lines) {
      addSummary(totals, line);
      await Deno.stdout.write(encoder.encode(`${line}\n`));
    }
  }
  if (rest !== "") {
    addSummary(totals, rest);
    await Deno.stdout.write(encoder.encode(`${rest}\n`));
  }
  const { success } = await child.status;
  return success && totals.runs > before;
}

if (import.meta.main) {
  const dirArg = Deno.args.find((arg) => arg.startsWith("--leftovers="));
  const dir = dirArg?.slice("--leftovers=".length);
  const groups: string[][] = [];
  for (const arg of Deno.args.slice(Deno.args.indexOf("--"))) {
    if (arg === "--") groups.push([]);
    else groups.at(-1)!.push(arg);
  }
  if (dir === undefined || groups.length === 0 || groups.some((group) => group.length === 0)) {
    console.error("usage: run_tests.ts --leftovers=<dir> -- <deno test args> [-- <args> ...]");
    Deno.exit(2);
  }
  const totals: Totals = { passed: 0, failed: 0, ignored: 0, runs: 0 };
  let ok = true;
  for (const group of groups) ok = await runTests(group, totals) && ok;
  const left = await leftovers(dir);
  if (left.length > 0) {
    console.log(
      `The test suite left ${left.length} entr${left.length === 1 ? "y" : "ies"} in ${dir}: ` +
        `${left.slice(0, 20).join(", ")}${left.length > 20 ? ", ..." : ""} (each test and ` +
        "example must remove the files and folders it creates)",
    );
  }
  const where = left.length === 0 ? `nothing left in ${dir}` : `${left.length} left in ${dir}`;
  const incomplete = ok || totals.failed > 0 ? "" : " (a test run ended without its summary)";
  console.log(
    `tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.ignored} ignored; ` +
      `${where}${incomplete}`,
  );
  Deno.exit(ok && left.length === 0 ? 0 : 1);
}
