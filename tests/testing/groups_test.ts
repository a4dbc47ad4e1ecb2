// Tests of the local server's group routes: members with roles (a second and third user),
// list filters, resources shared with a group, revisions, restore and purge.
import { assertEquals } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

const USERS = [
  { username: "alice", displayname: "Alice A", pat: "pat_alice" },
  { username: "bob", displayname: "Bob B", pat: "pat_bob" },
];

async function createGroup(server: TestServer, identifier: string, extra = {}, token?: string) {
  const answer = await call(server, "POST", "/groups", {
    body: { identifier, title: identifier, ...extra },
    ...(token !== undefined ? { token } : {}),
  });
  assertEquals(answer.status, 201);
  return answer.body;
}

Deno.test("group members: add, change and remove roles; the creator's role is protected", async () => {
  await using server = await startServer({ users: USERS });
  const [, alice, bob] = server.users;
  const group = await createGroup(server, "team");
  const members = `/groups/${group.id}/members`;
  const asAlice = { token: alice!.pat };
  assertEquals((await call(server, "GET", `/groups/${group.id}`, asAlice)).status, 403);
  const add = await call(server, "POST", members, {
    body: { user: { id: alice!.id }, role: { name: "member" } },
  });
  assertEquals(add.status, 201);
  const again = await call(server, "POST", members, {
    body: { user: { id: alice!.id }, role: { name: "editor" } },
  });
  assertEquals([again.status, again.body.description], [
    409,
    "A role for that resource already exists.",
  ]);
  const badRole = await call(server, "POST", members, {
    body: { user: { id: bob!.id }, role: { name: "collaborator" } },
  });
  assertEquals([badRole.status, badRole.body.description], [
    400,
    "A role with that name does not exist.",
  ]);
  assertEquals((await call(server, "GET", `/groups/${group.id}`, asAlice)).status, 200);
  const edit = { body: { title: "Renamed" }, ...asAlice };
  assertEquals((await call(server, "PATCH", `/groups/${group.id}`, edit)).status, 403);
  const change = await call(server, "PATCH", `${members}/${alice!.id}`, {
    body: { name: "editor" },
  });
  assertEquals(change.status, 204);
  assertEquals((await call(server, "PATCH", `/groups/${group.id}`, edit)).status, 200);
  const byAlice = await call(server, "POST", members, {
    ...asAlice,
    body: { user: { id: bob!.id }, role: { name: "member" } },
  });
  assertEquals(byAlice.status, 403);
  await call(server, "POST", members, { body: { user: { id: bob!.id }, role: { name: "admin" } } });
  const list = await call(server, "GET", members);
  assertEquals(
    list.body.items.map((m: { user: { id: number }; role: { name: string } }) => [
      m.user.id,
      m.role.name,
    ]),
    [[1, "admin"], [bob!.id, "admin"], [alice!.id, "editor"]],
  );
  assertEquals(list.body.items[1]._actions.change, `${server.url}/api/v1${members}/${bob!.id}`);
  const filtered = await call(server, "GET", `${members}?filter=alice&exclude=1`);
  assertEquals(filtered.body.items.length, 1);
  const creator = await call(server, "PATCH", `${members}/1`, { body: { name: "member" } });
  assertEquals([creator.status, creator.body.description], [
    409,
    "Cannot change the creator's role.",
  ]);
  assertEquals((await call(server, "DELETE", `${members}/1`)).status, 409);
  const badChange = await call(server, "PATCH", `${members}/${bob!.id}`, { body: { name: "x" } });
  assertEquals(badChange.status, 400);
  assertEquals((await call(server, "DELETE", `${members}/${alice!.id}`)).status, 204);
  const gone = await call(server, "DELETE", `${members}/${alice!.id}`);
  assertEquals([gone.status, gone.body.description], [404, "Role does not exist."]);
  const missing = await call(server, "PATCH", `${members}/${alice!.id}`, {
    body: { name: "member" },
  });
  assertEquals(missing.status, 404);
  const noScope = server.createToken({ scopes: ["group.read", "user.read"] });
  const scope = await call(server, "PATCH", `${members}/${bob!.id}`, {
    token: noScope,
    body: { name: "member" },
  });
  assertEquals([scope.status, scope.body.scopes], [401, ["group.members"]]);
});

