// A control character in the token, the host or another text setting never reaches a request:
// it is refused where the settings are read (options, environment, config file), the message
// names the setting and its source but not the value, and nothing is sent.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { ConfigurationError } from "../../lib/errors.ts";
import { Transport } from "../../lib/http/transport.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { cliPermissions, runCli, tempHome } from "../cli/_run.ts";

const INJECTED = "pat_inj\r\nX-Injected: yes";
const SMUGGLED = "pat_inj\r\ncontent-length: 0\r\n\r\nDELETE /api/v1/records/1 HTTP/1.1\r\nx: y";

function assertHidden(message: string): void {
  assert(!message.includes("pat_inj") && !message.includes("Injected"), message);
  assert(!message.includes("DELETE"), message);
}

Deno.test("RepoManager refuses a token with CR/LF given as an option and sends nothing", async () => {
  await using server = await startServer();
  for (const pat of [INJECTED, SMUGGLED, "pat_nul\0x", "pat_tab\tx"]) {
    await using manager = new RepoManager({ host: server.url, pat });
    const error = await assertRejects(() => manager.info(), ConfigurationError);
    assertStringIncludes(error.message, "The personal access token given as an option");
    assertStringIncludes(error.message, "control character");
    assertHidden(error.message);
  }
  await using host = new RepoManager({ host: `${server.url}\r\nX-Injected: yes`, pat: server.pat });
  const error = await assertRejects(() => host.info(), ConfigurationError);
  assertStringIncludes(error.message, "The host given as an option");
  assertEquals(server.log.length, 0);
});

Deno.test("RepoManager refuses a token with CR/LF from REPO_APY_PAT and sends nothing", async () => {
  await using server = await startServer();
  const env = (name: string) =>
    ({ REPO_APY_HOST: server.url, REPO_APY_PAT: SMUGGLED } as Record<string, string>)[name];
  await using manager = new RepoManager({ env, configPath: "/nonexistent/.repoconfig" });
  const error = await assertRejects(() => manager.info(), ConfigurationError);
  assertStringIncludes(error.message, "environment variable REPO_APY_PAT");
  assertStringIncludes(error.message, "carriage return (CR) at position 8");
  assertHidden(error.message);
  assertEquals(server.log.length, 0);
});

Deno.test("RepoManager refuses a token or ca_bundle with CR/LF in the config file", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const cases = [
    [`pat = "pat_inj\\r\\nX-Injected: yes"`, "The personal access token in [local] of"],
    [
      `pat = "${server.pat}"\nca_bundle = "/tmp/x\\u0000y"`,
      "The CA bundle (ca_bundle) in [local] of",
    ],
    [
      `pat = "${server.pat}"\n[global]\nbase_path = "/a\\nb"`,
      "The base path (base_path) in [global] of",
    ],
  ];
  for (const [lines, expected] of cases) {
    await Deno.writeTextFile(
      home.configPath,
      `[local]\nhost = "${server.url}"\n${lines}\n`,
      { mode: 0o600 },
    );
    await using manager = new RepoManager({ instance: "local", configPath: home.configPath });
    const error = await assertRejects(() => manager.info(), ConfigurationError);
    assertStringIncludes(error.message, `${expected!} ${home.configPath}`);
    assertHidden(error.message);
  }
  assertEquals(server.log.length, 0);
});

Deno.test("a Transport given settings directly refuses a token with CR/LF too", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: SMUGGLED } });
  const error = await assertRejects(() => transport.request("GET", "/info"), ConfigurationError);
  assertStringIncludes(error.message, "given to the transport");
  assertHidden(error.message);
  assertEquals(server.log.length, 0);
});

Deno.test("the CLI refuses REPO_APY_PAT with CR/LF: exit 1, one line, nothing sent", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  for (const pat of [INJECTED, SMUGGLED]) {
    const result = await runCli(home.dir, ["config", "get-repo-info"], {
      env: { REPO_APY_HOST: server.url, REPO_APY_PAT: pat },
      permissions: [
        ...cliPermissions(home.dir).filter((flag) => !flag.startsWith("--allow-env")),
        "--allow-env=REPO_APY_CONFIG,HOME,REPO_APY_HOST,REPO_APY_PAT,REPO_APY_INSTANCE",
      ],
    });
    assertEquals(result.code, 1, result.stderr);
    assertStringIncludes(result.stderr, "REPO_APY_PAT contains a control character");
    assertHidden(result.stdout + result.stderr);
  }
  await Deno.writeTextFile(
    home.configPath,
    `[global]\ndefault = "local"\n[local]\nhost = "${server.url}"\npat = "pat_inj\\r\\nX-Injected: yes"\n`,
    { mode: 0o600 },
  );
  const result = await runCli(home.dir, ["config", "get-repo-info"]);
  assertEquals(result.code, 1, result.stderr);
  assertStringIncludes(result.stderr, "control character");
  assertHidden(result.stdout + result.stderr);
  assertEquals(server.log.length, 0);
});
