// reuseCollection() against the local server over real HTTP.
import { assertEquals, assertStringIncludes, assertTrue } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { InputError } from "../../lib/errors.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { reuseCollection } from "../../lib/import/mod.ts";

async function fixture(server: TestServer) {
  const manager = new RepoManager({ host: server.url, pat: server.pat });
  const collection = await manager.collection({
    identifier: "run",
    create: true,
    title: "Run",
    description: "First run",
    tags: ["lab"],
  });
  const extras = [
    { key: "kept", type: "str", value: "must", validation: { required: true } },
    { key: "dropped", type: "float", value: 2.5, unit: "g" },
    { key: "nested", type: "dict", value: [{ key: "n", type: "int", value: 1 }] },
  ];
  const ids: number[] = [];
  for (const name of ["a", "b", "c"]) {
    const record = await manager.record({
      identifier: `rec-${name}`,
      create: true,
      title: `Record ${name}`,
      type: "sample",
      tags: ["t1"],
      license: "CC-BY-4.0",
      extras,
    });
    await collection.addRecordLink(record.id);
    ids.push(record.id);
  }
  const [a, b, c] = ids as [number, number, number];
  await (await manager.record({ id: a })).linkRecord(b, "feeds", {
    termIri: "https://e.org/feeds",
  });
  await (await manager.record({ id: b })).linkRecord(c, "measured by");
  return { manager, collection, a, b, c };
}

Deno.test("reuseCollection() copies records, reuses linked ones and re-creates links", async () => {
  await using server = await startServer();
  const { manager, collection, a, b, c } = await fixture(server);
  await using _ = manager;
  const reused = await reuseCollection(manager, collection.id, {
    suffix: " Run 2 ",
    linkedRecordIds: [c],
  });
  const meta = await reused.collection.meta();
  assertEquals(
    [meta.identifier, meta.title, meta.description, meta.tags],
    ["run_run-2", "Run", "First run", ["lab"]],
  );
  const children = await Array.fromAsync(collection.collections());
  assertEquals(children.map((child) => child.id), [reused.collection.id]);
  assertEquals(reused.records.get(c), c);
  const newA = await manager.record({ id: reused.records.get(a)! });
  const aMeta = await newA.meta();
  assertEquals(
    [aMeta.identifier, aMeta.title, aMeta.type, aMeta.license, aMeta.tags],
    ["rec-a_run-2", "Record a", "sample", "CC-BY-4.0", ["t1"]],
  );
  assertEquals(aMeta.extras?.map((extra) => [extra.key, extra.value]), [
    ["kept", "must"],
    ["dropped", null],
    ["nested", [{ key: "n", type: "int", value: null, unit: null }]],
  ]);
  const members = await Array.fromAsync(reused.collection.records());
  assertEquals(members.map((record) => record.id).sort(), [...reused.records.values()].sort());
  assertEquals(reused.links, 2);
  const aLinks = await Array.fromAsync(newA.recordLinks({ direction: "out" }));
  assertEquals(
    aLinks.map((link) => [link.name, link.term, link.record_to?.id]),
    [["feeds", "https://e.org/feeds", reused.records.get(b)]],
  );
  const bLinks = await Array.fromAsync(
    (await manager.record({ id: reused.records.get(b)! })).recordLinks({ direction: "out" }),
  );
  assertEquals(bLinks.map((link) => [link.name, link.record_to?.id]), [["measured by", c]]);
});

Deno.test("reuseCollection() keeps extras values on request and copies only selected records", async () => {
  await using server = await startServer();
  const { manager, collection, a, b } = await fixture(server);
  await using _ = manager;
  const reused = await reuseCollection(manager, collection.id, {
    suffix: "v2",
    records: [a],
    keepExtrasValues: true,
  });
  assertEquals([...reused.records.keys()], [a]);
  const copy = await (await manager.record({ id: reused.records.get(a)! })).meta();
  assertEquals(copy.extras?.[1]?.value, 2.5);
  assertEquals(reused.links, 0); // b is not carried over
  assertTrue(b > 0);
});

Deno.test("reuseCollection() refuses taken identifiers and foreign ids before creating anything", async () => {
  await using server = await startServer();
  const { manager, collection } = await fixture(server);
  await using _ = manager;
  await manager.record({ identifier: "rec-b_v2", create: true });
  const cases: [Parameters<typeof reuseCollection>[2], string][] = [
    [{ suffix: "v2" }, "'rec-b_v2' exists already"],
    [{ suffix: "v3", linkedRecordIds: [999] }, "is not in the collection"],
    [{ suffix: " _ " }, "Give a suffix"],
  ];
  for (const [options, message] of cases) {
    try {
      await reuseCollection(manager, collection.id, options);
      throw new Error("reused");
    } catch (error) {
      assertTrue(error instanceof InputError, String(error));
      assertStringIncludes(error.message, message);
    }
  }
  assertEquals((await Array.fromAsync(manager.search.searchResources("collection"))).length, 1);
  assertEquals((await Array.fromAsync(manager.search.searchResources("record"))).length, 4);
});
