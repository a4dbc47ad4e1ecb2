// Stdout holds data and nothing else (issue 21): the command tree is walked and every command
// that changes something runs in its normal form (stdout empty: its messages go to stderr), its
// pipe form where it has one (`-p`, `-P`, `-E`: the data only) and its `--json` form where it
// has one; -q/--quiet keeps the data and drops the messages. A command added without a sample
// here fails the walk. The reading commands are walked in reading_commands_test.ts.

import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { commandKind } from "../../lib/cli/_command_kind.ts";
import { commandPath, isGroup, walkCommands } from "../../lib/cli/_tree.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { simpleCrate, tempEln, zipBytes } from "../import/_eln.ts";
import { repo, tempDir } from "./_records.ts";
import { tempHome } from "./_run.ts";

/** What a pipe form prints: a number, or the data of an export (checked to be non-empty). */
type PipeData = "id" | "text";

/** One changing command: its arguments, and its pipe flag with what that prints. */
interface Step {
  path: string;
  args: string[];
  pipe?: { flag: string; data: PipeData };
  /**
   * Its `--json` form prints this: an array (the paths get-file wrote) or an object (sync's plan
   * and result).
   */
  json?: "array" | "object";
}

function steps(dir: string, eln: string): Step[] {
  const R = ["-R", "walk"];
  return [
    { path: "config create", args: [] },
    { path: "config set-host", args: ["-H", "https://walk.example"] },
    { path: "config set-pat", args: [] },
    { path: "config add-instance", args: ["-I", "second", "-H", "https://second.example"] },
    { path: "config rename-instance", args: ["-I", "second", "-N", "third"] },
    { path: "config change-default-instance", args: ["-I", "third"] },
    { path: "config activate-autocompletion", args: ["-s", "bash"] },
    { path: "config import-kadiconfig", args: [`${dir}/kadiconfig`, "-f"] },
    { path: "records create", args: ["-i", "walk"], pipe: { flag: "-p", data: "id" } },
    { path: "records edit", args: [...R, "-d", "About"] },
    { path: "records add-files", args: [...R, "-n", `${dir}/a.txt`] },
    { path: "records add-string-as-file", args: [...R, "-s", "b", "-n", "b.txt", "-f"] },
    {
      path: "records get-file",
      args: [...R, "-n", "b.txt", "-p", `${dir}/out`, "-f"],
      pipe: { flag: "-E", data: "text" },
      json: "array",
    },
    { path: "records sync", args: [...R, "--from", `${dir}/out`], json: "object" },
    { path: "records edit-file", args: [...R, "-n", "b.txt", "-a", "c.txt"] },
    { path: "records delete-file", args: [...R, "-n", "c.txt"] },
    { path: "records delete-files", args: [...R, "--i-am-sure"] },
    { path: "records add-metadatum", args: [...R, "-m", "t", "-v", "1", "-t", "integer", "-f"] },
    {
      path: "records add-metadata",
      args: [...R, "-m", '[{"key": "u", "type": "str", "value": "x"}]', "-f"],
    },
    { path: "records delete-metadatum", args: [...R, "-m", "u"] },
    { path: "records delete-all-metadata", args: [...R, "--i-am-sure"] },
    { path: "records add-record-link", args: [...R, "-L", "other", "-n", "uses"] },
    { path: "records update-record-link", args: [...R, "-l", "1", "-n", "cites"] },
    { path: "records delete-record-link", args: [...R, "-l", "1"] },
    { path: "records add-collection-link", args: [...R, "-C", "coll"] },
    { path: "records remove-collection-link", args: [...R, "-C", "coll"] },
    { path: "records add-tag", args: [...R, "-t", "x"] },
    { path: "records remove-tag", args: [...R, "-t", "x"] },
    { path: "records add-user", args: [...R, "-u", "2", "-p", "member"] },
    { path: "records remove-user", args: [...R, "-u", "2"] },
    { path: "records add-group-role", args: [...R, "-G", "grp", "-p", "member"] },
    { path: "records remove-group-role", args: [...R, "-G", "grp"] },
    {
      path: "records export",
      args: [...R, "-p", `${dir}/exports`, "-f"],
      pipe: { flag: "-P", data: "text" },
    },
    {
      path: "records export-metadata",
      args: [...R, "-p", `${dir}/exports`, "-f"],
      pipe: { flag: "-P", data: "text" },
    },
    { path: "collections create", args: ["-i", "walk-c"], pipe: { flag: "-p", data: "id" } },
    { path: "collections edit", args: ["-C", "walk-c", "-d", "About"] },
    { path: "collections add-user", args: ["-C", "walk-c", "-u", "2", "-p", "member"] },
    { path: "collections remove-user", args: ["-C", "walk-c", "-u", "2"] },
    { path: "collections add-group-role", args: ["-C", "walk-c", "-G", "grp", "-p", "member"] },
    { path: "collections remove-group-role", args: ["-C", "walk-c", "-G", "grp"] },
    { path: "collections add-record-link", args: ["-C", "walk-c", "-R", "walk"] },
    { path: "collections remove-record-link", args: ["-C", "walk-c", "-R", "walk"] },
    { path: "collections add-collection-link", args: ["-C", "walk-c", "-L", "coll"] },
    { path: "collections remove-collection-link", args: ["-C", "walk-c", "-L", "coll"] },
    { path: "collections add-tag", args: ["-C", "walk-c", "-t", "x"] },
    { path: "collections remove-tag", args: ["-C", "walk-c", "-t", "x"] },
    {
      path: "collections export",
      args: ["-C", "walk-c", "-p", `${dir}/exports`, "-f"],
      pipe: { flag: "-P", data: "text" },
    },
    {
      path: "collections sync",
      args: ["-C", "walk-c", "--to", `${dir}/collection`],
      json: "object",
    },
    {
      path: "templates create",
      args: ["-i", "walk-t", "-y", "record"],
      pipe: { flag: "-p", data: "id" },
    },
    { path: "templates edit", args: ["-T", "walk-t", "-d", "About"] },
    { path: "templates add-user", args: ["-T", "walk-t", "-u", "2", "-p", "member"] },
    { path: "templates remove-user", args: ["-T", "walk-t", "-u", "2"] },
    { path: "templates add-group-role", args: ["-T", "walk-t", "-G", "grp", "-p", "member"] },
    { path: "templates remove-group-role", args: ["-T", "walk-t", "-G", "grp"] },
    {
      path: "templates export",
      args: ["-T", "walk-t", "-p", `${dir}/exports`, "-f"],
      pipe: { flag: "-P", data: "text" },
    },
    { path: "groups create", args: ["-i", "walk-g"], pipe: { flag: "-p", data: "id" } },
    { path: "groups edit", args: ["-G", "walk-g", "-d", "About"] },
    { path: "groups add-user", args: ["-G", "walk-g", "-u", "2", "-p", "member"] },
    { path: "groups remove-user", args: ["-G", "walk-g", "-u", "2"] },
    { path: "misc import-eln", args: ["-p", eln] },
    { path: "misc import-json-schema", args: ["-p", `${dir}/schema.json`] },
    { path: "misc import-shacl", args: ["-p", `${dir}/shapes.ttl`] },
    { path: "misc reuse-collection", args: ["-c", "1", "-s", "v2", "-r", "all"] },
    { path: "templates delete", args: ["-T", "walk-t", "--i-am-sure"] },
    { path: "groups delete", args: ["-G", "walk-g", "--i-am-sure"] },
    { path: "collections delete", args: ["-C", "walk-c", "--i-am-sure"] },
    { path: "records delete", args: [...R, "--i-am-sure"] },
    { path: "misc restore-resource", args: ["-t", "record", "-i", "2"] },
    { path: "misc purge-resource", args: ["-t", "template", "-i", "1"] },
  ];
}

