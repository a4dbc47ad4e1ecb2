// Start-up stays short because a run loads only what it uses: these tests check the module graph
// (what each entry point imports statically) and the lazily built command tree, not the clock.

import { fileURLToPath } from "node:url";
import { assertEquals, assertTrue } from "../_assert.ts";
import { createProgram, GROUPS, loadProgram } from "../../lib/cli/program.ts";

const ROOT = new URL("../../", import.meta.url);

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** Every module `path` loads before it runs (static imports only), relative to the project. */
async function staticGraph(path: string): Promise<string[]> {
  const { stdout, success } = await new Deno.Command("deno", {
    args: ["info", "--json", path],
    cwd: fileURLToPath(ROOT),
    stdout: "piped",
    stderr: "null",
  }).output();
  assertTrue(success, `deno info ${path}`);
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const modules = new Map(info.modules.map((module) => [module.specifier, module]));
  const seen = new Set<string>();
  const pending = [...info.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (dependency.isDynamic !== true && dependency.code) pending.push(dependency.code.specifier);
    }
  }
  return [...seen].map((specifier) => specifier.replace(ROOT.href, "")).sort();
}

Deno.test("cli.ts loads no npm or Node module before it runs (--version and cached help need none)", async () => {
  assertEquals(await staticGraph("cli.ts"), [
    "cli.ts",
    "deno.json",
    "lib/cli/_help_layout.ts",
    "lib/cli/_interrupts.ts",
    "lib/cli/main.ts",
  ]);
});

Deno.test("the ./cli export (what `deno install jsr:@repo/apy/cli` runs) loads no more than cli.ts", async () => {
  // An entry's static imports all load before its first line runs, so an export that also handed
  // out the CLI's reusable parts (`./cli/kit`) would load commander and the manager on every call.
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as {
    exports: { [entry: string]: string };
  };
  const entry = (config.exports["./cli"] ?? "").replace(/^\.\//, "");
  assertTrue(entry !== "", "deno.json has no ./cli export");
  const graph = await staticGraph(entry);
  const heavy = graph.filter((module) =>
    /commander|lib\/manager\/|lib\/cli\/(?:program|run|cli_manager|apy_command)\.ts/.test(module)
  );
  assertEquals(heavy, [], `${entry} loads ${heavy.join(", ")}`);
  const cliGraph = await staticGraph("cli.ts");
  assertEquals(
    graph.filter((module) => module !== entry),
    cliGraph.filter((module) => module !== "cli.ts"),
  );
});

Deno.test("command groups load no transport, manager, transfer, TOML or ZIP code to build their help", async () => {
  const heavy =
    /lib\/manager\/|lib\/transfer\/(?!errors\.ts)|lib\/http\/transport\.ts|zip\.js|node:https/;
  for (const group of GROUPS) {
    const graph = await staticGraph(`lib/cli/commands/${group.name}.ts`);
    const loaded = graph.filter((module) => heavy.test(module));
    assertEquals(loaded, [], `${group.name} loads ${loaded.join(", ")}`);
    if (group.name !== "config" && group.name !== "misc") {
      assertEquals(graph.filter((module) => module.includes("smol-toml")), [], group.name);
    }
  }
});

Deno.test("the group table matches the full tree; a run builds only the group it names", async () => {
  const full = await createProgram({ version: "1" });
  assertEquals(
    GROUPS.map((group) => [group.name, group.description, group.aliases]),
    full.commands.map((group) => [group.name(), group.description(), group.aliases()]),
  );
  const lazy = await loadProgram(["records", "--help"], { version: "1" });
  assertEquals(
    lazy.commands.map((group) => [group.name(), group.commands.length > 0]),
    GROUPS.map((group) => [group.name, group.name === "records"]),
  );
  const all = await loadProgram(["--commands"], { version: "1" });
  assertTrue(all.commands.every((group) => group.commands.length > 0));
  const completion = await loadProgram(
    ["config", "activate-autocompletion", "-s", "bash"],
    { version: "1" },
  );
  assertTrue(completion.commands.every((group) => group.commands.length > 0));
});

Deno.test("a run that names a command builds only that command of its group; any other word builds them all", async () => {
  const full = await createProgram({ version: "1" });
  const commandsOf = (root: typeof full, group: string) =>
    root.commands.find((command) => command.name() === group)!.commands.map((c) => c.name());
  const one = await loadProgram(["records", "get-metadatum", "-r", "1", "-n", "k"], {
    version: "1",
  });
  assertEquals(commandsOf(one, "records"), ["get-metadatum"]);
  const help = await loadProgram(["collections", "create", "--help"], { version: "1" });
  assertEquals(commandsOf(help, "collections"), ["create"]);
  for (const args of [["records", "get-metadatm"], ["records", "--help"], ["records"]]) {
    const all = await loadProgram(args, { version: "1" });
    assertEquals(commandsOf(all, "records"), commandsOf(full, "records"), args.join(" "));
  }
});
