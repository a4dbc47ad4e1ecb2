// Tests of the local repository server core: prefixes, auth, scopes, check order, errors,
// pagination, users and misc endpoints.
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

Deno.test("startServer() serves both prefixes with absolute links per prefix", async () => {
  await using server = await startServer({ pat: "pat_fixed" });
  assertEquals(server.pat, "pat_fixed");
  assertEquals((await call(server, "GET", "/info")).body, { version: "1.13.0" });
  const index = await call(server, "GET", `${server.url}/api`);
  assertEquals(index.body.records, `${server.url}/api/records`);
  const record = await createRecord(server, "rec");
  assertEquals(record._links.self, `${server.url}/api/v1/records/${record.id}`);
  const viaApi = await call(server, "GET", `${server.url}/api/records/${record.id}`);
  assertEquals(viaApi.body._links.self, `${server.url}/api/records/${record.id}`);
});

Deno.test("startServer() answers 401 without, with invalid and with expired tokens", async () => {
  await using server = await startServer();
  const none = await call(server, "GET", "/nothing-here", { token: null });
  assertEquals(none.status, 401);
  assertEquals(none.body.description, "No valid access token was supplied.");
  assertEquals((await call(server, "GET", "/info", { token: "pat_wrong" })).status, 401);
  const expired = server.createToken({ scopes: ["record.read"], expired: true });
  const answer = await call(server, "GET", "/info", { token: expired });
  assertEquals(answer.body, {
    code: 401,
    message: "Unauthorized",
    description: "Access token has expired.",
  });
  const unknown = await call(server, "GET", "/nothing-here");
  assertEquals(unknown.status, 404);
  assertEquals(unknown.body.description, "The requested URL could not be found.");
});

Deno.test("startServer() checks scopes and the check order 404 → 403 → 401 → handler", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "private-rec");
  const bob = server.createUser({ username: "bob" });
  const noScope = server.createToken({ userId: bob.id, scopes: [] });
  const reader = server.createToken({ userId: bob.id, scopes: ["record.read"] });
  const ownNoScope = server.createToken({ scopes: ["user.read"] });
  assertEquals((await call(server, "GET", "/records/999", { token: noScope })).status, 404);
  assertEquals(
    (await call(server, "GET", `/records/${record.id}`, { token: noScope })).status,
    403,
  );
  assertEquals((await call(server, "GET", `/records/${record.id}`, { token: reader })).status, 403);
  const scope = await call(server, "GET", `/records/${record.id}`, { token: ownNoScope });
  assertEquals(scope.status, 401);
  assertEquals(scope.body.description, "Access token has insufficient scope.");
  assertEquals(scope.body.scopes, ["record.read"]);
  const search = await call(server, "GET", "/records", { token: ownNoScope });
  assertEquals(search.status, 401);
});

Deno.test("createToken() without scopes gives the new token every scope", async () => {
  await using server = await startServer();
  const bob = server.createUser({ username: "bob" });
  const token = server.createToken({ userId: bob.id });
  const created = await call(server, "POST", "/records", {
    token,
    body: { identifier: "bobs", title: "Bob's" },
  });
  assertEquals(created.status, 201);
  const deleted = await call(server, "DELETE", `/records/${created.body.id}`, { token });
  assertEquals(deleted.status, 204);
  const purged = await call(server, "POST", `/records/${created.body.id}/purge`, { token });
  assertEquals(purged.status, 202);
});

Deno.test("startServer() forces JSON parsing and drops unknown fields", async () => {
  await using server = await startServer();
  const bad = await call(server, "POST", "/records", { raw: "{nope" });
  assertEquals(bad.status, 400);
  assertEquals(bad.body.description, "Failed to decode JSON object.");
  const record = await createRecord(server, "x", { id: 77, state: "deleted", bogus: 1 });
  assertEquals(record.state, "active");
  assert(record.id !== 77);
  assertEquals("bogus" in record, false);
});