const SHAPES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix ex: <http://example.org/> .
ex:Sample a sh:NodeShape ;
  sh:property [ sh:path ex:name ; sh:name "name" ; sh:datatype xsd:string ] .
`;

Deno.test("every changing command prints nothing on stdout but the data asked for (-p, -P, -E, --json)", async () => {
  await using server = await startServer({ users: [{ username: "alice", displayname: "Alice" }] });
  await using home = await tempHome();
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/a.txt`, "a");
  await Deno.writeTextFile(
    `${dir.path}/schema.json`,
    JSON.stringify({ title: "Walk schema", type: "object", properties: { a: { type: "string" } } }),
  );
  await Deno.writeTextFile(`${dir.path}/shapes.ttl`, SHAPES);
  // Exports go to a folder that exists: `-p` must name one, as in the Python client (issue 31).
  await Deno.mkdir(`${dir.path}/exports`);
  await Deno.writeTextFile(
    `${dir.path}/kadiconfig`,
    "[global]\ndefault = py\n[py]\nhost = https://py.example\npat = pat_py_0123456789\n",
  );
  const eln = await tempEln(await zipBytes(simpleCrate()));
  const previous = { config: Deno.env.get("REPO_APY_CONFIG"), home: Deno.env.get("HOME") };
  Deno.env.set("REPO_APY_CONFIG", home.configPath);
  Deno.env.set("HOME", home.dir);
  try {
    for (
      const setup of [
        ["records", "create", "-i", "other"],
        ["collections", "create", "-i", "coll"],
        ["groups", "create", "-i", "grp"],
        ["records", "add-collection-link", "-R", "other", "-C", "coll"],
      ]
    ) {
      const run = await repo(server, setup);
      assertEquals(run.code, 0, `${setup.join(" ")}: ${run.stderr}`);
    }
    const all = steps(dir.path, eln);
    const program = await createProgram({ version: "0.0.0-test" });
    const changing = [...walkCommands(program)]
      .filter((command) => command !== program && !isGroup(command))
      .filter((command) => commandKind(command) === "changes")
      .map((command) => commandPath(command).replace(/^repo-apy /, ""));
    assertEquals(all.map((step) => step.path).sort(), changing.sort());
    for (const step of all) {
      const argv = [...step.path.split(" "), ...step.args];
      const asksToken = ["config set-pat", "config add-instance"].includes(step.path);
      const input = asksToken ? ["pat_walk_0123456789"] : [];
      const plain = await run(server, argv, input);
      assertEquals(plain.code, 0, `${step.path}: ${plain.stderr}`);
      assertEquals(plain.stdout, "", `${step.path} printed on stdout`);
      if (step.pipe !== undefined) {
        const piped = await run(server, [...argv, step.pipe.flag, "-q"], input);
        assertEquals([piped.code, piped.stderr], [0, ""], `${step.path} ${step.pipe.flag}`);
        if (step.pipe.data === "id") assertMatch(piped.stdout, /^\d+\n$/);
        else assert(piped.stdout.trim() !== "", `${step.path} ${step.pipe.flag} printed no data`);
      }
      if (step.json !== undefined) {
        const json = await run(server, [...argv, "--json"], input);
        assertEquals(json.code, 0, json.stderr);
        const value = JSON.parse(json.stdout);
        assertEquals(
          Array.isArray(value) ? "array" : typeof value,
          step.json,
          `${step.path} --json`,
        );
      }
    }
  } finally {
    for (const [name, value] of [["REPO_APY_CONFIG", previous.config], ["HOME", previous.home]]) {
      if (value === undefined) Deno.env.delete(name!);
      else Deno.env.set(name!, value);
    }
    await Deno.remove(eln);
  }
});

/** Runs in-process, with prompt answers for the config commands. */
async function run(
  server: Awaited<ReturnType<typeof startServer>>,
  args: string[],
  input: string[],
) {
  if (!args[0]?.startsWith("config")) return await repo(server, args);
  const { runCli } = await import("../../lib/cli/run.ts");
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    version: "0.0.0-test",
    input,
    stdout: (text) => stdout += text,
    stderr: (text) => stderr += text,
  });
  return { code, stdout, stderr };
}