Deno.test("GET /groups filters by query, visibility, member_only and user", async () => {
  await using server = await startServer({ users: USERS });
  const [, alice] = server.users;
  await createGroup(server, "mine");
  await createGroup(server, "open", { visibility: "public" }, alice!.pat);
  const hidden = await createGroup(server, "hidden", {}, alice!.pat);
  const ids = async (query: string) =>
    (await call(server, "GET", `/groups${query}`)).body.items.map((g: { identifier: string }) =>
      g.identifier
    ).sort();
  assertEquals(await ids(""), ["mine", "open"]);
  assertEquals(await ids("?visibility=public"), ["open"]);
  assertEquals(await ids("?member_only=true"), ["mine"]);
  assertEquals(await ids(`?user=${alice!.id}`), ["open"]);
  assertEquals(await ids("?query=min"), ["mine"]);
  await call(server, "POST", `/groups/${hidden.id}/members`, {
    token: alice!.pat,
    body: { user: { id: 1 }, role: { name: "member" } },
  });
  assertEquals(await ids("?member_only=true"), ["hidden", "mine"]);
  const page = await call(server, "GET", "/groups?member_only=true&per_page=1");
  assertEquals(page.body._pagination._links.next.includes("member_only=true"), true);
  assertEquals(page.body._actions.new_group, `${server.url}/api/v1/groups`);
});

Deno.test("GET /groups/<id>/records|collections|templates lists what is shared with the group", async () => {
  await using server = await startServer({ users: USERS });
  const [, alice] = server.users;
  const group = await createGroup(server, "share");
  await call(server, "POST", `/groups/${group.id}/members`, {
    body: { user: { id: alice!.id }, role: { name: "member" } },
  });
  const record = await createRecord(server, "shared-rec");
  await createRecord(server, "private-rec");
  const collection = await call(server, "POST", "/collections", {
    body: { identifier: "shared-col", title: "C" },
  });
  const template = await call(server, "POST", "/templates", {
    body: { identifier: "shared-tpl", title: "T", type: "extras", data: [] },
  });
  for (
    const [base, id] of [
      ["records", record.id],
      ["collections", collection.body.id],
      ["templates", template.body.id],
    ]
  ) {
    const role = await call(server, "POST", `/${base}/${id}/roles/groups`, {
      body: { group: { id: group.id }, role: { name: "member" } },
    });
    assertEquals(role.status, 201);
    const shared = await call(server, "GET", `/groups/${group.id}/${base}`, { token: alice!.pat });
    assertEquals(shared.status, 200);
    assertEquals(shared.body.items.map((i: { id: number }) => i.id), [id]);
    assertEquals((await call(server, "GET", `/${base}/${id}`, { token: alice!.pat })).status, 200);
  }
  const filtered = await call(server, "GET", `/groups/${group.id}/records?filter=nothing`);
  assertEquals(filtered.body.items, []);
  const noScope = server.createToken({ scopes: ["group.read"] });
  const scope = await call(server, "GET", `/groups/${group.id}/templates`, { token: noScope });
  assertEquals([scope.status, scope.body.scopes], [401, ["group.read", "template.read"]]);
  assertEquals(
    (await call(server, "GET", `/groups/${group.id}/records`, { token: "pat_bob" })).status,
    403,
  );
});

Deno.test("groups: revisions, delete, trash, restore and purge (roles on resources dropped)", async () => {
  await using server = await startServer({ users: USERS });
  const group = await createGroup(server, "temp");
  await call(server, "PATCH", `/groups/${group.id}`, { body: { title: "Temp 2" } });
  const revisions = await call(server, "GET", `/groups/${group.id}/revisions`);
  assertEquals(revisions.body._pagination.total_items, 2);
  assertEquals(revisions.body.items[0].diff, { title: "temp" });
  const record = await createRecord(server, "rec");
  await call(server, "POST", `/records/${record.id}/roles/groups`, {
    body: { group: { id: group.id }, role: { name: "member" } },
  });
  assertEquals((await call(server, "POST", `/groups/${group.id}/restore`)).status, 404);
  assertEquals((await call(server, "DELETE", `/groups/${group.id}`)).status, 204);
  assertEquals((await call(server, "GET", `/groups/${group.id}`)).status, 404);
  const trash = await call(server, "GET", "/trash");
  assertEquals(trash.body.items.map((i: { type: string }) => i.type), ["group"]);
  const foreign = await call(server, "POST", `/groups/${group.id}/purge`, { token: "pat_alice" });
  assertEquals(foreign.status, 404);
  const restored = await call(server, "POST", `/groups/${group.id}/restore`);
  assertEquals([restored.status, restored.body.state, restored.body.title], [
    200,
    "active",
    "Temp 2",
  ]);
  await call(server, "DELETE", `/groups/${group.id}`);
  const purged = await call(server, "POST", `/groups/${group.id}/purge`);
  assertEquals(purged.status, 204);
  assertEquals((await call(server, "GET", `/groups/${group.id}`)).status, 404);
  const roles = await call(server, "GET", `/records/${record.id}/roles/groups`);
  assertEquals(roles.body.items, []);
});
