// Tests of the local server's record endpoints: validation, extras, search, links, roles,
// collections, revisions and trash.
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

Deno.test("POST /records normalizes fields and rejects invalid input with server messages", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "  My-Rec ", {
    title: "  A   title ",
    tags: ["B", "a", "b"],
    license: "CC-BY-4.0",
    type: " Sample ",
  });
  assertEquals(record.identifier, "my-rec");
  assertEquals(record.title, "A title");
  assertEquals(record.tags, ["a", "b"]);
  assertEquals(record.type, "sample");
  assertEquals(record.visibility, "private");
  const bad = await call(server, "POST", "/records", {
    body: { identifier: "my-rec", license: "nope", title: "" },
  });
  assertEquals(bad.status, 400);
  assertEquals(bad.body.errors, {
    identifier: ["Identifier is already in use."],
    title: ["String must not be empty."],
    license: ["No license with this name exists."],
  });
  const missing = await call(server, "POST", "/records", { body: {} });
  assertEquals(missing.body.errors.identifier, ["Missing data for required field."]);
  const pattern = await call(server, "POST", "/records", {
    body: { identifier: "a b", title: "t" },
  });
  assertEquals(Object.keys(pattern.body.errors), ["identifier"]);
});

Deno.test("POST /records validates extras per item with the server's messages", async () => {
  await using server = await startServer();
  const answer = await call(server, "POST", "/records", {
    body: {
      identifier: "x",
      title: "x",
      extras: [
        { key: "a", type: "int", value: 1.5 },
        { key: "a", type: "str", value: "s", unit: "m" },
        { key: "b", type: "int", value: 9007199254740993 },
        { key: "c", type: "nope" },
        { key: "d", type: "int", value: 3, validation: { range: { min: 5, max: null } } },
        { key: "e", type: "str", value: null, validation: { required: true } },
        { key: "f", type: "str", value: "z", validation: { options: ["x", "y"] } },
        { key: "g", type: "dict", value: [{ key: "h", type: "bool", value: "yes" }] },
      ],
    },
  });
  assertEquals(answer.status, 400);
  assertEquals(answer.body.errors.extras, {
    "0": { value: ["Not a valid integer."] },
    "1": { unit: ["Cannot be used together with str."], key: ["Duplicate value."] },
    "2": {
      value: ["Integer values must be between -9007199254740991 and 9007199254740991."],
    },
    "3": { type: ["Invalid value."] },
    "4": { value: ["Must be equal to or greater than 5."] },
    "5": { value: ["Value is required."] },
    "6": { value: ["Must be one of: x, y."] },
    "7": { value: { "0": { value: ["Not a valid boolean."] } } },
  });
});

Deno.test("POST /records stores normalized extras (dates in UTC, list keys dropped)", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "x", {
    extras: [
      { key: " when ", type: "date", value: "2024-05-01T12:20:30.5+02:00" },
      { key: "s", type: "str", value: "  " },
      { key: "l", type: "list", value: [{ key: "ignored", type: "float", value: 2, unit: "m" }] },
    ],
  });
  assertEquals(record.extras, [
    { type: "date", key: "when", value: "2024-05-01T10:20:30.500000+00:00" },
    { type: "str", key: "s", value: null },
    { type: "list", key: "l", value: [{ type: "float", value: 2, unit: "m" }] },
  ]);
});

Deno.test("PATCH /records/<id> replaces arrays and records revisions with diffs", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "x", { tags: ["a"] });
  const patched = await call(server, "PATCH", `/records/${record.id}`, {
    body: { tags: ["b"], visibility: "PUBLIC", state: "deleted" },
  });
  assertEquals(patched.status, 200);
  assertEquals(patched.body.tags, ["b"]);
  assertEquals(patched.body.visibility, "public");
  assertEquals(patched.body.state, "active");
  const revisions = await call(server, "GET", `/records/${record.id}/revisions`);
  assertEquals(revisions.body._pagination.total_items, 2);
  const newest = revisions.body.items[0];
  assertEquals(newest.diff, { visibility: "private", tags: ["a"] });
  const one = await call(server, "GET", newest._links.self);
  assertEquals(one.body.data.tags, ["b"]);
  assert(one.body._links.parent);
});

