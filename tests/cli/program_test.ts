import { assertEquals, assertStringIncludes, assertTrue } from "../_assert.ts";
import { main } from "../../cli.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { commandPath, walkCommands } from "../../lib/cli/_tree.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { parseXml } from "./_xml.ts";

async function run(args: string[], input?: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (text) => stdout += text,
    stderr: (text) => stderr += text,
    ...(input === undefined ? {} : { input }),
  });
  return { code, stdout, stderr };
}

Deno.test("main() prints the version from deno.json on the root, groups and commands", async () => {
  for (const args of [["--version"], ["config", "--version"], ["config", "create", "--version"]]) {
    assertEquals(await run(args), { code: 0, stdout: `${denoJson.version}\n`, stderr: "" });
  }
});

Deno.test("main() builds the groups of the reference client, misc also as miscellaneous", () => {
  const program = createProgram({ version: "1" });
  assertEquals(program.name(), "repo-apy");
  assertEquals(program.commands.map((command) => command.name()), [
    "config",
    "records",
    "collections",
    "templates",
    "groups",
    "users",
    "misc",
  ]);
  assertEquals(program.commands.at(-1)?.aliases(), ["miscellaneous"]);
  const config = program.commands[0]!;
  assertEquals(config.commands.map((command) => command.name()), [
    "create",
    "set-host",
    "set-pat",
    "add-instance",
    "change-default-instance",
    "rename-instance",
    "show-instances",
    "activate-autocompletion",
    "import-kadiconfig",
    "get-repo-info",
  ]);
});

Deno.test("main() returns 0 for --help and 2 for usage errors", async () => {
  const help = await run(["config", "--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "Usage: repo-apy config [options] [command]");
  const cases: [string[], string][] = [
    [["--nope"], "error: unknown option '--nope'"],
    [["nope"], "error: unknown command 'nope'"],
    [["config"], "Usage: repo-apy config"],
    [["records"], "Usage: repo-apy records"],
    [["config", "change-default-instance"], "error: required option '-I, --instance <name>'"],
    [["config", "activate-autocompletion", "-s", "csh"], "Allowed choices are bash, zsh, fish"],
    [["config", "get-repo-info", "-V"], "error: option '-V, --verbose <level>' argument missing"],
    [["config", "create", "extra"], "error: too many arguments"],
  ];
  for (const [args, message] of cases) {
    const result = await run(args);
    assertEquals(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assertEquals(result.stdout, "");
    assertStringIncludes(result.stderr, message);
  }
});

Deno.test("main() --commands lists every command of a group", async () => {
  const result = await run(["--commands"]);
  assertEquals(result.code, 0);
  assertStringIncludes(result.stdout, "repo-apy config set-pat ");
  assertStringIncludes(result.stdout, "repo-apy misc get-repo-info ");
  const misc = await run(["miscellaneous", "--commands"]);
  assertStringIncludes(misc.stdout, "repo-apy misc restore-resource ");
  const records = await run(["records", "--commands"]);
  assertStringIncludes(records.stdout, "repo-apy records add-files ");
  const templates = await run(["templates", "--commands"]);
  assertEquals(templates.code, 0);
  assertStringIncludes(templates.stdout, "repo-apy templates export ");
  for (const group of ["collections", "groups", "users"]) {
    const listed = await run([group, "--commands"]);
    assertStringIncludes(listed.stdout, `repo-apy ${group} show-info `);
  }
});

Deno.test("main() --xmlhelp prints well-formed XML for every command of the tree", async () => {
  const program = createProgram({ version: "1" });
  for (const command of walkCommands(program)) {
    const path = commandPath(command).split(" ").slice(1);
    const result = await run([...path, "--xmlhelp"]);
    assertEquals(result.code, 0, `${path.join(" ")}: ${result.stderr}`);
    const root = parseXml(result.stdout);
    assertEquals(root.attributes.name, commandPath(command));
    assertEquals(root.attributes.version, denoJson.version);
    assertEquals(root.name, command.commands.length > 0 || path.length <= 1 ? "group" : "program");
  }
});

Deno.test("main() --xmlhelp describes options with types, defaults, choices and required", async () => {
  const info = parseXml((await run(["config", "get-repo-info", "--xmlhelp"])).stdout);
  assertEquals(info.name, "program");
  const verbose = info.children.find((child) => child.attributes.name === "verbose");
  assertEquals(verbose?.attributes, {
    name: "verbose",
    char: "V",
    type: "choice",
    default: "info",
    choices: "error|warning|info|debug",
    case_sensitive: "false",
    description: "Verbosity of the output",
  });
  const rename = parseXml((await run(["config", "rename-instance", "--xmlhelp"])).stdout);
  assertEquals(
    rename.children.map((child) => [child.attributes.name, child.attributes.required]),
    // The everyday options follow the command's own, as on every command.
    [["instance", "true"], ["instance-new", "true"], ["verbose", "false"], ["quiet", "false"], [
      "progress",
      "false",
    ]],
  );
  const config = parseXml((await run(["config", "--xmlhelp"])).stdout);
  assertEquals(config.name, "group");
  assertTrue(
    config.children.some((child) =>
      child.name === "command" && child.attributes.name === "set-pat"
    ),
  );
});

Deno.test("main() --xmlhelp works on a command with missing required options", async () => {
  const result = await run(["config", "add-instance", "--xmlhelp"]);
  assertEquals(result.code, 0);
  assertEquals(parseXml(result.stdout).attributes.name, "repo-apy config add-instance");
});
