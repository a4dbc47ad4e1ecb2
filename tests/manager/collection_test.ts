// RepoCollection over real HTTP: create/get, edit, delete and restore, records, child
// collections, tags, roles with a second user, revisions, info and streamed exports.
import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { ResourceNotFoundError } from "../../lib/resources/errors.ts";
import { RepoCollection } from "../../lib/model/collection.ts";
import { assertEquals, assertRejects, assertTrue } from "../_assert.ts";
import { secondManager, setup } from "../resources/_setup.ts";

Deno.test("manager.collection() creates, gets, edits, deletes, restores and purges", async () => {
  await using env = await setup();
  const m = env.manager;
  const created = await m.collection({ identifier: "Batch 1", create: true, title: "Batch" });
  assertTrue(created instanceof RepoCollection);
  assertEquals([created.created, (await created.meta()).identifier], [true, "batch-1"]);
  const again = await m.collection({ identifier: "batch-1", create: true });
  assertEquals([again.created, again.id], [false, created.id]);
  await assertRejects(() => m.collection({ identifier: "nope" }), ResourceNotFoundError);
  assertEquals((await created.edit({ description: "d" })).description, "d");
  assertEquals(String(created), `collection 'Batch' (id: ${created.id}, identifier: 'batch-1')`);
  await created.delete();
  const trash = await m.misc.getDeletedResources();
  assertEquals(trash.items.map((item) => [item.type, item.id]), [["collection", created.id]]);
  assertEquals((await created.restore()).state, "active");
  assertEquals((await m.collection({ id: created.id })).id, created.id);
  await created.delete();
  await created.purge();
  const gone = await assertRejects(() => m.collection({ id: created.id }), RequestError);
  assertEquals(gone.status, 404);
});

Deno.test("RepoCollection adds, lists and removes records and child collections", async () => {
  await using env = await setup();
  const m = env.manager;
  const parent = await m.collection({ identifier: "parent", create: true });
  const left = await m.collection({ identifier: "left", create: true });
  const right = await m.collection({ identifier: "right", create: true });
  const records = [];
  for (const name of ["r1", "r2", "r3"]) {
    records.push(await m.record({ identifier: name, create: true }));
  }
  const [r1, r2, r3] = records as [typeof records[0], typeof records[0], typeof records[0]];
  await parent.addCollectionLink(left.id);
  await parent.addCollectionLink(right.id);
  await parent.addRecordLink(r1.id);
  await left.addRecordLink(r2.id);
  await right.addRecordLink(r3.id);
  const children = (await parent.getCollections()).items.map((c) => c.identifier).sort();
  assertEquals(children, ["left", "right"]);
  assertEquals((await parent.getRecords()).items.map((r) => r.identifier), ["r1"]);
  const all = await Array.fromAsync(parent.records({ children: true }));
  assertEquals(all.map((r) => r.identifier).sort(), ["r1", "r2", "r3"]);
  const info = await parent.info();
  assertEquals([info.recordCount, info.childCount], [1, 2]);
  assertEquals(info.children.map((c) => c.identifier).sort(), ["left", "right"]);
  await parent.removeCollectionLink(right.id);
  await parent.removeRecordLink(r1.id);
  assertEquals((await Array.fromAsync(parent.collections())).map((c) => c.id), [left.id]);
  assertEquals((await parent.getRecords()).items, []);
  await assertRejects(() => parent.addRecordLink(0), InputError);
});

Deno.test("RepoCollection tags, revisions, and user and group roles", async () => {
  await using env = await setup();
  const collection = await env.manager.collection({ identifier: "tagged", create: true });
  await collection.addTag("Foo Bar");
  assertEquals(await collection.getTags(), ["foo bar"]);
  assertEquals(await collection.checkTag("FOO BAR"), true);
  await collection.removeTag("foo bar");
  assertEquals(await collection.getTags(), []);
  const revisions = await collection.getRevisions();
  assertTrue(revisions.items.length >= 2);
  const first = revisions.items.at(-1)!;
  assertEquals((await collection.getRevision(first.id)).id, first.id);
  const other = secondManager(env.server, "colleague");
  try {
    await collection.addUser(other.userId, "editor");
    await collection.changeUserRole(other.userId, "admin");
    const users = (await collection.getUsers()).items.map((item) => [item.user.id, item.role.name]);
    assertEquals(users, [[1, "admin"], [other.userId, "admin"]]);
    await collection.removeUser(other.userId);
    await assertRejects(() => collection.addUser(other.userId, "owner"), InputError);
    const group = await env.manager.group({ identifier: "team", create: true });
    await collection.addGroupRole(group.id, "member");
    await collection.changeGroupRole(group.id, "collaborator");
    assertEquals((await collection.getGroups()).items.map((item) => item.role.name), [
      "collaborator",
    ]);
    assertEquals((await group.getCollections()).items.map((c) => c.id), [collection.id]);
    await collection.removeGroupRole(group.id);
    assertEquals((await collection.getGroups()).items, []);
  } finally {
    await other.manager.close();
  }
});

Deno.test("RepoCollection exports to a folder named after the identifier and as a stream", async () => {
  await using env = await setup();
  const collection = await env.manager.collection({ identifier: "exported", create: true });
  await collection.addRecordLink((await env.manager.record({ identifier: "in", create: true })).id);
  const dir = await Deno.makeTempDir();
  try {
    const path = await collection.export(dir, "json", { useFolder: true });
    assertEquals(path, `${dir}/exported/exported.json`);
    assertEquals(JSON.parse(await Deno.readTextFile(path)).identifier, "exported");
    const qr = await collection.export(dir, "qr");
    assertEquals(qr, `${dir}/exported.png`);
    const crate = await collection.export(dir, "ro-crate");
    assertEquals(crate, `${dir}/exported.eln`);
    const rdf = await new Response(await collection.exportStream("rdf")).text();
    assertTrue(rdf.length > 0);
    // @ts-expect-error: collections have no PDF export
    await assertRejects(() => collection.export(dir, "pdf"), InputError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
