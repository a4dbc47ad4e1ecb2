import { assertEquals, assertNotIncludes, assertRejects } from "../_assert.ts";
import { CLIRepoManager } from "../../lib/cli/cli_manager.ts";
import { Output } from "../../lib/cli/output.ts";
import { RepoApyError } from "../../lib/http/errors.ts";
import { startServer } from "../../lib/testing/mod.ts";

Deno.test("CLIRepoManager hides its token in everything it prints", async () => {
  await using server = await startServer();
  const text: string[] = [];
  const output = new Output({
    stdout: (line) => text.push(line),
    stderr: (line) => text.push(line),
  });
  await using manager = new CLIRepoManager({
    host: server.url,
    pat: server.pat,
    output,
    verbose: "debug",
  });
  assertEquals(typeof (await manager.info()).version, "string");
  manager.echo(`token is ${server.pat}`);
  manager.printDebug(server.pat);
  assertNotIncludes(text.join(""), server.pat);
  assertEquals(text.includes("token is ***\n"), true);
});

Deno.test("CLIRepoManager factories without a library counterpart fail clearly", async () => {
  await using manager = new CLIRepoManager({ host: "http://127.0.0.1:9", pat: "pat_x" });
  const error = await assertRejects(() => manager.collection({ id: 1 }), RepoApyError);
  assertEquals(
    error.message,
    "Opening a collection is not implemented yet in this version of repo-apy",
  );
});
