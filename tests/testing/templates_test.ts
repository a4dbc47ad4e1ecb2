// Tests of the local server's template routes: CRUD, both types with data validation, search,
// roles with a second user, revisions and the trash.
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call } from "./_helpers.ts";

const EXTRAS = [
  { key: "temp", type: "float", value: null, unit: "K", validation: { required: true } },
  { key: "mode", type: "str", value: "a", validation: { options: ["a", "b"] } },
];

Deno.test("POST /templates creates extras and record templates with normalized data", async () => {
  await using server = await startServer();
  const extras = await call(server, "POST", "/templates", {
    body: { identifier: " Tpl-X ", title: "Extras", type: "extras", data: EXTRAS },
  });
  assertEquals(extras.status, 201);
  assertEquals(extras.body.identifier, "tpl-x");
  assertEquals(extras.body.type, "extras");
  assertEquals(extras.body.data[0], { ...EXTRAS[0], key: "temp" });
  assertEquals(extras.body.state, "active");
  assertEquals(Object.keys(extras.body._links).sort(), [
    "group_roles",
    "revisions",
    "self",
    "user_roles",
    "view",
  ]);
  assertEquals(Object.keys(extras.body._actions).sort(), [
    "add_group_role",
    "add_user_role",
    "delete",
    "edit",
  ]);
  const record = await call(server, "POST", "/templates", {
    body: {
      identifier: "tpl-r",
      title: "Record",
      type: "record",
      data: { title: "A title", tags: ["B", "a"], extras: EXTRAS, license: "MIT", bogus: 1 },
    },
  });
  assertEquals(record.status, 201);
  assertEquals(record.body.data, {
    identifier: "",
    title: "A title",
    description: "",
    type: null,
    license: "MIT",
    extras: record.body.data.extras,
    tags: ["a", "b"],
    collections: [],
    record_links: [],
    roles: [],
  });
  assertEquals(record.body.data.extras.length, 2);
});

Deno.test("POST /templates rejects missing or invalid type and data with server messages", async () => {
  await using server = await startServer();
  const missing = await call(server, "POST", "/templates", {
    body: { identifier: "t", title: "" },
  });
  assertEquals(missing.status, 400);
  assertEquals(missing.body.errors, {
    title: ["String must not be empty."],
    type: ["Missing data for required field."],
    data: ["Missing data for required field."],
  });
  const badType = await call(server, "POST", "/templates", {
    body: { identifier: "t", title: "T", type: "file", data: [] },
  });
  assertEquals(badType.body.errors, { type: ["Must be one of: record, extras."] });
  const badExtras = await call(server, "POST", "/templates", {
    body: {
      identifier: "t",
      title: "T",
      type: "extras",
      data: [{ key: "n", type: "int", value: "x" }],
    },
  });
  assertEquals(badExtras.status, 400);
  assertEquals(Object.keys(badExtras.body.errors.data), ["0"]);
  const badRecord = await call(server, "POST", "/templates", {
    body: {
      identifier: "t",
      title: "T",
      type: "record",
      data: {
        identifier: "Not Valid!",
        license: "nope",
        collections: [0],
        record_links: [{ direction: "up", record: 1, name: "x" }],
        roles: [{ subject_type: "user", subject_id: 2, role: "owner" }],
      },
    },
  });
  assertEquals(badRecord.status, 400);
  assertEquals(Object.keys(badRecord.body.errors.data).sort(), [
    "collections",
    "identifier",
    "license",
    "record_links",
    "roles",
  ]);
  const notObject = await call(server, "POST", "/templates", {
    body: { identifier: "t", title: "T", type: "record", data: [] },
  });
  assertEquals(notObject.body.errors, { data: { _schema: ["Invalid input type."] } });
  const ok = await call(server, "POST", "/templates", {
    body: { identifier: "t", title: "T", type: "extras", data: [] },
  });
  assertEquals(ok.status, 201);
  const dup = await call(server, "POST", "/templates", {
    body: { identifier: "T", title: "T", type: "extras", data: [] },
  });
  assertEquals(dup.body.errors, { identifier: ["Identifier is already in use."] });
});

Deno.test("templates: get, by identifier, search by type, edit (type kept) and revisions", async () => {
  await using server = await startServer();
  const a = await call(server, "POST", "/templates", {
    body: { identifier: "alpha", title: "Alpha", type: "extras", data: [] },
  });
  await call(server, "POST", "/templates", {
    body: { identifier: "beta", title: "Beta", type: "record", data: {}, visibility: "public" },
  });
  assertEquals((await call(server, "GET", `/templates/${a.body.id}`)).body.title, "Alpha");
  assertEquals((await call(server, "GET", "/templates/identifier/ALPHA")).body.id, a.body.id);
  const all = await call(server, "GET", "/templates");
  assertEquals(all.body._pagination.total_items, 2);
  assertEquals(all.body._actions.new_template, `${server.url}/api/v1/templates`);
  const records = await call(server, "GET", "/templates?type=record");
  assertEquals(records.body.items.map((t: { identifier: string }) => t.identifier), ["beta"]);
  assertEquals((await call(server, "GET", "/templates?visibility=public")).body.items.length, 1);
  assertEquals((await call(server, "GET", "/templates?query=alp")).body.items.length, 1);
  const edited = await call(server, "PATCH", `/templates/${a.body.id}`, {
    body: { title: "Alpha 2", type: "record", data: [{ key: "k", type: "bool", value: true }] },
  });
  assertEquals(edited.status, 200);
  assertEquals([edited.body.title, edited.body.type], ["Alpha 2", "extras"]);
  assertEquals(edited.body.data, [{ key: "k", type: "bool", value: true }]);
  const wrong = await call(server, "PATCH", `/templates/${a.body.id}`, { body: { data: {} } });
  assertEquals(wrong.body.errors, { data: ["Not a valid list."] });
  const revisions = await call(server, "GET", `/templates/${a.body.id}/revisions`);
  assertEquals(revisions.body._pagination.total_items, 2);
  const newest = revisions.body.items[0];
  assertEquals(newest.diff.title, "Alpha");
  const one = await call(server, "GET", `/templates/${a.body.id}/revisions/${newest.id}`);
  assertEquals(one.body.data.title, "Alpha 2");
  assert(one.body._links.parent);
});