Deno.test("GET /records searches by query, visibility, tags, type, user and extras", async () => {
  await using server = await startServer();
  await createRecord(server, "alpha", {
    title: "Alpha sample",
    type: "sample",
    tags: ["x", "y"],
    extras: [{ key: "temp", type: "float", value: 20.5, unit: "C" }],
  });
  await createRecord(server, "beta", { visibility: "public", tags: ["x"] });
  const ids = async (query: string) =>
    (await call(server, "GET", `/records?${query}`)).body.items.map((r: { identifier: string }) =>
      r.identifier
    );
  assertEquals(await ids("query=alph"), ["alpha"]);
  assertEquals(await ids('query="beta"'), ["beta"]);
  assertEquals(await ids("visibility=public"), ["beta"]);
  assertEquals(await ids("tag=x&tag=y&tag_operator=and"), ["alpha"]);
  assertEquals(await ids("tag=x&sort=identifier"), ["alpha", "beta"]);
  assertEquals(await ids("type=sample"), ["alpha"]);
  assertEquals(await ids("user=2"), []);
  const extras = encodeURIComponent(
    JSON.stringify([{ key: "temp", type: "numeric", numeric: { min: 20, max: 21, unit: "C" } }]),
  );
  assertEquals(await ids(`extras=${extras}`), ["alpha"]);
  assertEquals(await ids("extras=not-json"), ["beta", "alpha"]);
});

Deno.test("record links: create, conflicts, list by direction, edit, delete", async () => {
  await using server = await startServer();
  const a = await createRecord(server, "a");
  const b = await createRecord(server, "b");
  const link = await call(server, "POST", `/records/${a.id}/records`, {
    body: { name: "derived", term: "https://example.org/t", record_to: { id: b.id } },
  });
  assertEquals(link.status, 201);
  assertEquals("record_from" in link.body, false);
  assertEquals(link.body.record_to.id, b.id);
  const duplicate = await call(server, "POST", `/records/${a.id}/records`, {
    body: { name: "derived", record_to: { id: b.id } },
  });
  assertEquals([duplicate.status, duplicate.body.description], [409, "Link already exists."]);
  const self = await call(server, "POST", `/records/${a.id}/records`, {
    body: { name: "x", record_to: { id: a.id } },
  });
  assertEquals(self.status, 409);
  const incoming = await call(server, "GET", `/records/${b.id}/records?direction=in`);
  assertEquals(incoming.body.items[0].record_from.id, a.id);
  const both = await call(server, "GET", `/records/records/${link.body.id}`);
  assert(both.body.record_from && both.body.record_to);
  const edited = await call(server, "PATCH", `/records/${a.id}/records/${link.body.id}`, {
    body: { name: "renamed" },
  });
  assertEquals(edited.body.name, "renamed");
  const removed = await call(server, "DELETE", `/records/${a.id}/records/${link.body.id}`);
  assertEquals(removed.status, 204);
  const gone = await call(server, "GET", `/records/${a.id}/records/${link.body.id}`);
  assertEquals([gone.status, gone.body.description], [404, "Link does not exist."]);
});

