// List methods take `{ page, perPage }` (camelCase) and send the wire names; `per_page` still works.
import { wireQuery } from "../../lib/http/list_options.ts";
import { assertEquals } from "../_assert.ts";
import { setup } from "./_setup.ts";

Deno.test("wireQuery() maps library names to wire names and drops undefined", () => {
  assertEquals(wireQuery({ page: 2, perPage: 10, filter: "x", sort: undefined }), {
    page: 2,
    filter: "x",
    per_page: 10,
  });
  assertEquals(wireQuery({ per_page: 5 }), { per_page: 5 });
  assertEquals(wireQuery({ per_page: 5, perPage: 7 }), { per_page: 7 });
});

Deno.test("collection.getRecords/records and record.getRecordLinks/recordLinks take perPage", async () => {
  await using env = await setup();
  const collection = await env.manager.collection({ identifier: "c", create: true });
  const hub = await env.manager.record({ identifier: "hub", create: true });
  for (const name of ["r1", "r2", "r3"]) {
    const record = await env.manager.record({ identifier: name, create: true });
    await collection.addRecordLink(record.id);
    await hub.linkRecord(record.id, `to ${name}`);
  }
  const page = await collection.getRecords({ page: 2, perPage: 2 });
  assertEquals([page.items.length, page._pagination.total_pages], [1, 2]);
  assertEquals((await collection.getRecords({ perPage: 1 }))._pagination.total_pages, 3);
  const before = env.server.log.length;
  assertEquals((await Array.fromAsync(collection.records({ perPage: 1 }))).length, 3);
  const pages = env.server.log.slice(before).filter((entry) => entry.method === "GET");
  assertEquals(pages.length, 3);
  assertEquals(pages[0]?.query.includes("per_page=1"), true);

  const links = await hub.getRecordLinks({ perPage: 2 });
  assertEquals([links.items.length, links._pagination.total_pages], [2, 2]);
  assertEquals((await Array.fromAsync(hub.recordLinks({ perPage: 1 }))).length, 3);
  // The wire name is still accepted (compatibility).
  assertEquals((await hub.getRecordLinks({ per_page: 1 })).items.length, 1);
  assertEquals((await collection.getRecords({ per_page: 1 }))._pagination.total_pages, 3);
});

Deno.test("files and search take perPage the same way", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "f", create: true });
  await record.uploadString("a", "a.txt");
  await record.uploadString("b", "b.txt");
  assertEquals((await record.getFiles({ perPage: 1 }))._pagination.total_pages, 2);
  const found = await env.manager.search.searchResourcesPage("record", { perPage: 1 });
  assertEquals(found.items.length, 1);
});
