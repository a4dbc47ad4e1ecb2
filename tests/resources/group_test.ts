// RepoGroup over real HTTP: create/edit/delete, members with a second user, shared resources,
// revisions, restore and purge.
import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { RepoGroup } from "../../lib/resources/group.ts";
import { assertEquals, assertRejects, assertTrue } from "../_assert.ts";
import { secondManager, setup } from "./_setup.ts";

Deno.test("manager.group() creates, edits, deletes, restores and purges a group", async () => {
  await using env = await setup();
  const m = env.manager;
  const group = await m.group({ identifier: "team", create: true, title: "Team" });
  assertTrue(group instanceof RepoGroup);
  assertEquals(group.created, true);
  assertEquals((await group.edit({ description: "All of us" })).description, "All of us");
  const revisions = await group.getRevisions();
  assertTrue(revisions.items.length >= 2);
  assertEquals((await group.getRevision(revisions.items[0]!.id)).id, revisions.items[0]!.id);
  await group.delete();
  assertEquals((await m.misc.getDeletedResources()).items.map((item) => item.type), ["group"]);
  assertEquals((await group.restore()).identifier, "team");
  await group.delete();
  await group.purge();
  const gone = await assertRejects(() => m.group({ id: group.id }), RequestError);
  assertEquals(gone.status, 404);
});

Deno.test("RepoGroup adds, changes and removes a member", async () => {
  await using env = await setup();
  const group = await env.manager.group({ identifier: "team", create: true });
  const other = secondManager(env.server, "colleague");
  try {
    await group.addUser(other.userId, "member");
    await group.changeUserRole(other.userId, "editor");
    const members = (await group.getMembers()).items.map((item) => [item.user.id, item.role.name]);
    assertEquals(members, [[1, "admin"], [other.userId, "editor"]]);
    assertEquals((await group.getUsers()).items.length, 2);
    const all = await Array.fromAsync(group.members({ exclude: [1] }));
    assertEquals(all.map((item) => item.user.id), [other.userId]);
    await group.removeUser(other.userId);
    assertEquals((await group.getMembers()).items.map((item) => item.user.id), [1]);
    await assertRejects(() => group.addUser(other.userId, "collaborator"), InputError);
    await assertRejects(() => group.addUser(0, "member"), InputError);
    const creator = await assertRejects(() => group.removeUser(1), RequestError);
    assertEquals(creator.status, 409);
  } finally {
    await other.manager.close();
  }
});

Deno.test("RepoGroup lists the records, collections and templates shared with it", async () => {
  await using env = await setup();
  const m = env.manager;
  const group = await m.group({ identifier: "team", create: true });
  const record = await m.record({ identifier: "r", create: true });
  const collection = await m.collection({ identifier: "c", create: true });
  const template = await m.template({ identifier: "t", create: true });
  await record.addGroupRole(group.id, "member");
  await collection.addGroupRole(group.id, "member");
  await template.addGroupRole(group.id, "member");
  assertEquals((await group.getRecords()).items.map((r) => r.id), [record.id]);
  assertEquals((await group.getCollections()).items.map((c) => c.id), [collection.id]);
  assertEquals((await group.getTemplates()).items.map((t) => t.id), [template.id]);
});
