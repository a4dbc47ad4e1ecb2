// The config never echoes the token, nor the credentials of a host URL.
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { parseConfig } from "../../lib/config/parse.ts";
import { selectInstance } from "../../lib/config/select.ts";
import { maskHost } from "../../lib/config/mask.ts";
import { ConfigurationError } from "../../lib/http/errors.ts";
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
