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
  manager.output.data(`token is ${server.pat}`);
  manager.output.debug(server.pat);
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

Deno.test("CLIRepoManager's output prints at the manager's verbosity: data always, messages by level", async () => {
  // The assertions of the examples of the print methods the manager had before it left printing
  // to its output: the verbosity given to the manager applies to the output.
  const out: string[] = [];
  const err: string[] = [];
  const output = new Output({ stdout: (text) => out.push(text), stderr: (text) => err.push(text) });
  {
    await using manager = new CLIRepoManager({
      host: "https://repo.example",
      pat: "pat_x",
      output,
      verbose: "error",
    });
    manager.output.text("Visibility: private");
    assertEquals(out, ["Visibility: private\n"]);
  }
  out.length = 0;
  {
    await using manager = new CLIRepoManager({
      host: "https://repo.example",
      pat: "pat_x",
      output,
      verbose: "info",
    });
    manager.output.info("Created record 7");
    assertEquals([out, err], [[], ["Created record 7\n"]]);
    err.length = 0;
    manager.output.warning("slow server");
    assertEquals(err, ["Warning: slow server\n"]);
    err.length = 0;
    manager.output.error("The record 7 does not exist");
    assertEquals(err, ["The record 7 does not exist\n"]);
    manager.output.data("7");
    assertEquals(out, ["7\n"]);
  }
  err.length = 0;
  {
    await using manager = new CLIRepoManager({
      host: "https://repo.example",
      pat: "pat_x",
      output,
      verbose: "debug",
    });
    manager.output.debug("details");
    assertEquals(err, ["details\n"]);
  }
});