Deno.test("template roles: a second user gains read and update, the creator's role is kept", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const alice = server.users[1]!;
  const t = await call(server, "POST", "/templates", {
    body: { identifier: "shared", title: "Shared", type: "extras", data: [] },
  });
  const id = t.body.id;
  const asAlice = { token: alice.pat };
  assertEquals((await call(server, "GET", `/templates/${id}`, asAlice)).status, 403);
  const added = await call(server, "POST", `/templates/${id}/roles/users`, {
    body: { user: { id: alice.id }, role: { name: "member" } },
  });
  assertEquals(added.status, 201);
  const bad = await call(server, "POST", `/templates/${id}/roles/users`, {
    body: { user: { id: alice.id }, role: { name: "collaborator" } },
  });
  assertEquals(bad.status, 409); // the existing role answers first, as on the real server
  assertEquals((await call(server, "GET", `/templates/${id}`, asAlice)).status, 200);
  const noEdit = await call(server, "PATCH", `/templates/${id}`, {
    ...asAlice,
    body: { title: "x" },
  });
  assertEquals(noEdit.status, 403);
  const change = await call(server, "PATCH", `/templates/${id}/roles/users/${alice.id}`, {
    body: { name: "editor" },
  });
  assertEquals(change.status, 204);
  const edit = await call(server, "PATCH", `/templates/${id}`, {
    ...asAlice,
    body: { title: "x" },
  });
  assertEquals(edit.status, 200);
  const users = await call(server, "GET", `/templates/${id}/roles/users`);
  assertEquals(
    users.body.items.map((
      i: { user: { id: number }; role: { name: string } },
    ) => [i.user.id, i.role.name]),
    [[1, "admin"], [alice.id, "editor"]],
  );
  const creator = await call(server, "DELETE", `/templates/${id}/roles/users/1`);
  assertEquals([creator.status, creator.body.description], [
    409,
    "Cannot remove the creator's role.",
  ]);
  const group = await call(server, "POST", "/groups", { body: { identifier: "g", title: "G" } });
  const groupRole = await call(server, "POST", `/templates/${id}/roles/groups`, {
    body: { group: { id: group.body.id }, role: { name: "member" } },
  });
  assertEquals(groupRole.status, 201);
  const groups = await call(server, "GET", `/templates/${id}/roles/groups`);
  assertEquals(groups.body.items[0].group.id, group.body.id);
  assertEquals(
    (await call(server, "DELETE", `/templates/${id}/roles/users/${alice.id}`)).status,
    204,
  );
  assertEquals((await call(server, "GET", `/templates/${id}`, asAlice)).status, 403);
});

Deno.test("templates: delete, trash listing, restore, delete again and purge", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const t = await call(server, "POST", "/templates", {
    body: { identifier: "gone", title: "Gone", type: "record", data: {} },
  });
  const id = t.body.id;
  assertEquals((await call(server, "DELETE", `/templates/${id}`)).status, 204);
  assertEquals((await call(server, "GET", `/templates/${id}`)).status, 404);
  assertEquals((await call(server, "GET", "/templates")).body.items, []);
  const trash = await call(server, "GET", "/trash?filter=gon");
  assertEquals(trash.body.items.length, 1);
  assertEquals(trash.body.items[0].type, "template");
  assertEquals(
    trash.body.items[0]._actions.restore,
    `${server.url}/api/v1/templates/${id}/restore`,
  );
  const foreign = await call(server, "POST", `/templates/${id}/restore`, { token: "pat_alice" });
  assertEquals(foreign.status, 404);
  const restored = await call(server, "POST", `/templates/${id}/restore`);
  assertEquals([restored.status, restored.body.state], [200, "active"]);
  assertEquals((await call(server, "POST", `/templates/${id}/purge`)).status, 404);
  await call(server, "DELETE", `/templates/${id}`);
  const purged = await call(server, "POST", `/templates/${id}/purge`);
  assertEquals(purged.status, 204);
  assertEquals((await call(server, "GET", `/templates/${id}`)).status, 404);
  assertEquals((await call(server, "GET", "/trash")).body.items, []);
  const noScope = server.createToken({ scopes: ["template.read"] });
  assertEquals((await call(server, "GET", "/trash", { token: noScope })).status, 401);
});
