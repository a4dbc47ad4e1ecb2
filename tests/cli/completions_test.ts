import { assertEquals, assertStringIncludes, assertTrue } from "../_assert.ts";
import { COMPLETION_SHELLS, completionScript } from "../../lib/cli/completions.ts";
import { createProgram } from "../../lib/cli/program.ts";
import { commandPath, walkCommands } from "../../lib/cli/_tree.ts";
import { POSIX_TOOLS } from "../_platform.ts";

const program = createProgram({ version: "1" });

async function bashComplete(words: string[], env: Record<string, string> = {}): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    const script = `${dir}/complete.bash`;
    await Deno.writeTextFile(script, completionScript(program, "bash"));
    const driver = [
      `source ${JSON.stringify(script)}`,
      'COMP_WORDS=("$@")',
      "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))",
      "_repo_apy",
      `printf '%s\\n' "\${COMPREPLY[@]}"`,
    ].join("\n");
    const { code, stdout, stderr } = await new Deno.Command("bash", {
      args: ["-c", driver, "bash", ...words],
      env: { HOME: dir, ...env },
    }).output();
    const decoder = new TextDecoder();
    assertEquals(code, 0, decoder.decode(stderr));
    return decoder.decode(stdout).split("\n").filter((line) => line !== "").sort();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test(
  "completionScript() bash completes groups, commands, options and choices",
  POSIX_TOOLS,
  async () => {
    assertEquals(await bashComplete(["repo-apy", ""]), [
      "collections",
      "config",
      "groups",
      "misc",
      "miscellaneous",
      "records",
      "templates",
      "users",
    ]);
    assertEquals(await bashComplete(["repo-apy", "config", "set-"]), ["set-host", "set-pat"]);
    assertEquals(await bashComplete(["repo-apy", "config", "get-repo-info", "-V", ""]), [
      "debug",
      "error",
      "info",
      "warning",
    ]);
    assertEquals(await bashComplete(["repo-apy", "misc", "get-repo-info", "--ver"]), [
      "--verbose",
      "--version",
    ]);
    assertEquals(
      await bashComplete(["repo-apy", "config", "activate-autocompletion", "--shell", "f"]),
      ["fish"],
    );
    assertEquals(
      await bashComplete(["repo-apy", "config", "show-instances", ""]),
      [
        "--commands",
        "--help",
        "--json",
        "--jsonl",
        "--progress",
        "--quiet",
        "--verbose",
        "--version",
        "--xmlhelp",
        "-V",
        "-h",
        "-q",
      ].filter((flag) => flag !== "--commands"),
    );
  },
);

Deno.test(
  "completionScript() bash completes instance names from the config file",
  POSIX_TOOLS,
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const config = `${dir}/cfg.toml`;
      await Deno.writeTextFile(config, '[global]\ndefault = "a"\n[alpha]\nhost = ""\n["beta"]\n');
      assertEquals(
        await bashComplete(["repo-apy", "config", "get-repo-info", "-I", ""], {
          REPO_APY_CONFIG: config,
        }),
        ["alpha", "beta"],
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("completionScript() covers every command path in all three shells", () => {
  for (const shell of COMPLETION_SHELLS) {
    const script = completionScript(program, shell);
    for (const command of walkCommands(program)) {
      assertStringIncludes(script, commandPath(command));
    }
  }
  assertStringIncludes(completionScript(program, "bash"), "'error warning info debug'");
  const zsh = completionScript(program, "zsh");
  assertTrue(zsh.startsWith("#compdef repo-apy\n"));
  assertStringIncludes(zsh, "compdef _repo_apy repo-apy");
  assertStringIncludes(zsh, "'--verbose:Verbosity of the output'");
  assertStringIncludes(
    zsh,
    "(-V|--verbose) compadd -- 'error' 'warning' 'info' 'debug'; return ;;",
  );
  const fish = completionScript(program, "fish");
  assertStringIncludes(
    fish,
    "complete -c repo-apy -n '_repo_apy_path \\'repo-apy config\\'' -a 'set-pat'",
  );
  assertStringIncludes(fish, "-l 'verbose' -x -a 'error warning info debug'");
  assertStringIncludes(fish, "-l 'instance' -x -a '(_repo_apy_instances)'");
});

Deno.test("completionScript() bash script passes bash -n", POSIX_TOOLS, async () => {
  const { code } = await new Deno.Command("bash", {
    args: ["-n", "-c", completionScript(program, "bash")],
  }).output();
  assertEquals(code, 0);
});
