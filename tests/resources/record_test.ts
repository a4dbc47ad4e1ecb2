import { ResourceNotFoundError } from "../../lib/resources/errors.ts";
import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import type { ResourceJson } from "../../lib/http/protocol.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { assertEquals, assertRejects, assertStringIncludes, assertTrue } from "../_assert.ts";
import { secondManager, setup, uploadText } from "./_setup.ts";

Deno.test("manager.record() gets an existing record and creates a missing one", async () => {
  await using env = await setup();
  const created = await env.manager.record({ identifier: "My Record", create: true, title: "T" });
  assertTrue(created instanceof RepoRecord);
  assertEquals(created.created, true);
  assertEquals((await created.meta()).identifier, "my-record");
  const again = await env.manager.record({ identifier: "my-record", create: true });
  assertEquals([again.created, again.id], [false, created.id]);
  const byId = await env.manager.record({ id: created.id });
  assertEquals((await byId.meta()).title, "T");
  assertEquals(String(byId), `record 'T' (id: ${created.id}, identifier: 'my-record')`);
});

Deno.test("manager.record() without create refuses a missing identifier", async () => {
  await using env = await setup();
  // ResourceNotFoundError: a RequestError (404) since the lookup by id throws it too (issue 30).
  const error = await assertRejects(
    () => env.manager.record({ identifier: "nope" }),
    ResourceNotFoundError,
  );
  assertStringIncludes(error.message, "'nope' is not present");
});

Deno.test("manager.record() refuses another user's private identifier (403)", async () => {
  await using env = await setup();
  const other = secondManager(env.server, "other");
  try {
    await other.manager.record({ identifier: "secret", create: true });
  } finally {
    await other.manager.close();
  }
  const error = await assertRejects(
    () => env.manager.record({ identifier: "secret", create: true }),
    InputError,
  );
  assertStringIncludes(error.message, "already in use and you have no access");
});

Deno.test("manager.record() validates creation extras before sending", async () => {
  await using env = await setup();
  const before = env.server.log.length;
  await assertRejects(
    () =>
      env.manager.record({
        identifier: "x",
        create: true,
        extras: [{ key: "n", type: "int", value: 0.5 }],
      }),
    InputError,
  );
  assertEquals(env.server.log.length, before);
});

Deno.test("edit() changes title, description, license, type and visibility", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "edit-me", create: true });
  const meta = await record.edit({
    title: "New title",
    description: "Text",
    license: "CC-BY-4.0",
    type: "Sample",
    visibility: "public",
  });
  assertEquals(
    [meta.title, meta.description, meta.license, meta.type, meta.visibility],
    ["New title", "Text", "CC-BY-4.0", "sample", "public"],
  );
  assertEquals((await record.meta()).title, "New title");
  const error = await assertRejects(() => record.edit({ license: "no-such" }), RequestError);
  assertEquals(error.status, 400);
});

Deno.test("delete() moves the record to the trash", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "gone", create: true });
  await record.delete();
  const error = await assertRejects(() => record.refresh(), RequestError);
  assertEquals(error.status, 404);
});

Deno.test("addTag() lower-cases, always returns the record, removeTag() removes", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "tags", create: true });
  assertEquals((await record.addTag("Zeta")).tags, ["zeta"]);
  assertEquals((await record.addTag("alpha")).tags, ["alpha", "zeta"]);
  const again = await record.addTag("ALPHA");
  assertEquals(again.tags, ["alpha", "zeta"]);
  assertEquals(await record.getTags(), ["alpha", "zeta"]);
  assertEquals([await record.checkTag("Alpha"), await record.checkTag("beta")], [true, false]);
  assertEquals((await record.removeTag("ZETA")).tags, ["alpha"]);
  await assertRejects(() => record.addTag("  "), InputError);
});

Deno.test("addUser(), changeUserRole(), removeUser() manage user roles", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "roles", create: true });
  const { id: userId } = env.server.createUser({ username: "bob", displayname: "Bob" });
  await record.addUser(userId, "member");
  const role = async () =>
    (await record.getUsers()).items.find((item) => item.user.id === userId)?.role.name;
  assertEquals(await role(), "member");
  await record.changeUserRole(userId, "editor");
  assertEquals(await role(), "editor");
  await record.removeUser(userId);
  assertEquals(await role(), undefined);
  const before = env.server.log.length;
  const error = await assertRejects(() => record.addUser(userId, "owner"), InputError);
  assertStringIncludes(error.message, "member, collaborator, editor, admin");
  await assertRejects(() => record.changeUserRole(userId, "Admin"), InputError);
  assertEquals(env.server.log.length, before);
});