Deno.test("startServer() paginates with clamping, links and total_pages 1 when empty", async () => {
  await using server = await startServer();
  const empty = await call(server, "GET", "/records?per_page=0&page=-3");
  assertEquals(empty.body._pagination.page, 1);
  assertEquals(empty.body._pagination.per_page, 1);
  assertEquals(empty.body._pagination.total_pages, 1);
  assertEquals(empty.body._pagination.total_items, 0);
  assertEquals(empty.body._actions.new_record, `${server.url}/api/v1/records`);
  for (let i = 0; i < 5; i++) await createRecord(server, `r${i}`, { tags: ["t"] });
  const page = await call(server, "GET", "/records?per_page=2&page=2&tag=t");
  const pagination = page.body._pagination;
  assertEquals([pagination.total_pages, pagination.total_items, page.body.items.length], [3, 5, 2]);
  assertEquals(pagination._links.prev.includes("page=1"), true);
  assertEquals(pagination._links.next.includes("page=3"), true);
  assertEquals(pagination._links.next.includes("per_page=2"), true);
  assertEquals(pagination._links.next.includes("tag=t"), true);
  const big = await call(server, "GET", "/records?per_page=500&page=999");
  assertEquals(big.body._pagination.per_page, 100);
  assertEquals(big.body._pagination.page, 100);
  assertEquals(big.body.items, []);
  const notInt = await call(server, "GET", "/licenses?per_page=abc");
  assertEquals(notInt.body._pagination.per_page, 10);
});

Deno.test("startServer() serves users, identities, roles, licenses and tags", async () => {
  await using server = await startServer();
  const me = await call(server, "GET", "/users/me");
  assertEquals(me.body.id, 1);
  assert(me.body.created_at);
  const other = server.createUser({ username: "alice", displayname: "Alice" });
  const alice = await call(server, "GET", `/users/${other.id}`);
  assertEquals(alice.body.displayname, "Alice");
  assertEquals("created_at" in alice.body, false);
  assertEquals((await call(server, "GET", "/users/local/alice")).body.id, other.id);
  assertEquals((await call(server, "GET", "/users/ldap/alice")).status, 404);
  const identities = await call(server, "GET", `/users/${other.id}/identities`);
  assertEquals(identities.body[0].username, "alice");
  assertEquals((await call(server, "GET", "/users")).body._pagination.total_items, 2);
  const roles = await call(server, "GET", "/roles");
  assertEquals(Object.keys(roles.body), ["collection", "group", "record", "template"]); // sorted
  assertEquals(roles.body.record[1].name, "collaborator");
  const licenses = await call(server, "GET", "/licenses?filter=cc");
  assert(licenses.body.items.some((l: { name: string }) => l.name === "CC-BY-4.0"));
  await createRecord(server, "tagged", { tags: ["Beta", "alpha", "beta "] });
  const tags = await call(server, "GET", "/tags");
  assertEquals(tags.body.items, [{ name: "alpha" }, { name: "beta" }]);
});

Deno.test("startServer() finds records, collections and groups by identifier (trimmed, any case)", async () => {
  await using server = await startServer();
  for (const base of ["records", "collections", "groups"]) {
    const created = await call(server, "POST", `/${base}`, {
      body: { identifier: `by-ident-${base}`, title: base },
    });
    assertEquals(created.status, 201);
    const found = await call(server, "GET", `/${base}/identifier/%20BY-IDENT-${base}%20`);
    assertEquals([found.status, found.body.id], [200, created.body.id]);
    assertEquals((await call(server, "GET", `/${base}/identifier/missing`)).status, 404);
  }
  const other = server.createUser({ username: "other" });
  const token = server.createToken({ userId: other.id });
  const hidden = await fetch(`${server.url}/api/v1/groups/identifier/by-ident-groups`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  await hidden.body?.cancel();
  assertEquals(hidden.status, 403);
});
