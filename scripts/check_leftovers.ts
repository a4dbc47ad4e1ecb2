// deno-lint-ignore-file no-console -- a check script that reports to the terminal
/**
 * Fails when the test suite left anything in its temporary folder: every test and every doc
 * example removes what it creates. The test task runs it after `deno test`, on the folder it gave
 * the suite as TMPDIR (emptied before the run).
 *
 * Usage: `deno run --allow-read=<dir> scripts/check_leftovers.ts <dir>`
 *
 * @module
 */

/**
 * The entries left in `dir` (none when it does not exist).
 *
 * @param dir The suite's temporary folder.
 * @returns The names left, sorted.
 */
export async function leftovers(dir: string): Promise<string[]> {
  try {
    const names = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
    return names.sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

if (import.meta.main) {
  const dir = Deno.args[0];
  if (dir === undefined) {
    console.error("usage: check_leftovers.ts <dir>");
    Deno.exit(2);
  }
  const left = await leftovers(dir);
  if (left.length > 0) {
    console.error(
      `The test suite left ${left.length} entr${left.length === 1 ? "y" : "ies"} in ${dir}: ` +
        `${left.slice(0, 20).join(", ")}${left.length > 20 ? ", ..." : ""}\n` +
        "Each test and example must remove the files and folders it creates.",
    );
    Deno.exit(1);
  }
  console.error(`No leftovers in ${dir}`);
}
