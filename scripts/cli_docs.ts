// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Writes `docs/cli.md`, the command reference, from the command tree that also feeds `--help`,
 * `--xmlhelp` and the completion scripts. With `--check` it writes nothing and exits 1 when
 * `docs/cli.md` differs from what the tree gives (run by `deno task check`).
 *
 * Usage: `deno task docs:cli` (write) or `deno run --allow-read scripts/cli_docs.ts --check
 * [path]` (compare; `path` defaults to `docs/cli.md`).
 *
 * @module
 */

import denoJson from "../deno.json" with { type: "json" };
import { markdownHelp } from "../lib/cli/markdown_help.ts";
import { createProgram } from "../lib/cli/program.ts";

/** Where the reference lives, relative to the project root. */
export const CLI_DOCS_PATH = "docs/cli.md";

/**
 * The reference text for the current tree.
 *
 * @returns The Markdown text of `docs/cli.md`.
 */
export async function cliDocs(): Promise<string> {
  return markdownHelp(await createProgram({ version: denoJson.version, input: [] }));
}

/**
 * Compares `docs/cli.md` (at `path`) with the generated text.
 *
 * @param path The file to compare.
 * @returns `null` when current, else a one-line explanation.
 */
export async function staleReason(path: string | URL): Promise<string | null> {
  const name = path instanceof URL ? CLI_DOCS_PATH : path;
  const saved = await Deno.readTextFile(path).catch(() => null);
  if (saved === null) return `${name} is missing: run 'deno task docs:cli' and commit it`;
  if (saved.replaceAll("\r\n", "\n") === await cliDocs()) return null;
  return `${name} is out of date with the command tree: run 'deno task docs:cli' and commit it`;
}

if (import.meta.main) {
  const path = new URL(`../${CLI_DOCS_PATH}`, import.meta.url);
  if (Deno.args[0] === "--check") {
    const reason = await staleReason(Deno.args[1] ?? path);
    if (reason !== null) {
      console.error(reason);
      Deno.exit(1);
    }
    console.log(`${Deno.args[1] ?? CLI_DOCS_PATH} is current`);
  } else {
    await Deno.writeTextFile(path, await cliDocs());
    console.log(`wrote ${CLI_DOCS_PATH}`);
  }
}
