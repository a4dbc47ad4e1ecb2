// scripts/cli_docs.ts and lib/cli/markdown_help.ts: docs/cli.md comes from the command tree, and
// the check notices a stale copy.
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { Command } from "@commander-js/extra-typings";
import { cliDocs, staleReason } from "../../scripts/cli_docs.ts";
import { markdownHelp } from "../../lib/cli/markdown_help.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { commandPath, walkCommands } from "../../lib/cli/_tree.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

Deno.test("markdownHelp() has a section for every command of the tree, with its options", async () => {
  const program = await createProgram({ version: "0.0.0-test", input: [] });
  const text = markdownHelp(program);
  for (const command of walkCommands(program)) {
    const heading = new RegExp(`^#{2,6} ${commandPath(command)}$`, "m");
    assert(heading.test(text), `no section for ${commandPath(command)}`);
    for (const option of command.options) {
      if (["--help", "--version", "--xmlhelp", "--commands"].includes(option.long ?? "")) continue;
      assertStringIncludes(text, `| \`${option.flags}\` |`);
    }
  }
});

Deno.test("markdownHelp() marks required options, defaults, choices and arguments", () => {
  const root = new Command("tool").description("A tool");
  const group = root.command("things").description("Manage things").alias("stuff");
  group.command("add").description("Add a thing\nMore detail | with a pipe")
    .argument("<name...>", "Names of the things")
    .requiredOption("-k, --kind <kind>", "Kind of thing")
    .option("-c, --colour <colour>", "Colour <c>", "red")
    .option("-q, --quiet", "Say nothing")
    .addHelpText("after", "\nExamples:\n  $ tool things add -k box a b");
  const text = markdownHelp(root);
  assertStringIncludes(text, "### tool things add\n\nAdd a thing\nMore detail | with a pipe\n");
  assertStringIncludes(text, "tool things add [options] <name...>");
  assertStringIncludes(text, "| `name...` | yes |  | Names of the things. |");
  assertStringIncludes(text, "| `-k, --kind <kind>` | string | yes |  | Kind of thing. |");
  assertStringIncludes(text, "| `-c, --colour <colour>` | string | no | `red` | Colour \\<c\\>. |");
  assertStringIncludes(text, "| `-q, --quiet` | flag | no |  | Say nothing. |");
  assertStringIncludes(text, "| [`add`](#tool-things-add) | Add a thing |");
  assertStringIncludes(text, "  - [tool things add](#tool-things-add)");
  assertStringIncludes(text, "## tool things\n\nManage things\n\nAlso called `stuff`.\n");
  assertStringIncludes(text, "```text\nExamples:\n  $ tool things add -k box a b\n```\n");
});

Deno.test("staleReason() accepts the generated text (also with CRLF) and names a stale copy", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/cli.md`;
    assertStringIncludes((await staleReason(path)) ?? "", "is missing: run 'deno task docs:cli'");
    await Deno.writeTextFile(path, await cliDocs());
    assertEquals(await staleReason(path), null);
    await Deno.writeTextFile(path, (await cliDocs()).replaceAll("\n", "\r\n"));
    assertEquals(await staleReason(path), null);
    await Deno.writeTextFile(path, (await cliDocs()).replace("records", "recordz"));
    assertEquals(
      await staleReason(path),
      `${path} is out of date with the command tree: run 'deno task docs:cli' and commit it`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

async function checkRun(...args: string[]): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command("deno", {
    args: ["run", "--allow-read", "scripts/cli_docs.ts", "--check", ...args],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test("cli_docs.ts --check passes on the committed docs/cli.md (deno task check runs it)", async () => {
  const { code, stderr } = await checkRun();
  assertEquals(code, 0, stderr);
});

Deno.test("cli_docs.ts --check exits 1 on a stale reference and says how to fix it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/cli.md`;
    await Deno.writeTextFile(
      path,
      (await cliDocs()).replace(/\n#### [^\n]+\n[\s\S]*?(?=\n#### )/, ""),
    );
    const { code, stderr } = await checkRun(path);
    assertEquals(code, 1);
    assertEquals(
      stderr.trim(),
      `${path} is out of date with the command tree: run 'deno task docs:cli' and commit it`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
