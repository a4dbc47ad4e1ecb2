// docs/instrument-pc.md, tried as written where this machine allows: the systemd user unit passes
// `systemd-analyze --user verify`, its ExecStart command runs the watcher, and the documented cron
// line (with the test's folder and no settle wait) refuses while that watcher holds the lock,
// naming it, then catches up once it stopped.
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { POSIX_TOOLS } from "../_platform.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { managerFor } from "./_records.ts";
import { cliPermissions, tempHome, writeLocalConfig } from "./_run.ts";
import { shellQuote, shellWords } from "../_shell.ts";

const GUIDE = await Deno.readTextFile(new URL("../../docs/instrument-pc.md", import.meta.url));
const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const FOLDER = "/data/instrument";

/** The first fenced block of `lang` after `after` in the guide. */
function block(lang: string, after = ""): string {
  const start = after === "" ? 0 : GUIDE.indexOf(after);
  assert(start >= 0, `no '${after}' in docs/instrument-pc.md`);
  const found = GUIDE.slice(start).match(new RegExp("```" + lang + "\\n([\\s\\S]*?)```"))?.[1];
  assert(found !== undefined, `no ${lang} block in docs/instrument-pc.md`);
  return found;
}

const UNIT = block("ini", "<!-- tested: tests/cli/instrument_pc_docs_test.ts -->");

async function bash(script: string, env: Record<string, string>) {
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: ["-c", script],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

const HAS_SYSTEMD = !POSIX_TOOLS.ignore &&
  (await bash("command -v systemd-analyze", {})).code === 0;

/** `$HOME/.deno/bin/repo-apy`, where the guide expects it: this checkout's CLI. */
async function installWrapper(home: string): Promise<string> {
  const bin = `${home}/.deno/bin`;
  await Deno.mkdir(bin, { recursive: true });
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  await Deno.writeTextFile(
    `${bin}/repo-apy`,
    `#!/bin/sh\nexport DENO_DIR=${shellQuote(denoDir)} NO_COLOR=1\nexec ${
      shellWords(["deno", "run", "--quiet", ...cliPermissions(home), CLI])
    } "$@"\n`,
    { mode: 0o755 },
  );
  return bin;
}

Deno.test({
  name: "docs/instrument-pc.md: the systemd user unit passes systemd-analyze --user verify",
  ignore: !HAS_SYSTEMD,
}, async () => {
  await using home = await tempHome();
  await installWrapper(home.dir);
  await Deno.writeTextFile(`${home.dir}/repo-apy-watch.service`, UNIT);
  // A runtime folder of its own with a short path: the user's socket units put their sockets there,
  // and a socket path longer than 107 bytes (a checkout deep in a folder tree) fails them.
  const result = await bash(
    `run=$(mktemp -d /tmp/rt.XXXXXX) && XDG_RUNTIME_DIR="$run" systemd-analyze --user verify "$HOME/repo-apy-watch.service"; code=$?; rm -rf "$run"; exit $code`,
    { HOME: home.dir },
  );
  assertEquals([result.code, result.stderr], [0, ""]);
});

Deno.test({
  name:
    "docs/instrument-pc.md: the cron line refuses while the unit's watcher runs, then catches up",
  ignore: POSIX_TOOLS.ignore,
}, async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  await using manager = managerFor(server);
  const record = await manager.record({ identifier: "instrument-7", create: true });
  await installWrapper(home.dir);
  const data = `${home.dir}/instrument`;
  await Deno.mkdir(data);
  await Deno.writeTextFile(`${data}/frame-1.tif`, "frame 1");
  const env = { HOME: home.dir, REPO_APY_CONFIG: home.configPath };

  // The unit's ExecStart (%h is the home folder), on the test's folder.
  const exec = UNIT.match(/^ExecStart=(.*)$/m)?.[1];
  assert(exec !== undefined && exec.includes(FOLDER), "no ExecStart with the folder in the unit");
  const [program, ...args] = exec.split(" ").map((word) =>
    word.replace("%h", home.dir).replace(FOLDER, data)
  );
  // Through bash, which the tests may run; `exec` keeps one process id down to deno.
  const watcher = new Deno.Command("bash", {
    args: ["-c", 'exec "$0" "$@"', program!, ...args, "--json"],
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = watcher.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes('"type":"ready"')) {
    const { value, done } = await reader.read();
    assert(!done, `the watcher ended: ${seen}`);
    seen += value;
  }

  // The cron line, on the test's folder without the settle wait.
  const cron = block("sh", "## The cron fallback").split("\n").find((line) =>
    line.startsWith("*/5 ")
  );
  assert(cron !== undefined && cron.includes("--settle 60"), "no crontab line in the guide");
  const command = cron.split(" ").slice(5).join(" ").replace(FOLDER, shellQuote(data)).replace(
    "--settle 60",
    "--settle 0",
  );
  const refused = await bash(command, env);
  assertEquals(refused.code, 1);
  const log = await Deno.readTextFile(`${home.dir}/repo-apy-sync.log`);
  assertStringIncludes(log, `PID ${watcher.pid}`);

  watcher.kill("SIGTERM");
  assertEquals((await watcher.status).code, 130); // SuccessExitStatus=130 in the unit
  await reader.cancel();
  await new Response(watcher.stderr).text();
  await Deno.writeTextFile(`${data}/frame-2.tif`, "frame 2");
  const pass = await bash(command, env);
  assertEquals(pass.code, 0, await Deno.readTextFile(`${home.dir}/repo-apy-sync.log`));
  const names = (await Array.fromAsync(record.files())).map((file) => file.name).sort();
  assertEquals(names, ["frame-1.tif", "frame-2.tif"]);
});