Deno.test("addGroupRole(), changeGroupRole(), removeGroupRole() manage group roles", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "group-roles", create: true });
  const group = await env.manager.transport.json<ResourceJson>("POST", "/groups", {
    json: { identifier: "team", title: "Team" },
  });
  await record.addGroupRole(group.id, "collaborator");
  const role = async () =>
    (await record.getGroups()).items.find((item) => item.group.id === group.id)?.role.name;
  assertEquals(await role(), "collaborator");
  await record.changeGroupRole(group.id, "admin");
  assertEquals(await role(), "admin");
  await record.removeGroupRole(group.id);
  assertEquals(await role(), undefined);
  await assertRejects(() => record.addGroupRole(group.id, "owner"), InputError);
});

Deno.test("getRecordRevisions() and getRecordRevision() list record revisions", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "revs", create: true, title: "One" });
  await record.edit({ title: "Two" });
  const page = await record.getRecordRevisions({ per_page: 10 });
  assertEquals(page._pagination.total_items, 2);
  const [newest] = page.items;
  assertTrue(newest !== undefined);
  const revision = await record.getRecordRevision(newest.id);
  assertEquals([revision.id, revision.data.title, revision.diff.title], [newest.id, "Two", "One"]);
});

Deno.test("getFileRevisions() and getFileRevision() list file revisions", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "file-revs", create: true });
  const file = await uploadText(env.manager, record.id, "a.txt", "abc");
  await record.editFile(file.id, { description: "described" });
  const page = await record.getFileRevisions();
  assertEquals(page._pagination.total_items, 2);
  const [newest] = page.items;
  assertTrue(newest !== undefined);
  const revision = await record.getFileRevision(newest.id);
  assertEquals(revision.data.description, "described");
});

Deno.test("linkRecord() links records with a term; links list by direction", async () => {
  await using env = await setup();
  const a = await env.manager.record({ identifier: "a", create: true });
  const b = await env.manager.record({ identifier: "b", create: true });
  const term = "https://example.org/terms/derivedFrom";
  const link = await a.linkRecord(b.id, "derived from", { termIri: term });
  assertEquals([link.name, link.term, link.record_to?.id], ["derived from", term, b.id]);
  const plain = await b.linkRecord(a.id, "plain");
  assertEquals(plain.term, null);
  const out = await a.getRecordLinks({ direction: "out" });
  assertEquals(out.items.map((item) => item.id), [link.id]);
  const incoming = await b.getRecordLinks({ direction: "in", page: 1, per_page: 5 });
  assertEquals(incoming.items.map((item) => item.id), [link.id]);
  assertEquals(
    (await Array.fromAsync(a.recordLinks({ direction: "in" }))).map((item) => item.id),
    [plain.id],
  );
  await assertRejects(
    // @ts-expect-error: direction is checked at run time too
    () => a.getRecordLinks({ direction: "sideways" }),
    InputError,
  );
});

Deno.test("updateRecordLink() and deleteRecordLink() change and remove a link", async () => {
  await using env = await setup();
  const a = await env.manager.record({ identifier: "a", create: true });
  const b = await env.manager.record({ identifier: "b", create: true });
  const c = await env.manager.record({ identifier: "c", create: true });
  const link = await a.linkRecord(b.id, "first");
  const renamed = await a.updateRecordLink(link.id, {
    name: "second",
    termIri: "https://example.org/t",
  });
  assertEquals([renamed.name, renamed.term], ["second", "https://example.org/t"]);
  const moved = await a.updateRecordLink(link.id, { recordTo: c.id, termIri: null });
  assertEquals([moved.record_to?.id, moved.term], [c.id, null]);
  await assertRejects(() => a.updateRecordLink(link.id, {}), InputError);
  await a.deleteRecordLink(link.id);
  assertEquals((await a.getRecordLinks())._pagination.total_items, 0);
});

Deno.test("addCollectionLink(), getCollectionLinks(), removeCollectionLink()", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "member", create: true });
  const collection = await env.manager.transport.json<ResourceJson>("POST", "/collections", {
    json: { identifier: "box", title: "Box" },
  });
  await record.addCollectionLink(collection.id);
  assertEquals(
    (await record.getCollectionLinks()).items.map((item) => item.identifier),
    ["box"],
  );
  const error = await assertRejects(() => record.addCollectionLink(collection.id), RequestError);
  assertEquals(error.status, 409);
  await record.removeCollectionLink(collection.id);
  assertEquals((await record.getCollectionLinks())._pagination.total_items, 0);
});

Deno.test("manager.record({ id }) keeps the server's error as the cause", async () => {
  await using env = await setup();
  const error = await assertRejects(() => env.manager.record({ id: 987654 }), RequestError);
  assertStringIncludes(error.message, "Could not access the record with id 987654");
  assertTrue(error.cause instanceof RequestError);
  assertEquals(error.cause.status, error.status);
});
