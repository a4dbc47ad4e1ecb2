// RepoUser's resource lists and manager.misc (trash, licenses, roles, tags, info) over real HTTP.
import { InputError } from "../../lib/errors.ts";
import { assertEquals, assertRejects, assertTrue } from "../_assert.ts";
import { secondManager, setup } from "./_setup.ts";

Deno.test("RepoUser lists the user's records, collections, templates and groups", async () => {
  await using env = await setup();
  const other = secondManager(env.server, "jdoe");
  try {
    const o = other.manager;
    await o.record({ identifier: "their-record", create: true, visibility: "public" });
    await o.collection({ identifier: "their-coll", create: true, visibility: "public" });
    await o.template({ identifier: "their-tmpl", create: true, visibility: "public" });
    await o.group({ identifier: "their-group", create: true, visibility: "public" });
    const user = await env.manager.user({ username: "jdoe", identityType: "local" });
    assertEquals(user.id, other.userId);
    assertEquals((await user.getRecords()).items.map((r) => r.identifier), ["their-record"]);
    assertEquals((await user.getCollections()).items.map((c) => c.identifier), ["their-coll"]);
    assertEquals((await user.getTemplates()).items.map((t) => t.identifier), ["their-tmpl"]);
    assertEquals((await user.getGroups()).items.map((g) => g.identifier), ["their-group"]);
    assertEquals((await user.identities()).map((identity) => identity.username), ["jdoe"]);
    assertEquals((await env.manager.user({ me: true })).id, (await env.manager.patUser()).id);
  } finally {
    await other.manager.close();
  }
});

Deno.test("manager.misc restores a deleted record and purges another", async () => {
  await using env = await setup();
  const m = env.manager;
  const kept = await m.record({ identifier: "kept", create: true });
  const purged = await m.record({ identifier: "purged", create: true });
  await kept.delete();
  await purged.delete();
  const trash = await m.misc.getDeletedResources({ filter: "kept" });
  assertEquals(trash.items.map((item) => item.identifier), ["kept"]);
  const restored = await m.misc.restore("record", kept.id);
  assertEquals([restored.id, restored.state], [kept.id, "active"]);
  await m.misc.purge("record", purged.id);
  assertEquals((await Array.fromAsync(m.misc.deletedResources())).length, 0);
  const before = env.server.log.length;
  await assertRejects(() => m.misc.restore("user", 1), InputError);
  await assertRejects(() => m.misc.purge("file", 1), InputError);
  assertEquals(env.server.log.length, before);
});

Deno.test("manager.misc lists licenses, roles, tags by type, and the server info", async () => {
  await using env = await setup();
  const m = env.manager;
  const licenses = await m.misc.getLicenses({ filter: "CC-BY", perPage: 5 });
  assertTrue(licenses.items.length > 0);
  assertTrue(licenses.items.every((license) => /cc-by/i.test(license.name + license.title)));
  const roles = await m.misc.getRoles();
  assertEquals(roles.template?.map((role) => role.name), ["member", "editor", "admin"]);
  assertTrue((roles.record?.[0]?.permissions.length ?? 0) > 0);
  await m.record({ identifier: "r", create: true, tags: ["rtag"] });
  const collection = await m.collection({ identifier: "c", create: true });
  await collection.addTag("ctag");
  const recordTags = await m.misc.getTags({ type: "record" });
  assertEquals(recordTags.items.map((tag) => tag.name), ["rtag"]);
  const allTags = await m.misc.getTags();
  assertEquals(allTags.items.map((tag) => tag.name), ["ctag", "rtag"]);
  assertEquals(typeof (await m.misc.getInfo()).version, "string");
  assertEquals(await m.info(), await m.misc.getInfo());
});
