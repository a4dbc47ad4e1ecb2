// The command tree walk: every command declares whether it reads or changes; every reading
// command has --json and --jsonl, and they print JSON only; list commands are declared as such.

import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { assert, assertEquals, assertNotIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import {
  changingCommand,
  commandKind,
  isListCommand,
  readingCommand,
} from "../../lib/cli/_command_kind.ts";
import { commandPath, isGroup, walkCommands } from "../../lib/cli/_tree.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { repo } from "./_records.ts";
import { writeLocalConfig } from "./_run.ts";

/** Commands named like readers that do not read: they download or export to files. */
const NOT_READING_BY_NAME = ["repo-apy records get-file"];
/**
 * Changing commands whose --json prints what they did, for scripts (get-file: the paths it wrote;
 * sync: the plan and result).
 */
const CHANGING_WITH_JSON = [
  "repo-apy records get-file",
  "repo-apy records sync",
  "repo-apy collections sync",
];

/** What is wrong with the declarations of the commands below `root` (empty: nothing). */
function declarationProblems(root: CommandUnknownOpts): string[] {
  const problems: string[] = [];
  for (const command of walkCommands(root)) {
    if (command === root || isGroup(command)) continue;
    const path = commandPath(command);
    const kind = commandKind(command);
    const flags = command.options.map((option) => option.long);
    const json = flags.includes("--json") && flags.includes("--jsonl");
    if (kind === undefined) {
      problems.push(`${path}: declares neither readingCommand() nor changingCommand()`);
    } else if (kind === "reads" && !json) {
      problems.push(`${path}: reads but lacks --json/--jsonl`);
    } else if (
      kind === "changes" && (flags.includes("--json") || flags.includes("--jsonl")) &&
      !CHANGING_WITH_JSON.includes(path)
    ) {
      problems.push(`${path}: prints JSON, so it must be declared with readingCommand()`);
    }
    const readerName = /^(get|show)-/.test(command.name());
    if (kind === "changes" && readerName && !NOT_READING_BY_NAME.includes(path)) {
      problems.push(`${path}: named like a reading command but declared changing`);
    }
    // show-info's -p picks the page of a list inside the resource (files, records): one object.
    const embedded = command.name() === "show-info";
    if (kind === "reads" && flags.includes("--page") && !embedded && !isListCommand(command)) {
      problems.push(`${path}: pages (-p) but is not declared a list command`);
    }
  }
  return problems;
}

Deno.test("every command of the tree declares its kind; every reading one has --json and --jsonl", async () => {
  const program = await createProgram({ version: "0.0.0-test" });
  assertEquals(declarationProblems(program), []);
  const reading = [...walkCommands(program)].filter((command) => commandKind(command) === "reads");
  assert(reading.length >= 21, `only ${reading.length} reading commands`);
});

Deno.test("the tree walk fails for a new command that declares nothing or is declared wrongly", async () => {
  const program = await createProgram({ version: "0.0.0-test" });
  const records = program.commands.find((command) => command.name() === "records");
  assert(records !== undefined);
  records.addCommand(new Command("forgotten"));
  records.addCommand(changingCommand(new Command("show-thing")));
  records.addCommand(changingCommand(new Command("dump").option("--json")));
  records.addCommand(readingCommand(new Command("fine")));
  assertEquals(declarationProblems(program), [
    "repo-apy records forgotten: declares neither readingCommand() nor changingCommand()",
    "repo-apy records show-thing: named like a reading command but declared changing",
    "repo-apy records dump: prints JSON, so it must be declared with readingCommand()",
  ]);
});

/** Arguments that make each reading command succeed against the fixture below. */
const SAMPLES: { [path: string]: string[] } = {
  "config show-instances": [],
  "config get-repo-info": [],
  "records show-info": ["-R", "sample", "-l"],
  "records get-metadatum": ["-R", "sample", "-n", "temperature"],
  "records show-record-links-to": ["-R", "sample"],
  "records get-records": [],
  "records get-record-ids": [],
  "collections show-info": ["-C", "coll", "-r"],
  "collections get-collections": [],
  "collections get-collection-ids": [],
  "templates show-info": ["-T", "tmpl"],
  "templates get-templates": [],
  "groups show-info": ["-G", "grp"],
  "groups get-groups": [],
  "users show-info": ["-u", "1"],
  "users get-users": [],
  "misc get-repo-info": [],
  "misc get-deleted-resources": [],
  "misc get-licenses": [],
  "misc get-roles": [],
  "misc get-tags": [],
};

Deno.test("every reading command prints its data whatever -q, the same bare data with -p, only JSON with --json and --jsonl", async () => {
  await using server = await startServer();
  const config = await Deno.makeTempFile({ prefix: "repo-apy-json-", suffix: ".toml" });
  await writeLocalConfig(config, server.url, server.pat);
  const previous = Deno.env.get("REPO_APY_CONFIG");
  Deno.env.set("REPO_APY_CONFIG", config);
  try {
    for (
      const setup of [
        ["records", "create", "-i", "sample"],
        ["records", "create", "-i", "other"],
        [
          "records",
          "add-metadatum",
          "-R",
          "sample",
          "-m",
          "temperature",
          "-v",
          "21",
          "-t",
          "integer",
        ],
        ["records", "add-record-link", "-R", "sample", "-L", "other", "-n", "next"],
        ["records", "add-tag", "-R", "sample", "-t", "tagged"],
        ["collections", "create", "-i", "coll"],
        ["templates", "create", "-i", "tmpl"],
        ["groups", "create", "-i", "grp"],
      ]
    ) {
      const run = await repo(server, setup);
      assertEquals(run.code, 0, `${setup.join(" ")}: ${run.stderr}`);
    }
    const program = await createProgram({ version: "0.0.0-test" });
    const reading = [...walkCommands(program)]
      .filter((command) => commandKind(command) === "reads")
      .map((command) => commandPath(command).replace(/^repo-apy /, ""));
    assertEquals(reading.sort(), Object.keys(SAMPLES).sort());
    for (const [path, args] of Object.entries(SAMPLES)) {
      const argv = [...path.split(" "), ...args];
      // The normal form prints the data on stdout; -q/--quiet keeps all of it and drops the rest.
      const plain = await repo(server, argv);
      assertEquals(plain.code, 0, `${path}: ${plain.stderr}`);
      assert(plain.stdout.trim() !== "", `${path} printed no data`);
      const quiet = await repo(server, [...argv, "--quiet"]);
      assertEquals([quiet.code, quiet.stdout, quiet.stderr], [0, plain.stdout, ""], `${path} -q`);
      const command = findCommand(program, path);
      if (command.options.some((option) => option.long === "--pipe")) {
        // Where the whole output is the value (ids, a metadatum), -p prints the same bare data.
        const piped = await repo(server, [...argv, "--pipe"]);
        assertEquals([piped.code, piped.stdout, piped.stderr], [0, plain.stdout, ""], path);
      }
      const json = await repo(server, [...argv, "--json"]);
      assertEquals(json.code, 0, `${path} --json: ${json.stderr}`);
      JSON.parse(json.stdout); // the whole of stdout is one JSON document
      assertNotIncludes(json.stdout, server.pat);
      const jsonl = await repo(server, [...argv, "--jsonl"]);
      assertEquals(jsonl.code, 0, `${path} --jsonl: ${jsonl.stderr}`);
      const lines = jsonl.stdout.split("\n");
      assertEquals(lines.pop(), "", `${path} --jsonl ends with a newline`);
      for (const line of lines) JSON.parse(line);
      if (!isListCommand(findCommand(program, path)) && !path.endsWith("-ids")) {
        assertEquals(lines.length, 1, `${path} --jsonl prints one line`);
      }
    }
  } finally {
    if (previous === undefined) Deno.env.delete("REPO_APY_CONFIG");
    else Deno.env.set("REPO_APY_CONFIG", previous);
    await Deno.remove(config);
  }
});

function findCommand(root: CommandUnknownOpts, path: string): CommandUnknownOpts {
  const found = [...walkCommands(root)].find((command) =>
    commandPath(command) === `repo-apy ${path}`
  );
  if (found === undefined) throw new Error(`no command ${path}`);
  return found;
}
