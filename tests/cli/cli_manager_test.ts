import { assertEquals, assertNotIncludes } from "../_assert.ts";
import { CLIRepoManager } from "../../lib/cli/cli_manager.ts";
import { Output } from "../../lib/cli/output.ts";
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

Deno.test("CLIRepoManager factories open users, collections, templates and groups", async () => {
  await using server = await startServer();
  await using manager = new CLIRepoManager({ host: server.url, pat: server.pat, verbose: "error" });
  const me = await manager.user({ me: true });
  assertEquals((await manager.user({ id: me.id })).id, me.id);
  const collection = await manager.collection({ identifier: "c-1", create: true });
  assertEquals([collection.created, (await collection.meta()).identifier], [true, "c-1"]);
  const group = await manager.group({ identifier: "g-1", create: true, title: "G" });
  assertEquals((await group.meta()).title, "G");
  const again = await manager.collection({ id: collection.id });
  assertEquals(again.created, false);
});
