// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Writes `lib/cli/_help.json`: the `--help` text of the root, every group and every command,
 * exactly as commander prints it. `main()` answers `repo-apy <path> --help` from this file
 * without loading commander, whose imports of Node built-ins take longer than the whole start-up
 * budget. `tests/cli/help_cache_test.ts` fails when the file no longer matches the commands.
 *
 * Usage: `deno task help-cache` (after changing any command, option or help text).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { renderHelpTexts } from "../lib/cli/_help_cache.ts";

if (import.meta.main) {
  const texts = await renderHelpTexts();
  const path = new URL("../lib/cli/_help.json", import.meta.url);
  await Deno.writeTextFile(path, `${JSON.stringify(texts, null, 2)}\n`);
  console.log(`wrote the help of ${Object.keys(texts).length} commands to ${fileURLToPath(path)}`);
}
