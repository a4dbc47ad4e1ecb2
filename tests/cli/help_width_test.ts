// `--help` fits the terminal: `COLUMNS`, else the terminal's width, else 80, the same whether the
// help comes from the pre-rendered cache (`main()`) or from commander (`runCli()`).

import { assert, assertEquals } from "../_assert.ts";
import helpJson from "../../lib/cli/_help.json" with { type: "json" };
import denoJson from "../../deno.json" with { type: "json" };
import type { HelpTexts } from "../../lib/cli/main.ts";
import { main } from "../../lib/cli/main.ts";
import { runCli as runInProcess } from "../../lib/cli/run.ts";
import { cliPermissions, runCli, tempHome } from "./_run.ts";

const TEXTS = helpJson as HelpTexts;

async function help(path: string, width: number): Promise<string> {
  let text = "";
  const args = path === "" ? ["--help"] : [...path.split(" "), "--help"];
  assertEquals(await main(args, { helpWidth: width, stdout: (chunk) => text += chunk }), 0);
  return text;
}

function widest(text: string): number {
  return Math.max(...text.split("\n").map((line) => line.length));
}

/** An example that is one command wider than the screen: it is not broken (copy and paste). */
const WHOLE_COMMAND = /^ {2}(\$ )?repo-apy \S.*$/;

/** The lines of `text` wider than `width`, except single example commands. */
function overflowing(text: string, width: number): string[] {
  return text.split("\n").filter((line) =>
    line.length > width && !(WHOLE_COMMAND.test(line) && !/ {2}# /.test(line))
  );
}

Deno.test("--help of every command fits 80 columns; only a single example command may be wider", async () => {
  for (const path of Object.keys(TEXTS)) {
    assertEquals(overflowing(await help(path, 80), 80), [], `'${path} --help'`);
  }
  for (const path of ["records", "records sync", "records add-files", "records get-file"]) {
    assert(widest(await help(path, 80)) <= 80, `${path} --help is wider than 80 columns`);
  }
});

Deno.test("--help wraps descriptions under their column and keeps every word", async () => {
  const text = await help("records sync", 60);
  assertEquals(overflowing(text, 60), []);
  const words = (value: string) => value.split(/\s+/).filter((word) => word !== "" && word !== "$");
  // Nothing lost or reordered, only spaces and line breaks changed (and comments moved above).
  assertEquals(words(text).sort(), words(TEXTS["records sync"]!).sort());
  assert(text.includes("\n  --delete"), "an option row starts its own line");
  const raw = TEXTS["records sync"]!;
  assertEquals(await help("records sync", Infinity), raw);
});

Deno.test("the cached help and commander's agree at every width", async () => {
  for (const width of [40, 60, 80, 100, 200]) {
    for (const path of ["", "records", "records sync", "records add-files", "misc"]) {
      let live = "";
      const args = path === "" ? ["--help"] : [...path.split(" "), "--help"];
      const code = await runInProcess(args, {
        version: denoJson.version,
        helpWidth: width,
        stdout: (chunk) => live += chunk,
      });
      assertEquals(code, 0);
      assertEquals(live, await help(path, width), `'${path} --help' at ${width} columns`);
    }
  }
});

Deno.test("COLUMNS sets the help's width; without it and without a terminal it is 80", async () => {
  await using home = await tempHome();
  const withColumns = [...cliPermissions(home.dir), "--allow-env=REPO_APY_CONFIG,HOME,COLUMNS"];
  for (const args of [["records", "sync", "--help"], ["help", "records", "sync"]]) {
    const wide = await runCli(home.dir, args, {
      permissions: withColumns,
      env: { COLUMNS: "120" },
    });
    assertEquals(wide.code, 0, wide.stderr);
    assert(widest(wide.stdout) > 80 && widest(wide.stdout) <= 120, `COLUMNS=120: ${args}`);
    const narrow = await runCli(home.dir, args, {
      permissions: withColumns,
      env: { COLUMNS: "80" },
    });
    assert(widest(narrow.stdout) <= 80, `COLUMNS=80: ${args}`);
    assertEquals(narrow.stdout, wide.stdout.length > 0 ? await help("records sync", 80) : "");
    // COLUMNS unreadable (not granted: never a permission prompt) and no terminal: 80.
    const fallback = await runCli(home.dir, args, { env: { COLUMNS: "120" } });
    assertEquals(fallback.stdout, narrow.stdout);
  }
});
