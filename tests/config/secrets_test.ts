// The config never echoes the token, nor the credentials of a host URL.
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
  assertThrows,
} from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { parseConfig } from "../../lib/config/parse.ts";
import { selectInstance } from "../../lib/config/select.ts";
import { maskHost } from "../../lib/config/mask.ts";
import { ConfigurationError } from "../../lib/errors.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { runCli, tempHome } from "../cli/_run.ts";

const PATH = "/home/me/.repoconfig";
const PAT = "pat_9f8e7d6c5b4a39281706f5e4d3c2b1a0";

Deno.test("parseConfig() never echoes a token pasted into the wrong key", () => {
  for (
    const text of [
      `[main]\nhost = "https://a.example"\npat = "${PAT}"\ntimeout = "${PAT}"\n`,
      `[main]\nhost = "https://a.example"\nverify = "${PAT}"\n`,
      `[global]\nexperimental_features = "${PAT}"\n`,
      `[main]\nca_bundle = 5\npat = "${PAT}"\n[other]\ntimeout = "${PAT.slice(4)}"\n`,
    ]
  ) {
    const error = assertThrows(() => parseConfig(text, PATH), ConfigurationError);
    assert(!error.message.includes(PAT.slice(4, 20)), error.message);
  }
  const shown = assertThrows(
    () => parseConfig(`[main]\ntimeout = "${PAT}"\n`, PATH),
    ConfigurationError,
  );
  assertStringIncludes(shown.message, "looks like a token");
  // Ordinary wrong values are still quoted, they help.
  const plain = assertThrows(
    () => parseConfig(`[main]\ntimeout = "fast"\n`, PATH),
    ConfigurationError,
  );
  assertStringIncludes(plain.message, '"fast"');
});

Deno.test("selectInstance() does not echo a token written as the default instance", () => {
  const config = parseConfig(
    `[global]\ndefault = "${PAT}"\n[main]\nhost = "https://a.example"\npat = "${PAT}"\n`,
    PATH,
  );
  const error = assertThrows(() => selectInstance(config, PATH), ConfigurationError);
  assert(!error.message.includes(PAT), error.message);
  assertStringIncludes(error.message, "looks like a token");
});

Deno.test("maskHost() hides user and password of a host URL", () => {
  assertEquals(
    maskHost("https://user:secret@repo.example:8443/sub"),
    "https://***@repo.example:8443/sub",
  );
  assertEquals(maskHost("https://token@repo.example"), "https://***@repo.example");
  assertEquals(maskHost("https://repo.example"), "https://repo.example");
  assertEquals(maskHost("http://a.example/p@th"), "http://a.example/p@th");
});

/** Writes a config whose host carries `alice:s3cret@`; returns that host. */
async function writeCredentialedHost(
  configPath: string,
  server: { url: string; pat: string },
): Promise<string> {
  const host = server.url.replace("http://", "http://alice:s3cret@");
  await Deno.writeTextFile(
    configPath,
    `[global]\ndefault = "local"\n\n[local]\nhost = "${host}"\npat = "${server.pat}"\n`,
    { mode: 0o600 },
  );
  return host;
}

Deno.test("show-instances and get-repo-info mask user:password in a host", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeCredentialedHost(home.configPath, server);
  const shown = await runCli(home.dir, ["config", "show-instances"]);
  assertEquals(shown.code, 0, shown.stderr);
  assert(!shown.stdout.includes("s3cret") && !shown.stdout.includes("alice"), shown.stdout);
  assertStringIncludes(shown.stdout, "http://***@127.0.0.1");
  const info = await runCli(home.dir, ["config", "get-repo-info"]);
  assert(!`${info.stdout}${info.stderr}`.includes("s3cret"), info.stdout + info.stderr);
});

Deno.test("show-instances --json and get-repo-info --json mask user:password in a host too", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const host = await writeCredentialedHost(home.configPath, server);
  const shown = await runCli(home.dir, ["config", "show-instances", "--json"]);
  assertEquals(shown.code, 0, shown.stderr);
  assert(!shown.stdout.includes("s3cret") && !shown.stdout.includes("alice"), shown.stdout);
  assertEquals(JSON.parse(shown.stdout).instances[0].host, maskHost(host));
  const info = await runCli(home.dir, ["config", "get-repo-info", "--json"]);
  assert(!`${info.stdout}${info.stderr}`.includes("s3cret"), info.stdout + info.stderr);
});

