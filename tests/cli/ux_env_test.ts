// Credentials from the environment (issue 9): REPO_APY_HOST, REPO_APY_PAT, REPO_APY_INSTANCE beat
// the config file and lose to explicit options; the token is never printed.

import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { resolveSettings } from "../../lib/config/settings.ts";
import { runCli, tempHome } from "./_run.ts";

const ENV_NAMES = "REPO_APY_CONFIG,HOME,REPO_APY_HOST,REPO_APY_PAT,REPO_APY_INSTANCE";

/** Runs the CLI as a process that may read the three variables. */
function cli(home: string, args: string[], env: Record<string, string>) {
  return runCli(home, args, {
    env,
    permissions: [
      `--allow-env=${ENV_NAMES}`,
      `--allow-read=${home}`,
      `--allow-write=${home}`,
      "--allow-net=127.0.0.1",
    ],
  });
}

function config(host: string, pat: string): string {
  return `[global]\ndefault = "work"\n\n[work]\nhost = "${host}"\npat = "${pat}"\n\n` +
    `[other]\nhost = "${host}"\npat = "${pat}"\n`;
}

Deno.test("REPO_APY_HOST and REPO_APY_PAT work without a config file and are never printed", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const env = { REPO_APY_HOST: server.url, REPO_APY_PAT: server.pat };
  const run = await cli(home.dir, ["config", "get-repo-info", "-V", "debug"], env);
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, server.url);
  assertNotIncludes(run.stdout + run.stderr, server.pat);
  const created = await cli(home.dir, ["records", "create", "-i", "from-env", "-p"], env);
  assertEquals(created.code, 0, created.stderr);
  assertEquals(created.stdout, `${Number(created.stdout)}\n`);
});

Deno.test("REPO_APY_PAT beats the config file's pat; a wrong one is not printed either", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await Deno.writeTextFile(home.configPath, config(server.url, "pat_stale_in_the_file"), {
    mode: 0o600,
  });
  const good = await cli(home.dir, ["config", "get-repo-info"], { REPO_APY_PAT: server.pat });
  assertEquals(good.code, 0, good.stderr);
  const wrong = "pat_wrong_from_the_environment";
  const bad = await cli(home.dir, ["config", "get-repo-info"], { REPO_APY_PAT: wrong });
  assertEquals(bad.code, 1);
  // The token came from the environment: the message sends the user there, not to the config.
  assertStringIncludes(bad.stderr, "the access token in REPO_APY_PAT was not accepted");
  assertStringIncludes(bad.stderr, "set a valid one in REPO_APY_PAT, or unset it");
  assertNotIncludes(bad.stderr, "config set-pat");
  assertNotIncludes(bad.stdout + bad.stderr, wrong);
});

Deno.test("a bad REPO_APY_HOST is named as the host to check, not the config file", async () => {
  await using home = await tempHome();
  // Ports nothing listens on: the connection is refused.
  const closed = () => {
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close();
    return `http://127.0.0.1:${port}`;
  };
  const [fileHost, envHost] = [closed(), closed()];
  await Deno.writeTextFile(home.configPath, config(fileHost, "pat_in_the_file"), { mode: 0o600 });
  const fromFile = await cli(home.dir, ["config", "get-repo-info"], {});
  assertEquals(fromFile.code, 1);
  assertStringIncludes(fromFile.stderr, "check 'host' of the instance 'work' in the config file");
  const env = { REPO_APY_HOST: envHost, REPO_APY_PAT: "pat_from_the_environment" };
  const run = await cli(home.dir, ["config", "get-repo-info"], env);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, `Could not connect to ${envHost}`);
  assertStringIncludes(run.stderr, `check REPO_APY_HOST (${envHost}) and your network`);
  assertNotIncludes(run.stderr, "config file");
});

Deno.test("resolveSettings(): options beat the environment, which beats the config file", async () => {
  await using home = await tempHome();
  await Deno.writeTextFile(
    home.configPath,
    config("https://file.example", "pat_from_the_file"),
    { mode: 0o600 },
  );
  const vars: Record<string, string> = {
    REPO_APY_HOST: "https://env.example",
    REPO_APY_PAT: "pat_from_the_env",
  };
  const env = (name: string) => vars[name];
  const fromEnv = await resolveSettings({ env, configPath: home.configPath });
  assertEquals([fromEnv.host, fromEnv.pat, fromEnv.instance], [
    "https://env.example",
    "pat_from_the_env",
    undefined,
  ]);
  const explicit = await resolveSettings({ env, pat: "pat_explicit", configPath: home.configPath });
  assertEquals([explicit.host, explicit.pat], ["https://env.example", "pat_explicit"]);
  vars.REPO_APY_INSTANCE = "other";
  delete vars.REPO_APY_HOST;
  const named = await resolveSettings({ env, configPath: home.configPath });
  assertEquals([named.instance, named.host, named.pat], [
    "other",
    "https://file.example",
    "pat_from_the_env",
  ]);
  const flag = await resolveSettings({ env, instance: "work", configPath: home.configPath });
  assertEquals(flag.instance, "work");
});

Deno.test("a library user without PAT and without env permission learns which option is missing", async () => {
  const script = `import { RepoManager } from "${new URL("../../mod.ts", import.meta.url).href}";
await using manager = new RepoManager({ host: "http://127.0.0.1:9", pat: undefined });
try { await manager.info(); } catch (error) { console.log(String(error)); }`;
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const child = new Deno.Command("deno", {
    args: ["run", "--quiet", "--allow-net=127.0.0.1", "-"],
    clearEnv: true,
    env: { DENO_DIR: denoDir, HOME: "/nonexistent", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const { stdout, stderr } = await child.output();
  const text = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  assertStringIncludes(text, "No pat was given");
  assertStringIncludes(text, "REPO_APY_PAT");
  assertNotIncludes(text, "NotCapable");
});
