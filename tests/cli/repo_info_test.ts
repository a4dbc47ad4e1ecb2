import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { runCli, tempHome, writeLocalConfig } from "./_run.ts";
import { main } from "../../cli.ts";

Deno.test("get-repo-info prints instance, host, version, masked token and token user", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  for (
    const args of [
      ["config", "get-repo-info"],
      ["config", "get-kadi-info"], // the reference client's name
      ["misc", "get-repo-info"],
      ["miscellaneous", "get-repo-info"],
    ]
  ) {
    const result = await runCli(home.dir, args);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(
      result.stdout,
      [
        "Instance: local",
        `Host: ${server.url}`,
        "Server version: 1.13.0",
        `Personal access token: ${server.pat.slice(0, 10)}***`,
        "Token user: Test User (id 1)",
        "",
      ].join("\n"),
    );
    assertNotIncludes(result.stdout + result.stderr, server.pat);
  }
});

Deno.test("get-repo-info -V debug never prints the full token", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const result = await runCli(home.dir, ["config", "get-repo-info", "-V", "debug", "-I", "local"]);
  assertEquals(result.code, 0, result.stderr);
  assertNotIncludes(result.stdout + result.stderr, server.pat);
});

Deno.test("get-repo-info -V error and -q still print the information asked for", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  for (const quiet of [["-V", "error"], ["-q"]]) {
    const result = await runCli(home.dir, ["config", "get-repo-info", ...quiet]);
    assertEquals([result.code, result.stderr], [0, ""]);
    assertStringIncludes(result.stdout, "Server version: 1.13.0\n");
  }
});

Deno.test("get-repo-info with a rejected token exits 1; -V debug adds the response body", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const badPat = "pat_not_a_valid_token_123";
  await writeLocalConfig(home.configPath, server.url, badPat);
  const plain = await runCli(home.dir, ["config", "get-repo-info"]);
  assertEquals(plain.code, 1);
  assertEquals(plain.stdout, "");
  assertEquals(plain.stderr.split("\n").filter((line) => line !== "").length, 1);
  assertStringIncludes(plain.stderr, "Error: [401]");
  assertNotIncludes(plain.stderr, badPat);
  assertNotIncludes(plain.stderr, "    at ");
  const debug = await runCli(home.dir, ["config", "get-repo-info", "-V", "debug"]);
  assertEquals(debug.code, 1);
  assertStringIncludes(debug.stderr, "Response body: {");
  assertStringIncludes(debug.stderr, '"code": 401');
  assertNotIncludes(debug.stderr, badPat);
});

Deno.test("get-repo-info explains an unreachable host with exit 1", async () => {
  const server = await startServer();
  const url = server.url;
  await server.close();
  const stderr: string[] = [];
  const code = await main(["config", "get-repo-info"], {
    stdout: () => {},
    stderr: (text) => stderr.push(text),
    managerOptions: { host: url, pat: "pat_1234567890", retry: { maxAttempts: 1 } },
  });
  assertEquals(code, 1);
  assertStringIncludes(stderr.join("").toLowerCase(), `could not connect to ${url}`);
  assertNotIncludes(stderr.join(""), "    at ");
  assertEquals(stderr.join("").trim().split("\n").length, 1);
});

Deno.test("get-repo-info explains config problems with exit 1", async () => {
  await using home = await tempHome();
  const missing = await runCli(home.dir, ["config", "get-repo-info"]);
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, `Error: No config file at ${home.configPath}`);
  await runCli(home.dir, ["config", "create"]);
  const empty = await runCli(home.dir, ["config", "get-repo-info"]);
  assertEquals(empty.code, 1);
  assertEquals(
    empty.stderr,
    `Error: Please define the key 'host' for instance 'my_instance' in ${home.configPath} (repo-apy config set-host -I my_instance)\n`,
  );
  const unknown = await runCli(home.dir, ["config", "get-repo-info", "-I", "other"]);
  assertEquals(unknown.code, 1);
  assertStringIncludes(unknown.stderr, "known instances: 'my_instance'");
  await Deno.writeTextFile(
    home.configPath,
    '[global]\ndefault = "x"\n[x]\nhost = "h"\npat = "p"\n',
  );
  const noScheme = await runCli(home.dir, ["config", "get-repo-info"]);
  assertEquals(noScheme.code, 1);
  assertStringIncludes(noScheme.stderr, "has no scheme");
  const badChoice = await runCli(home.dir, ["config", "get-repo-info", "-V", "loud"]);
  assertEquals(badChoice.code, 2);
});
