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
import type { HelpTexts } from "../lib/cli/main.ts";
import { createProgram } from "../lib/cli/program.ts";
import { runCli } from "../lib/cli/run.ts";
import { commandPath, walkCommands } from "../lib/cli/_tree.ts";

/**
 * Renders the help of every command of the full tree unwrapped, as commander writes it before
 * `layoutHelp()` fits it to a terminal.
 */
export async function renderHelpTexts(): Promise<HelpTexts> {
  const texts: HelpTexts = {};
  for (const command of walkCommands(await createProgram({ version: "0" }))) {
    const path = commandPath(command).split(" ").slice(1);
    let text = "";
    const code = await runCli([...path, "--help"], {
      version: "0",
      helpWidth: Infinity,
      stdout: (chunk) => text += chunk,
      stderr: (chunk) => text += chunk,
    });
    if (code !== 0) throw new Error(`${path.join(" ")} --help exited ${code}`);
    texts[path.join(" ")] = text;
  }
  return texts;
}

if (import.meta.main) {
  const texts = await renderHelpTexts();
  const path = new URL("../lib/cli/_help.json", import.meta.url);
  await Deno.writeTextFile(path, `${JSON.stringify(texts, null, 2)}\n`);
  console.log(`wrote the help of ${Object.keys(texts).length} commands to ${fileURLToPath(path)}`);
}
