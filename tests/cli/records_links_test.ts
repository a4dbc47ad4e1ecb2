import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import type { PageJson, ResourceJson, UserRoleJson } from "../../lib/http/protocol.ts";
import { createRecord, managerFor, ok, repo } from "./_records.ts";

async function createResource(
  server: TestServer,
  base: "collections" | "groups",
  identifier: string,
): Promise<number> {
  await using manager = managerFor(server);
  const meta = await manager.transport.json<ResourceJson>("POST", `/${base}`, {
    json: { identifier, title: identifier },
  });
  return meta.id;
}

Deno.test("records add-record-link links to -l, -L and -T targets; a duplicate is not an error", async () => {
  await using server = await startServer();
  const from = await createRecord(server, "from");
  const to = [await createRecord(server, "to-1"), await createRecord(server, "to-2")];
  const third = await createRecord(server, "to-3");
  const r = String(from);
  await ok(server, [
    "add-record-link",
    "-r",
    r,
    "-l",
    String(to[0]),
    "-n",
    "uses",
    "-t",
    "https://ex.org/uses",
  ]);
  await ok(server, ["add-record-link", "-r", r, "-L", "to-3", "-n", "cites"]);
  const multi = await ok(server, [
    "add-record-link",
    "-r",
    r,
    "-T",
    `${to[0]},${to[1]}`,
    "-n",
    "uses",
  ]);
  assertStringIncludes(multi.stderr, `The link 'uses' to record ${to[0]} exists already`);
  assertStringIncludes(multi.stderr, `to record ${to[1]} as 'uses'`);
  const out = await ok(server, ["show-record-links-to", "-r", r, "-n", "100"]);
  assertStringIncludes(out.stdout, "Found 3 link(s) from the record");
  assertStringIncludes(out.stdout, "term: https://ex.org/uses");
  const incoming = await ok(server, ["show-record-links-to", "-r", String(third), "-d", "in"]);
  assertStringIncludes(incoming.stdout, "Found 1 link(s) to the record");
  assertStringIncludes(incoming.stdout, "'cites' from record 'from'");
  const noTarget = await repo(server, ["records", "add-record-link", "-r", r, "-n", "x"]);
  assertEquals(noTarget.code, 1); // exit 1 as the Python client: its code wins (issue 31)
});

Deno.test("records update-record-link renames a link; delete-record-link deletes it", async () => {
  await using server = await startServer();
  const from = await createRecord(server, "a");
  const to = await createRecord(server, "b");
  await ok(server, ["add-record-link", "-r", String(from), "-l", String(to), "-n", "old"]);
  await using manager = managerFor(server);
  const record = await manager.record({ id: from });
  const [link] = (await record.getRecordLinks()).items;
  await ok(server, ["update-record-link", "-r", String(from), "-l", String(link!.id), "-n", "new"]);
  assertEquals((await record.getRecordLinks()).items.map((item) => item.name), ["new"]);
  await ok(server, ["delete-record-link", "-r", String(from), "-l", String(link!.id)]);
  assertEquals((await record.getRecordLinks()).items, []);
  const usage = await repo(server, ["records", "delete-record-link", "-r", String(from)]);
  assertEquals(usage.code, 2);
});

Deno.test("records add-collection-link and remove-collection-link by collection id or identifier", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "member");
  const collection = await createResource(server, "collections", "coll");
  await ok(server, ["add-collection-link", "-r", String(id), "-C", "coll"]);
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  assertEquals((await record.getCollectionLinks()).items.map((item) => item.id), [collection]);
  await ok(server, ["remove-collection-link", "-r", String(id), "-c", String(collection)]);
  assertEquals((await record.getCollectionLinks()).items, []);
  const unknown = await repo(server, [
    "records",
    "add-collection-link",
    "-r",
    String(id),
    "-C",
    "nope",
  ]);
  assertEquals(unknown.code, 1);
  assertStringIncludes(unknown.stderr, "No collection with identifier 'nope'");
});

Deno.test("records add-tag adds a token list lower-cased; remove-tag removes one", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "tagged");
  await ok(server, ["add-tag", "-r", String(id), "-t", "Alpha, beta"]);
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  assertEquals((await record.refresh()).tags, ["alpha", "beta"]);
  await ok(server, ["remove-tag", "-r", String(id), "-t", "alpha"]);
  assertEquals((await record.refresh()).tags, ["beta"]);
  const absent = await repo(server, ["records", "remove-tag", "-r", String(id), "-t", "alpha"]);
  assertEquals(absent.code, 0);
  assertStringIncludes(absent.stderr, "has no tag 'alpha'");
});