Deno.test("maskHost() hides a host's query and fragment too", () => {
  assertEquals(maskHost(`https://repo.example/?token=${PAT}`), "https://repo.example/?***");
  assertEquals(maskHost(`https://repo.example#${PAT}`), "https://repo.example#***");
  assertEquals(
    maskHost(`https://u:p@repo.example/sub?t=${PAT}#f`),
    "https://***@repo.example/sub?***#***",
  );
});

Deno.test("show-instances never prints a token pasted as a host, in its query or as a name", async () => {
  await using home = await tempHome();
  await Deno.writeTextFile(
    home.configPath,
    `[global]\ndefault = "${PAT}"\n\n[${PAT}]\nhost = "https://a.example?token=${PAT}#${PAT}"\npat = "${PAT}"\n\n` +
      `[second]\nhost = "${PAT}"\npat = "pat_other_0123456789"\n\n[third]\nhost = "https://c.example/${PAT}"\n`,
    { mode: 0o600 },
  );
  for (const json of [false, true]) {
    const shown = await runCli(home.dir, ["config", "show-instances", ...(json ? ["--json"] : [])]);
    assertEquals(shown.code, 0, shown.stderr);
    assert(!`${shown.stdout}${shown.stderr}`.includes(PAT.slice(4)), shown.stdout + shown.stderr);
    assertStringIncludes(shown.stdout, "second");
    assertStringIncludes(shown.stdout, "(looks like a token, not shown)");
    if (!json) assertStringIncludes(shown.stdout, "https://a.example?***#***");
  }
});

Deno.test("a token pasted as host, ca_bundle or instance name is refused without showing it", async () => {
  await using home = await tempHome();
  const cases = [
    [`[local]\nhost = "${PAT}"\npat = "${PAT}"\n`, "local", "The setting 'host'"],
    [
      `[local]\nhost = "https://a.example"\npat = "${PAT}"\nca_bundle = "${PAT}"\n`,
      "local",
      "'ca_bundle'",
    ],
    [`[${PAT}]\nhost = "https://a.example"\npat = "${PAT}"\n`, PAT, "The instance's name"],
  ];
  for (const [text, instance, expected] of cases) {
    await Deno.writeTextFile(home.configPath, text!, { mode: 0o600 });
    await using manager = new RepoManager({ instance: instance!, configPath: home.configPath });
    const error = await assertRejects(() => manager.info(), ConfigurationError);
    assertStringIncludes(error.message, expected!);
    assertStringIncludes(error.message, "looks like a personal access token (not shown)");
    assert(!error.message.includes(PAT.slice(4)), error.message);
  }
  await using direct = new RepoManager({ host: PAT, pat: PAT });
  const error = await assertRejects(() => direct.info(), ConfigurationError);
  assert(!error.message.includes(PAT.slice(4)), error.message);
});

Deno.test("the instance list of an unknown-instance error hides a name that is a token", () => {
  const config = parseConfig(`[${PAT}]\nhost = "https://a.example"\n[main]\n`, PATH);
  const error = assertThrows(() => selectInstance(config, PATH, "other"), ConfigurationError);
  assert(!error.message.includes(PAT.slice(4)), error.message);
  assertStringIncludes(error.message, "'main'");
});

Deno.test("config set-host and add-instance never echo a token given as host or name", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const host = await runCli(home.dir, ["config", "set-host", "--host", PAT]);
  assertEquals(host.code, 1);
  assertStringIncludes(host.stderr, "The host looks like a personal access token (not shown)");
  const asked = await runCli(home.dir, ["config", "set-host"], {
    stdin: `${PAT}\nhttps://a.example\n`,
  });
  assertEquals(asked.code, 0, asked.stderr);
  const named = await runCli(home.dir, ["config", "add-instance", "-I", PAT], {
    stdin: `${PAT}\n`,
  });
  assertEquals(named.code, 1);
  for (const result of [host, asked, named]) {
    assert(!`${result.stdout}${result.stderr}`.includes(PAT.slice(4)), result.stderr);
  }
  const injected = await runCli(home.dir, ["config", "set-pat"], { stdin: "pat_a\u0000b\n" });
  assertEquals(injected.code, 1);
  assertStringIncludes(injected.stderr, "contains a control character (NUL at position 6)");
  assertStringIncludes(await Deno.readTextFile(home.configPath), 'pat = ""');
});
