// Usage (issue 9): every usage error exits 2, help marks required options, `repo-apy help …`
// works, group help has examples, and a misspelled flag is reported before a missing one.

import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { commandPath, isGroup, walkCommands } from "../../lib/cli/_tree.ts";
import { createRecord, repo } from "./_records.ts";

Deno.test("usage errors found by the commands exit 2 like Commander's own", async () => {
  await using server = await startServer();
  const id = String(await createRecord(server, "usage"));
  for (
    const args of [
      ["records", "create", "--identifer", "x"],
      ["records", "add-metadata", "-r", id, "-p", "no-such-file.json"],
      ["records", "nonsense"],
      ["help", "records", "nonsense"],
    ]
  ) {
    const run = await repo(server, args);
    assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assertNotIncludes(run.stderr, "    at ");
  }
});

Deno.test("where the Python client exits 1 for a missing or doubled selector or bad data, so do we (issue 31)", async () => {
  await using server = await startServer();
  const id = String(await createRecord(server, "usage"));
  for (
    const args of [
      ["records", "show-info"],
      ["records", "show-info", "-r", id, "-R", "usage"],
      ["records", "add-metadata", "-r", id],
      ["records", "delete-file", "-r", id],
      ["records", "add-user", "-r", id, "-U", "jdoe"],
      ["templates", "create", "-i", "t", "-d", "{nope"],
      ["templates", "create", "-i", "t", "-y", "extras", "-d", "{}"],
      ["records", "get-records", "-i", "-u", "1"],
      ["misc", "reuse-collection", "-c", "1"],
    ]
  ) {
    const run = await repo(server, args);
    assertEquals(run.code, 1, `${args.join(" ")}: ${run.stderr}`);
    assertNotIncludes(run.stderr, "    at ");
  }
});

Deno.test("every command reports an unknown flag as a usage error (exit 2)", async () => {
  await using server = await startServer();
  const program = await createProgram({ version: "0" });
  for (const command of walkCommands(program)) {
    if (command === program) continue;
    const path = commandPath(command).split(" ").slice(1);
    const run = await repo(server, [...path, "--no-such-flag"]);
    assertEquals(run.code, 2, `${path.join(" ")}: ${run.stderr}`);
    assertStringIncludes(run.stderr, "unknown option '--no-such-flag'");
  }
});

Deno.test("a misspelled flag is reported as a typo before the required option it names", async () => {
  await using server = await startServer();
  const run = await repo(server, ["records", "create", "--identifer", "x"]);
  assertEquals(run.code, 2);
  assertStringIncludes(run.stderr, "unknown option '--identifer'");
  assertStringIncludes(run.stderr, "Did you mean --identifier?");
  assertNotIncludes(run.stderr, "required option");
  // A flag's value that looks like a flag is not taken for a typo.
  const value = await repo(server, ["records", "create", "-i", "x", "-t", "--not-a-flag", "-p"]);
  assertEquals(value.code, 0, value.stderr);
});

Deno.test("repo-apy help <command...> prints the command's help; --help marks required options", async () => {
  await using server = await startServer();
  const help = await repo(server, ["help", "records", "create"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "Usage: repo-apy records create");
  assertStringIncludes(help.stdout, "Identifier of the record (required)");
  assertNotIncludes(
    help.stdout,
    "Title of the record (default: the identifier as typed) (required)",
  );
  const flag = await repo(server, ["records", "create", "--help"]);
  assertEquals(flag.stdout, help.stdout);
  const root = await repo(server, ["help"]);
  assertEquals(root.code, 0);
  assertStringIncludes(root.stdout, "repo-apy help <group> <command>");
});

Deno.test("the help of every group has examples", async () => {
  await using server = await startServer();
  const program = await createProgram({ version: "0" });
  for (const group of walkCommands(program)) {
    if (group === program || !isGroup(group)) continue;
    const path = commandPath(group).split(" ").slice(1);
    const run = await repo(server, ["help", ...path]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stdout, "Examples:\n  $ repo-apy ");
    // A real use of a command comes first, not only pointers to more help.
    const first = run.stdout.split("Examples:\n")[1]!.split("\n")[0]!;
    assertEquals(first.includes("repo-apy help "), false, `${path.join(" ")}: ${first}`);
  }
});

Deno.test("the ids commands' --json and --jsonl help say one thing each", async () => {
  await using server = await startServer();
  for (const group of ["records", "collections"]) {
    const command = group === "records" ? "get-record-ids" : "get-collection-ids";
    const run = await repo(server, ["help", group, command]);
    const jsonl = run.stdout.split("\n").find((line) => line.trimStart().startsWith("--jsonl"));
    assertStringIncludes(jsonl ?? "", "each id as a JSON number on its own line");
    assertNotIncludes(jsonl ?? "", "array");
  }
});
