// Tests of the search filters the resource searches share (query, visibility,
// explicit_permissions, user), for collections and templates, with a second user.
import { assertEquals } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call } from "./_helpers.ts";

const EXTRA: Record<string, Record<string, unknown>> = {
  collections: {},
  templates: { type: "extras", data: [] },
};

async function create(
  server: TestServer,
  base: string,
  body: Record<string, unknown>,
  token?: string,
) {
  const answer = await call(server, "POST", `/${base}`, {
    body: { title: body.identifier, ...EXTRA[base], ...body },
    ...(token !== undefined ? { token } : {}),
  });
  assertEquals(answer.status, 201);
  return answer.body;
}

for (const base of ["collections", "templates"]) {
  Deno.test(`GET /${base} filters by query, visibility, user and explicit_permissions`, async () => {
    await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
    const alice = server.users[1]!;
    await create(server, base, { identifier: "mine-one" });
    await create(server, base, { identifier: "alice-public", visibility: "public" }, alice.pat);
    const granted = await create(server, base, { identifier: "alice-granted" }, alice.pat);
    await create(server, base, { identifier: "alice-hidden" }, alice.pat);
    const group = await call(server, "POST", "/groups", {
      token: alice.pat,
      body: { identifier: "team", title: "Team" },
    });
    await call(server, "POST", `/groups/${group.body.id}/members`, {
      token: alice.pat,
      body: { user: { id: 1 }, role: { name: "member" } },
    });
    const role = await call(server, "POST", `/${base}/${granted.id}/roles/groups`, {
      token: alice.pat,
      body: { group: { id: group.body.id }, role: { name: "member" } },
    });
    assertEquals(role.status, 201);
    const names = async (query: string) =>
      (await call(server, "GET", `/${base}${query}`)).body.items.map((r: { identifier: string }) =>
        r.identifier
      ).sort();
    assertEquals(await names(""), ["alice-granted", "alice-public", "mine-one"]);
    assertEquals(await names("?visibility=public"), ["alice-public"]);
    assertEquals(await names(`?user=${alice.id}`), ["alice-granted", "alice-public"]);
    assertEquals(await names("?explicit_permissions=true"), ["alice-granted", "mine-one"]);
    assertEquals(await names("?query=%22mine-one%22"), ["mine-one"]);
    assertEquals(await names("?query=alice"), ["alice-granted", "alice-public"]);
    const page = await call(server, "GET", `/${base}?user=${alice.id}&per_page=1`);
    assertEquals(page.body._pagination._links.next.includes(`user=${alice.id}`), true);
    const changed = await call(
      server,
      "PATCH",
      `/${base}/${granted.id}/roles/groups/${group.body.id}`,
      {
        token: alice.pat,
        body: { name: "editor" },
      },
    );
    assertEquals(changed.status, 204);
    const edit = await call(server, "PATCH", `/${base}/${granted.id}`, {
      body: { title: "Edited" },
    });
    assertEquals(edit.status, 200);
    const removed = await call(
      server,
      "DELETE",
      `/${base}/${granted.id}/roles/groups/${group.body.id}`,
      {
        token: alice.pat,
      },
    );
    assertEquals(removed.status, 204);
    assertEquals((await call(server, "GET", `/${base}/${granted.id}`)).status, 403);
    assertEquals(await names(""), ["alice-public", "mine-one"]);
  });
}

Deno.test("template exports and revisions need read permission on the template", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const t = await create(server, "templates", { identifier: "private-tpl" });
  for (const path of [`/templates/${t.id}/export/json`, `/templates/${t.id}/revisions`]) {
    assertEquals((await call(server, "GET", path, { token: "pat_alice" })).status, 403, path);
  }
  const group = await call(server, "POST", "/groups", { body: { identifier: "g", title: "G" } });
  const revisions = await call(server, "GET", `/groups/${group.body.id}/revisions`);
  const one = await call(server, "GET", revisions.body.items[0]._links.self);
  assertEquals([one.status, one.body.data.identifier], [200, "g"]);
  assertEquals(
    (await call(server, "GET", `/groups/${group.body.id}/revisions`, { token: "pat_alice" }))
      .status,
    403,
  );
});

Deno.test("collection and record lists filter by title and by further actions (action=)", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const alice = server.users[1]!;
  const parent = await create(server, "collections", { identifier: "parent" }, alice.pat);
  const record = await call(server, "POST", "/records", {
    token: alice.pat,
    body: { identifier: "rec", title: "Rec" },
  });
  const child = await create(server, "collections", { identifier: "child-a" }, alice.pat);
  await call(server, "POST", `/collections/${parent.id}/collections`, {
    token: alice.pat,
    body: { id: child.id },
  });
  for (const c of [parent, child]) {
    await call(server, "POST", `/collections/${c.id}/records`, {
      token: alice.pat,
      body: { id: record.body.id },
    });
    await call(server, "POST", `/collections/${c.id}/roles/users`, {
      token: alice.pat,
      body: { user: { id: 1 }, role: { name: c === parent ? "member" : "collaborator" } },
    });
  }
  await call(server, "POST", `/records/${record.body.id}/roles/users`, {
    token: alice.pat,
    body: { user: { id: 1 }, role: { name: "member" } },
  });
  const ids = async (path: string) =>
    (await call(server, "GET", path)).body.items.map((i: { identifier: string }) => i.identifier)
      .sort();
  const rid = record.body.id;
  assertEquals(await ids(`/records/${rid}/collections`), ["child-a", "parent"]);
  assertEquals(await ids(`/records/${rid}/collections?filter=child`), ["child-a"]);
  assertEquals(await ids(`/records/${rid}/collections?action=link`), ["child-a"]);
  assertEquals(await ids(`/collections/${parent.id}/collections?action=link`), ["child-a"]);
  assertEquals(await ids(`/collections/${parent.id}/collections?action=update`), []);
  assertEquals(await ids(`/collections/${parent.id}/records`), ["rec"]);
  assertEquals(await ids(`/collections/${parent.id}/records?action=link`), []);
  const page = await call(server, "GET", `/records/${rid}/collections?action=link&per_page=1`);
  assertEquals(page.body._pagination._links.self.includes("action=link"), true);
});
