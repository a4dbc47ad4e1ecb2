import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import type { Logger } from "../../lib/http/log.ts";

const ROOT = new URL("../../", import.meta.url);

async function denoRun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args,
    cwd: fileURLToPath(ROOT),
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

Deno.test("importing mod.ts needs no permission at all", async () => {
  const result = await denoRun([
    "eval",
    "--no-prompt",
    `import * as apy from "${new URL("mod.ts", ROOT).href}"; console.log(typeof apy.RepoManager);`,
  ]);
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout.trim(), "function");
});

Deno.test("a script using RepoManager with host and pat needs only --allow-net for the host", async () => {
  await using server = await startServer();
  const script = `
    import { RepoManager } from "${new URL("mod.ts", ROOT).href}";
    await using manager = new RepoManager({ host: "${server.url}", pat: "${server.pat}" });
    const record = await manager.record({ identifier: "perm-check", create: true });
    await record.uploadString("hello", "hello.txt");
    const stream = await record.downloadFile((await record.getFileByName("hello.txt")).id);
    console.log(await new Response(stream).text(), (await manager.patUser()).id);
  `;
  const result = await denoRun(["eval", "--no-prompt", "--allow-net=127.0.0.1", script]);
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout.trim(), "hello 1");
});

Deno.test("RepoManager({ verbose }) prints its diagnostics on stderr, and nothing without it", async () => {
  await using server = await startServer();
  const script = (verbose: string) => `
    import { RepoManager } from "${new URL("mod.ts", ROOT).href}";
    await using manager = new RepoManager({ host: "${server.url}", pat: "${server.pat}"${verbose} });
    await manager.info();
  `;
  const loud = await denoRun(["eval", "--allow-net=127.0.0.1", script(`, verbose: "debug"`)]);
  assertEquals(loud.code, 0, loud.stderr);
  assertStringIncludes(loud.stderr, "GET ");
  assertStringIncludes(loud.stderr, "/api/v1/info");
  assert(!loud.stderr.includes(server.pat), "the token is never printed");
  const quiet = await denoRun(["eval", "--allow-net=127.0.0.1", script("")]);
  assertEquals([quiet.code, quiet.stderr], [0, ""]);
});

Deno.test("RepoManager resolves settings once and reports requests to its logger", async () => {
  await using server = await startServer();
  const messages: string[] = [];
  const log: Logger = {
    debug: (message) => messages.push(message),
    info() {},
    warning() {},
    error() {},
  };
  await using manager = new RepoManager({ host: server.url, pat: server.pat, log, timeout: 5 });
  const settings = await manager.settings();
  assertEquals([settings.timeout, settings.instance, settings.basePath], [5, undefined, ""]);
  assertEquals(typeof (await manager.info()).version, "string");
  assert(messages.some((message) => message.includes("/api/v1/info")));
  assertEquals(await manager.settings(), settings);
});