Deno.test("records add-user gives a second user a role, changes it on a repeat, remove-user removes it", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "shared");
  const user = server.createUser({ username: "jdoe", displayname: "Jane Doe" });
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  const roleOf = async () => {
    const page: PageJson<UserRoleJson> = await record.getUsers();
    return page.items.find((item) => item.user.id === user.id)?.role.name;
  };
  const added = await ok(server, ["add-user", "-r", String(id), "-u", String(user.id)]);
  assertStringIncludes(added.stderr, "Jane Doe");
  assertEquals(await roleOf(), "member");
  const changed = await ok(server, [
    "add-user",
    "-r",
    String(id),
    "-U",
    "jdoe",
    "-D",
    "local",
    "-p",
    "editor",
  ]);
  assertStringIncludes(changed.stderr, "Changed the role");
  assertEquals(await roleOf(), "editor");
  const noType = await repo(server, ["records", "add-user", "-r", String(id), "-U", "jdoe"]);
  assertEquals(noType.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  const badRole = await repo(server, [
    "records",
    "add-user",
    "-r",
    String(id),
    "-u",
    "2",
    "-p",
    "owner",
  ]);
  assertEquals(badRole.code, 2);
  await ok(server, ["remove-user", "-r", String(id), "-u", String(user.id)]);
  assertEquals(await roleOf(), undefined);
});

Deno.test("records add-group-role and remove-group-role", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "grouped");
  const group = await createResource(server, "groups", "team");
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  const roles = async () => (await record.getGroups()).items.map((item) => item.role.name);
  await ok(server, ["add-group-role", "-r", String(id), "-g", String(group), "-p", "collaborator"]);
  assertEquals(await roles(), ["collaborator"]);
  const again = await ok(server, [
    "add-group-role",
    "-r",
    String(id),
    "-g",
    String(group),
    "-p",
    "admin",
  ]);
  assertStringIncludes(again.stderr, "Changed the role");
  assertEquals(await roles(), ["admin"]);
  await ok(server, ["remove-group-role", "-r", String(id), "-G", "team"]);
  assertEquals(await roles(), []);
});

Deno.test("a link to the record itself, a stale link id and a missing collection link fail with what happened (issue 31)", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "linked");
  await ok(server, ["edit", "-r", String(id), "-t", "Linked title"]);
  const self = await repo(server, [
    "records",
    "add-record-link",
    "-r",
    String(id),
    "-l",
    String(id),
    "-n",
    "me",
  ]);
  assertEquals(self.code, 1);
  assertStringIncludes(self.stderr, "to itself: the server refused it (409)");
  assertNotIncludes(self.stderr, "exists already");
  for (const command of [["delete-record-link"], ["update-record-link", "-n", "x"]]) {
    const stale = await repo(server, ["records", ...command, "-r", String(id), "-l", "99"]);
    assertEquals(stale.code, 1, stale.stderr);
    assertStringIncludes(stale.stderr, "has no link with id 99 (a link id, not a record id)");
    assertStringIncludes(stale.stderr, "show-record-links-to");
  }
  assertEquals(
    (await repo(server, ["collections", "create", "-i", "col-x", "-t", "Col X"])).code,
    0,
  );
  await ok(server, ["add-collection-link", "-r", String(id), "-C", "col-x"]);
  const removed = await ok(server, ["remove-collection-link", "-r", String(id), "-C", "col-x"]);
  assertStringIncludes(removed.stderr, "from the collection 'Col X' (id: 1, identifier: 'col-x')");
  const again = await repo(server, [
    "records",
    "remove-collection-link",
    "-r",
    String(id),
    "-C",
    "col-x",
  ]);
  assertEquals(again.code, 1);
  assertStringIncludes(again.stderr, "is not in the collection 'Col X'");
  const child = await repo(server, [
    "collections",
    "remove-collection-link",
    "-C",
    "col-x",
    "-L",
    "col-x",
  ]);
  assertEquals(child.code, 1);
  assertStringIncludes(child.stderr, "is not a child of the collection 'Col X'");
});