Deno.test("record roles: users and groups grant access; creator role is protected", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "shared");
  const bob = server.createUser({ username: "bob" });
  const bobToken = server.createToken({ userId: bob.id, scopes: ["record.read", "group.read"] });
  assertEquals(
    (await call(server, "GET", `/records/${record.id}`, { token: bobToken })).status,
    403,
  );
  const roles = `/records/${record.id}/roles/users`;
  const bad = await call(server, "POST", roles, {
    body: { user: { id: bob.id }, role: { name: "boss" } },
  });
  assertEquals(bad.status, 400);
  const add = await call(server, "POST", roles, {
    body: { user: { id: bob.id }, role: { name: "member" } },
  });
  assertEquals([add.status, add.body], [201, {}]);
  const again = await call(server, "POST", roles, {
    body: { user: { id: bob.id }, role: { name: "member" } },
  });
  assertEquals(again.status, 409);
  assertEquals(
    (await call(server, "GET", `/records/${record.id}`, { token: bobToken })).status,
    200,
  );
  const creator = await call(server, "DELETE", `${roles}/1`);
  assertEquals([creator.status, creator.body.description], [
    409,
    "Cannot remove the creator's role.",
  ]);
  assertEquals(
    (await call(server, "PATCH", `${roles}/${bob.id}`, { body: { name: "editor" } })).status,
    204,
  );
  const list = await call(server, "GET", roles);
  assertEquals(list.body.items.map((i: { role: { name: string } }) => i.role.name), [
    "admin",
    "editor",
  ]);
  assertEquals((await call(server, "DELETE", `${roles}/${bob.id}`)).status, 204);
  const missing = await call(server, "DELETE", `${roles}/${bob.id}`);
  assertEquals([missing.status, missing.body.description], [404, "Role does not exist."]);
  const group = await call(server, "POST", "/groups", { body: { identifier: "g", title: "G" } });
  await call(server, "POST", `/groups/${group.body.id}/members`, {
    body: { user: { id: bob.id }, role: { name: "member" } },
  });
  const groupRole = await call(server, "POST", `/records/${record.id}/roles/groups`, {
    body: { group: { id: group.body.id }, role: { name: "member" } },
  });
  assertEquals(groupRole.status, 201);
  assertEquals(
    (await call(server, "GET", `/records/${record.id}`, { token: bobToken })).status,
    200,
  );
});

Deno.test("collections: membership, child links, children search and tree rules", async () => {
  await using server = await startServer();
  const parent = await call(server, "POST", "/collections", {
    body: { identifier: "p", title: "P" },
  });
  const child = await call(server, "POST", "/collections", {
    body: { identifier: "c", title: "C" },
  });
  const record = await createRecord(server, "r");
  assertEquals(
    (await call(server, "POST", `/records/${record.id}/collections`, {
      body: { id: child.body.id },
    })).status,
    201,
  );
  const dup = await call(server, "POST", `/collections/${child.body.id}/records`, {
    body: { id: record.id },
  });
  assertEquals([dup.status, dup.body.description], [409, "Link already exists."]);
  const link = await call(server, "POST", `/collections/${parent.body.id}/collections`, {
    body: { id: child.body.id },
  });
  assertEquals(link.status, 201);
  const cycle = await call(server, "POST", `/collections/${child.body.id}/collections`, {
    body: { id: parent.body.id },
  });
  assertEquals([cycle.status, cycle.body.description], [409, "Unable to link collections."]);
  const direct = await call(server, "GET", `/collections/${parent.body.id}/records`);
  assertEquals(direct.body.items.length, 0);
  const nested = await call(server, "GET", `/collections/${parent.body.id}/records?children=true`);
  assertEquals(nested.body.items[0].id, record.id);
  const search = await call(
    server,
    "GET",
    `/records?collection=${parent.body.id}&child_collections=true`,
  );
  assertEquals(search.body.items.length, 1);
  assertEquals((await call(server, "GET", "/collections/identifier/C")).body.id, child.body.id);
  const ofRecord = await call(server, "GET", `/records/${record.id}/collections`);
  assertEquals(ofRecord.body.items[0].id, child.body.id);
  assertEquals(
    (await call(server, "DELETE", `/records/${record.id}/collections/${child.body.id}`)).status,
    204,
  );
  const again = await call(server, "DELETE", `/records/${record.id}/collections/${child.body.id}`);
  assertEquals([again.status, again.body.description], [404, "Link does not exist."]);
});

Deno.test("DELETE /records/<id> moves to the trash; restore and purge", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "gone");
  assertEquals((await call(server, "DELETE", `/records/${record.id}`)).status, 204);
  assertEquals((await call(server, "GET", `/records/${record.id}`)).status, 404);
  assertEquals((await call(server, "GET", "/records/identifier/gone")).status, 404);
  const trash = await call(server, "GET", "/trash");
  assertEquals(trash.body.items[0].identifier, "gone");
  const restored = await call(server, "POST", `/records/${record.id}/restore`);
  assertEquals([restored.status, restored.body.state], [200, "active"]);
  assertEquals((await call(server, "POST", `/records/${record.id}/restore`)).status, 404);
  await call(server, "DELETE", `/records/${record.id}`);
  assertEquals((await call(server, "POST", `/records/${record.id}/purge`)).status, 202);
  assertEquals((await call(server, "GET", "/trash")).body.items, []);
});
