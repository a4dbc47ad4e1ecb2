// `./dev`, the way in without a Deno of one's own: `./dev deno …` runs the pinned Deno for every
// `deno …` line of README, and the launcher `./dev install` writes starts without a network under
// any HOME (a cluster node, another account).

import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { startServer } from "../lib/testing/mod.ts";
import denoJson from "../deno.json" with { type: "json" };
import { POSIX_TOOLS } from "./_platform.ts";
import { tempDir } from "./_temp.ts";

const DEV = fileURLToPath(new URL("../dev", import.meta.url));

/** Runs `command` (bash: the test may start only the tools it names). */
async function run(
  command: "bash",
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
) {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout).trim(), stderr: decoder.decode(stderr) };
}

Deno.test("./dev deno runs the pinned Deno in the caller's folder", POSIX_TOOLS, async () => {
  await using dir = await tempDir();
  const version = await run("bash", [DEV, "deno", "--version"], { cwd: dir.path });
  assertEquals(version.code, 0, version.stderr);
  assertStringIncludes(version.stdout, "deno 2.9.6 ");
  const cwd = await run("bash", [DEV, "deno", "eval", "console.log(Deno.cwd())"], {
    cwd: dir.path,
  });
  assertEquals(cwd.stdout, await Deno.realPath(dir.path));
});

Deno.test(
  "the launcher from ./dev install works under another HOME without a network",
  POSIX_TOOLS,
  async () => {
    await using dir = await tempDir();
    await using server = await startServer();
    await Deno.mkdir(`${dir.path}/home`);
    await Deno.mkdir(`${dir.path}/node-home`);
    const installed = await run("bash", [DEV, "install"], {
      env: {
        HOME: `${dir.path}/home`,
        REPO_APY_BIN_DIR: `${dir.path}/bin`,
        REPO_APY_DEV_CACHE: `${dir.path}/dev-cache`,
      },
    });
    assertEquals(installed.code, 0, installed.stderr);
    // Another account's HOME, no module cache of Deno's own, every proxy a dead end.
    const offline = {
      HOME: `${dir.path}/node-home`,
      HTTP_PROXY: "http://127.0.0.1:9",
      HTTPS_PROXY: "http://127.0.0.1:9",
      REPO_APY_HOST: server.url,
      REPO_APY_PAT: server.pat,
    };
    const launcher = `${dir.path}/bin/repo-apy`;
    const version = await run("bash", [launcher, "--version"], { env: offline });
    assertEquals([version.code, version.stdout], [0, denoJson.version], version.stderr);
    const created = await run("bash", [launcher, "records", "create", "-i", "offline", "-p"], {
      env: { ...offline, NO_PROXY: "127.0.0.1" },
    });
    assertEquals(created.code, 0, created.stderr);
    assertEquals(/^\d+$/.test(created.stdout), true, created.stdout);
    assertEquals([...Deno.readDirSync(`${dir.path}/node-home`)], []); // no cache written there
    assertStringIncludes(installed.stderr, "Caching the CLI's modules"); // says what it needs
    // docs/cluster.md: with the caches copied along, ./dev install needs no network either.
    const again = await run("bash", [DEV, "install"], {
      env: {
        HOME: `${dir.path}/node-home`,
        HTTP_PROXY: "http://127.0.0.1:9",
        HTTPS_PROXY: "http://127.0.0.1:9",
        REPO_APY_BIN_DIR: `${dir.path}/node-bin`,
        REPO_APY_DEV_CACHE: `${dir.path}/dev-cache`,
      },
    });
    assertEquals(again.code, 0, again.stderr);
  },
);
