// Identifiers held by resources in the trash (client-reference §5.1 "Identifiers"): the server
// answers a lookup with 404 but refuses a create with `400 {errors: {identifier: [...]}}`. The
// importers go on to the next candidate; reuseCollection() names the trash commands.
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { importEln, importJsonSchema, reuseCollection } from "../../lib/import/mod.ts";
import { simpleCrate, tempEln, zipBytes } from "./_eln.ts";

const SCHEMA = JSON.stringify({
  title: "Sample",
  type: "object",
  properties: { mass: { type: "number" } },
});

Deno.test("importJsonSchema() after the imported template was deleted takes the next identifier", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, SCHEMA);
    const first = await importJsonSchema(manager, path);
    assertEquals((await first.meta()).identifier, "sample");
    await first.delete();
    const second = await importJsonSchema(manager, path);
    assertEquals((await second.meta()).identifier, "sample-1");
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("importEln() again after a rolled-back import takes the next identifiers", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const path = await tempEln(await zipBytes(simpleCrate()));
  try {
    const first = await importEln(manager, path);
    assertEquals(first.records.map((r) => r.identifier), ["experiment"]);
    // What a rollback does: the created record goes to the trash.
    await (await manager.record({ id: first.records[0]!.id })).delete();
    const second = await importEln(manager, path);
    assertEquals(second.records.map((r) => r.identifier), ["experiment-1"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("reuseCollection() after its own rollback names the trash commands, creates nothing", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const run = await manager.collection({ identifier: "run", create: true, title: "Run" });
  const sample = await manager.record({ identifier: "sample", create: true, title: "Sample" });
  await run.addRecordLink(sample.id);
  const reused = await reuseCollection(manager, run.id, { suffix: "v2" });
  // As a rollback leaves it: the copies in the trash.
  for (const id of reused.records.values()) await (await manager.record({ id })).delete();
  await reused.collection.delete();
  const error = await assertRejects(
    () => reuseCollection(manager, run.id, { suffix: "v2" }),
    InputError,
  );
  assertStringIncludes(error.message, "'run_v2' is in the trash");
  assertStringIncludes(error.message, "misc restore-resource");
  assertStringIncludes(error.message, "misc purge-resource");
  assertEquals((await Array.fromAsync(manager.search.searchResources("collection"))).length, 1);
  assertEquals((await Array.fromAsync(manager.search.searchResources("record"))).length, 1);
  // A record copy in the trash is found too.
  for (const item of (await manager.misc.getDeletedResources()).items) {
    if (item.type === "collection") await manager.misc.purge("collection", item.id);
  }
  const again = await assertRejects(
    () => reuseCollection(manager, run.id, { suffix: "v2" }),
    InputError,
  );
  assertStringIncludes(again.message, "record with the identifier 'sample_v2' is in the trash");
});

Deno.test("reuseCollection() with a token that cannot list the trash still names the trash commands", async () => {
  await using server = await startServer();
  await using owner = new RepoManager({ host: server.url, pat: server.pat });
  const run = await owner.collection({ identifier: "run", create: true, title: "Run" });
  const sample = await owner.record({ identifier: "sample", create: true, title: "Sample" });
  await run.addRecordLink(sample.id);
  const reused = await reuseCollection(owner, run.id, { suffix: "v2" });
  for (const id of reused.records.values()) await (await owner.record({ id })).delete();
  await reused.collection.delete();
  const scopes = ["record.create", "record.read", "record.update", "record.link", "record.delete"]
    .concat(["collection.create", "collection.read", "collection.update", "collection.link"])
    .concat(["collection.delete"]);
  const pat = server.createToken({ scopes });
  await using limited = new RepoManager({ host: server.url, pat });
  const error = await assertRejects(
    () => reuseCollection(limited, run.id, { suffix: "v2" }),
    InputError,
  );
  assertStringIncludes(error.message, "'run_v2' is in the trash");
  assertStringIncludes(error.message, "misc purge-resource");
  // What the failed run made (nothing: the collection's create was the first) is not active.
  assertEquals((await Array.fromAsync(owner.search.searchResources("collection"))).length, 1);
});
