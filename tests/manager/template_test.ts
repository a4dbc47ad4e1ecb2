// RepoTemplate over real HTTP: both types with data, edit, roles and group sharing, revisions,
// exports (json, json-schema, shacl; streamed), trash (delete, restore, purge).
import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { RepoTemplate } from "../../lib/model/template.ts";
import { assertEquals, assertRejects, assertStringIncludes, assertTrue } from "../_assert.ts";
import { secondManager, setup } from "../resources/_setup.ts";

Deno.test("manager.template() creates record and extras templates with default data", async () => {
  await using env = await setup();
  const m = env.manager;
  const record = await m.template({ identifier: "rec-t", create: true });
  assertTrue(record instanceof RepoTemplate);
  const meta = await record.meta();
  assertEquals([meta.type, record.created], ["record", true]);
  assertEquals(typeof meta.data === "object" && !Array.isArray(meta.data), true);
  const extras = await m.template({
    identifier: "ext-t",
    create: true,
    type: "extras",
    data: [{ key: "temperature", type: "float", value: null, unit: "K" }],
  });
  const data = (await extras.meta()).data;
  assertEquals(Array.isArray(data) ? data.map((extra) => extra.key) : [], ["temperature"]);
  const empty = await m.template({ identifier: "ext-empty", create: true, type: "extras" });
  assertEquals((await empty.meta()).data, []);
  const before = env.server.log.length;
  await assertRejects(
    () => m.template({ identifier: "bad", create: true, type: "workflow" }),
    InputError,
  );
  assertEquals(env.server.log.length, before); // refused before any request
});

Deno.test("RepoTemplate edits metadata and data; type stays", async () => {
  await using env = await setup();
  const template = await env.manager.template({ identifier: "t", create: true, type: "extras" });
  const edited = await template.edit({
    title: "New",
    data: [{ key: "a", type: "str", value: null }],
  });
  assertEquals(edited.title, "New");
  assertEquals(Array.isArray(edited.data) ? edited.data.length : 0, 1);
  const revisions = await template.getRevisions();
  assertTrue(revisions.items.length >= 2);
  const newest = revisions.items[0]!;
  assertEquals((await template.getRevision(newest.id)).id, newest.id);
});

Deno.test("RepoTemplate roles: users, and groups it is shared with", async () => {
  await using env = await setup();
  const template = await env.manager.template({ identifier: "shared", create: true });
  const other = secondManager(env.server, "colleague");
  try {
    await template.addUser(other.userId, "member");
    await template.changeUserRole(other.userId, "editor");
    const roles = (await template.getUsers()).items.map((item) => item.role.name);
    assertEquals(roles, ["admin", "editor"]);
    assertEquals((await other.manager.template({ id: template.id })).id, template.id);
    await template.removeUser(other.userId);
    await assertRejects(() => template.addUser(other.userId, "collaborator"), InputError);
    const group = await env.manager.group({ identifier: "team", create: true });
    await template.addGroupRole(group.id, "member");
    await template.changeGroupRole(group.id, "editor");
    assertEquals((await template.getGroups()).items.map((item) => item.role.name), ["editor"]);
    assertEquals((await group.getTemplates()).items.map((t) => t.id), [template.id]);
    await template.removeGroupRole(group.id);
    assertEquals((await group.getTemplates()).items, []);
  } finally {
    await other.manager.close();
  }
});

Deno.test("RepoTemplate exports json-schema and shacl, to disk and streamed", async () => {
  await using env = await setup();
  const template = await env.manager.template({
    identifier: "schema",
    create: true,
    type: "extras",
    data: [{ key: "temperature", type: "float", value: null, unit: "K" }],
  });
  const dir = await Deno.makeTempDir();
  try {
    const json = await template.export(dir);
    assertEquals(json, `${dir}/schema.json`);
    assertEquals(JSON.parse(await Deno.readTextFile(json)).identifier, "schema");
    const schemaPath = await template.export(dir, "json-schema", { useFolder: true });
    assertEquals(schemaPath, `${dir}/schema/schema.json`);
    const schema = JSON.parse(await Deno.readTextFile(schemaPath));
    assertTrue("temperature" in (schema.properties ?? {}));
    const shacl = await template.export(dir, "shacl");
    assertEquals(shacl, `${dir}/schema.ttl`);
    const streamed = await new Response(await template.exportStream("shacl")).text();
    assertStringIncludes(streamed, "NodeShape");
    assertEquals(streamed, await Deno.readTextFile(shacl));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a template is deleted, listed in the trash, restored, deleted and purged", async () => {
  await using env = await setup();
  const m = env.manager;
  const template = await m.template({ identifier: "doomed", create: true });
  await template.delete();
  const trash = await Array.fromAsync(m.misc.deletedResources());
  assertEquals(trash.map((item) => [item.type, item.identifier]), [["template", "doomed"]]);
  await m.misc.restore("template", template.id);
  assertEquals((await m.template({ id: template.id })).id, template.id);
  await template.delete();
  await m.misc.purge("template", template.id);
  assertEquals((await m.misc.getDeletedResources()).items, []);
  const gone = await assertRejects(() => m.template({ id: template.id }), RequestError);
  assertEquals(gone.status, 404);
});
