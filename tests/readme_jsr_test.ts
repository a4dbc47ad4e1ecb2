// Every `jsr:@repo/apy/…` command in README works as written: the package is published with the
// real `deno publish` to a local registry that speaks JSR's protocol (tests/_jsr_registry.ts),
// and README's lines install and run it from there. Run as the main module, each export they
// name is the CLI: `--version` prints the version, an unknown command exits 2, a real command
// works against the local server.

import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import denoJson from "../deno.json" with { type: "json" };
import { startServer } from "../lib/testing/mod.ts";
import { startJsrRegistry } from "./_jsr_registry.ts";
import { POSIX_TOOLS } from "./_platform.ts";
import { shellQuote } from "./_shell.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const README = await Deno.readTextFile(new URL("../README.md", import.meta.url));
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

/** README's commands (code spans and lines of code blocks) that name a `jsr:@repo/apy/…` export. */
function jsrCommands(): string[] {
  const spans = [...README.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  const blockLines = [...README.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)]
    .flatMap((match) => match[1]!.split("\n"));
  return [...spans, ...blockLines]
    .map((text) => text.trim())
    .filter((text) => /^deno (install|run) .*jsr:@repo\/apy\//.test(text));
}

/** The export path of a `jsr:@repo/apy/<path>` specifier in `command` (`./cli`). */
function exportOf(command: string): string {
  return `./${/jsr:@repo\/apy\/(\S+)/.exec(command)![1]!}`;
}

/** Runs `script` with `env` added, `$DENO_INSTALL_ROOT/bin` first on PATH (as README says). */
async function bash(script: string, env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: ["-euc", `export PATH="$DENO_INSTALL_ROOT/bin:$PATH"; ${script}`],
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout).trim(), stderr: decoder.decode(stderr) };
}

Deno.test("README's jsr:@repo/apy/… commands install and run an export of deno.json", () => {
  const commands = jsrCommands();
  assertEquals(commands.some((command) => command.startsWith("deno install ")), true);
  assertEquals(commands.some((command) => command.startsWith("deno run ")), true);
  const exports = denoJson.exports as Record<string, string>;
  for (const command of commands) {
    assertEquals(typeof exports[exportOf(command)], "string", `${command}: no such export`);
  }
});

Deno.test(
  "README's jsr: lines, through a local JSR registry fed by deno publish, give a working CLI",
  POSIX_TOOLS,
  async () => {
    await using registry = startJsrRegistry();
    await using server = await startServer();
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-jsr-" }));
    try {
      const published = await new Deno.Command("deno", {
        args: ["publish", "--token", "local", "--allow-dirty", "--no-check"],
        cwd: ROOT,
        env: { ...registry.env, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      assertEquals(published.code, 0, new TextDecoder().decode(published.stderr));
      assertEquals(registry.published, [`@repo/apy@${denoJson.version}`]);
      // A fresh module cache (what a new user has), sharing only the npm packages' cache.
      await Deno.mkdir(`${dir}/deno-dir`);
      await Deno.symlink(`${DENO_DIR}/npm`, `${dir}/deno-dir/npm`).catch(() => {});
      const env = {
        ...registry.env,
        HOME: dir,
        DENO_DIR: `${dir}/deno-dir`,
        DENO_INSTALL_ROOT: `${dir}/root`,
        REPO_APY_HOST: server.url,
        REPO_APY_PAT: server.pat,
      };
      for (const command of jsrCommands()) {
        let cli: string;
        if (command.startsWith("deno install ")) {
          const installed = await bash(command, env);
          assertEquals(installed.code, 0, `${command}\n${installed.stderr}`);
          cli = "repo-apy";
        } else {
          const specifier = /jsr:@repo\/apy\/\S+/.exec(command)!;
          cli = command.slice(0, specifier.index + specifier[0].length);
        }
        const version = await bash(`${cli} --version`, env);
        assertEquals([version.code, version.stdout], [0, denoJson.version], version.stderr);
        const unknown = await bash(`${cli} no-such-group || echo "exit $?"`, env);
        assertEquals(unknown.stdout, "exit 2", unknown.stderr);
        assertStringIncludes(unknown.stderr, "unknown command");
        const identifier = shellQuote(`jsr-${command.split(" ")[1]}`);
        const created = await bash(`${cli} records create -i ${identifier} -p`, env);
        assertEquals(created.code, 0, created.stderr);
        assertEquals(/^\d+$/.test(created.stdout), true, created.stdout);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
