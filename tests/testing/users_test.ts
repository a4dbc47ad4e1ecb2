// Tests of the local server's user routes and of starting it with several users (startServer's
// `users`, `deno task serve --user`, `--help`).
import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { parseServeArgs, parseUserSpec, serve } from "../../lib/testing/serve.ts";
import { call, createRecord } from "./_helpers.ts";

const USERS = [
  { username: "alice", displayname: "Alice Liddell", pat: "pat_alice" },
  { username: "bob", displayname: "Bob", identityType: "ldap" as const },
];

Deno.test("startServer({ users }) adds accounts with identity types and full-scope tokens", async () => {
  await using server = await startServer({ pat: "pat_main", users: USERS });
  assertEquals(server.users.map((u) => [u.id, u.username, u.identityType]), [
    [1, "testuser", "local"],
    [2, "alice", "local"],
    [3, "bob", "ldap"],
  ]);
  assertEquals(server.users[0]!.pat, "pat_main");
  assertEquals(server.users[1]!.pat, "pat_alice");
  const bob = server.users[2]!;
  assertEquals(bob.pat.startsWith("pat_"), true);
  const me = await call(server, "GET", "/users/me", { token: bob.pat });
  assertEquals([me.body.id, me.body.identity.type, me.body.displayname], [3, "ldap", "Bob"]);
  assertEquals((await call(server, "GET", "/users/ldap/bob")).body.id, 3);
  assertEquals((await call(server, "GET", "/users/local/bob")).status, 404);
  assertEquals((await call(server, "GET", "/users/github/bob")).status, 404);
  const identities = await call(server, "GET", "/users/3/identities");
  // Another user's identity shows no email address; one's own does (as on the real server).
  assertEquals(identities.body, [{ type: "ldap", username: "bob" }]);
  const own = await call(server, "GET", "/users/3/identities", { token: bob.pat });
  assertEquals(own.body, [{
    type: "ldap",
    username: "bob",
    email: "bob@example.org",
    email_confirmed: true,
  }]);
  await assertThrowsAsync(() => startServer({ users: [{ username: "testuser" }] }));
  await assertThrowsAsync(() =>
    startServer({ pat: "pat_x", users: [{ username: "a", pat: "pat_x" }] })
  );
});

async function assertThrowsAsync(fn: () => Promise<unknown>) {
  let thrown: unknown;
  try {
    await fn();
  } catch (error) {
    thrown = error;
  }
  assertEquals(thrown instanceof TypeError, true);
}

Deno.test("GET /users searches by username or display name, newest first", async () => {
  await using server = await startServer({ users: USERS });
  const all = await call(server, "GET", "/users");
  assertEquals(all.body.items.map((u: { id: number }) => u.id), [3, 2, 1]);
  const byName = await call(server, "GET", "/users?filter=LIDDELL");
  assertEquals(
    byName.body.items.map((u: { identity: { username: string } }) => u.identity.username),
    [
      "alice",
    ],
  );
  const byUsername = await call(server, "GET", "/users?filter=bo&per_page=1");
  assertEquals(byUsername.body._pagination.total_items, 1);
  assertStringIncludes(byUsername.body._pagination._links.self, "filter=bo");
  const noScope = server.createToken({ scopes: ["record.read"] });
  assertEquals((await call(server, "GET", "/users", { token: noScope })).status, 401);
  assertEquals((await call(server, "GET", "/users/99")).status, 404);
});

Deno.test("inactive users are listed only with inactive=true and their tokens answer 401", async () => {
  await using server = await startServer({
    users: [{ username: "gone", pat: "pat_gone", inactive: true }],
  });
  const active = await call(server, "GET", "/users");
  assertEquals(active.body.items.map((u: { id: number }) => u.id), [1]);
  const all = await call(server, "GET", "/users?inactive=true");
  assertEquals(all.body.items.map((u: { state: string }) => u.state), ["inactive", "active"]);
  assertEquals((await call(server, "GET", "/users/2")).body.state, "inactive");
  const refused = await call(server, "GET", "/info", { token: "pat_gone" });
  assertEquals([refused.status, refused.body.description], [
    401,
    "This account is currently inactive.",
  ]);
});

Deno.test("GET /users/<id>/records|collections|templates: created ones, or shared with them", async () => {
  await using server = await startServer({ users: USERS });
  const alice = server.users[1]!;
  const asAlice = { token: alice.pat };
  await createRecord(server, "alice-private", {}, alice.pat);
  await createRecord(server, "alice-public", { visibility: "public" }, alice.pat);
  const mine = await createRecord(server, "mine");
  await call(server, "POST", "/collections", {
    ...asAlice,
    body: { identifier: "alice-col", title: "C", visibility: "public" },
  });
  await call(server, "POST", "/templates", {
    ...asAlice,
    body: { identifier: "alice-tpl", title: "T", type: "extras", data: [], visibility: "public" },
  });
  const identifiers = async (path: string, token?: string) =>
    (await call(server, "GET", path, token === undefined ? {} : { token })).body.items.map((
      r: { identifier: string },
    ) => r.identifier);
  assertEquals(await identifiers(`/users/${alice.id}/records`), ["alice-public"]);
  assertEquals((await identifiers(`/users/${alice.id}/records`, alice.pat)).sort(), [
    "alice-private",
    "alice-public",
  ]);
  assertEquals(await identifiers(`/users/${alice.id}/records?filter=nothing`), []);
  assertEquals(await identifiers(`/users/${alice.id}/collections`), ["alice-col"]);
  assertEquals(await identifiers(`/users/${alice.id}/templates`), ["alice-tpl"]);
  assertEquals(await identifiers(`/users/${alice.id}/records?shared=true`), []);
  await call(server, "POST", `/records/${mine.id}/roles/users`, {
    body: { user: { id: alice.id }, role: { name: "member" } },
  });
  assertEquals(await identifiers(`/users/${alice.id}/records?shared=true`), ["mine"]);
  const noScope = server.createToken({ scopes: ["user.read"] });
  const scope = await call(server, "GET", `/users/${alice.id}/templates`, { token: noScope });
  assertEquals([scope.status, scope.body.scopes], [401, ["user.read", "template.read"]]);
  assertEquals((await call(server, "GET", "/users/99/collections")).status, 404);
});

Deno.test("GET /users/<id>/groups: created groups, or with common=true the shared memberships", async () => {
  await using server = await startServer({ users: USERS });
  const alice = server.users[1]!;
  const made = await call(server, "POST", "/groups", {
    token: alice.pat,
    body: { identifier: "alice-group", title: "A", visibility: "public" },
  });
  await call(server, "POST", "/groups", {
    token: alice.pat,
    body: { identifier: "alice-secret", title: "S" },
  });
  const mine = await call(server, "POST", "/groups", { body: { identifier: "mine", title: "M" } });
  const names = async (query = "") =>
    (await call(server, "GET", `/users/${alice.id}/groups${query}`)).body.items.map((
      g: { identifier: string },
    ) => g.identifier);
  assertEquals(await names(), ["alice-group"]);
  assertEquals(await names("?common=true"), []);
  await call(server, "POST", `/groups/${mine.body.id}/members`, {
    body: { user: { id: alice.id }, role: { name: "member" } },
  });
  await call(server, "POST", `/groups/${made.body.id}/members`, {
    token: alice.pat,
    body: { user: { id: 1 }, role: { name: "member" } },
  });
  assertEquals((await names("?common=true")).sort(), ["alice-group", "mine"]);
});

Deno.test("deno task serve: --user specs, --help and usage errors", async () => {
  assertEquals(parseUserSpec("alice:pat_a"), { username: "alice", pat: "pat_a" });
  assertEquals(parseUserSpec("bob:pat_b:oidc:Bob: The Builder"), {
    username: "bob",
    pat: "pat_b",
    identityType: "oidc",
    displayname: "Bob: The Builder",
  });
  assertThrows(() => parseUserSpec("alice"), TypeError);
  assertThrows(() => parseUserSpec("alice:pat_a:github"), TypeError);
  assertThrows(() => parseServeArgs(["--nope", "1"]), TypeError);
  assertThrows(() => parseServeArgs(["--port"]), TypeError);
  const parsed = parseServeArgs(["--user", "a:pat_a", "--user=b:pat_b", "-h"]);
  assertEquals([parsed.help, parsed.users.length], [true, 2]);
  const server = await serve(["--port", "0", "--user", "alice:pat_alice:ldap"]);
  try {
    const me = await call(server, "GET", "/users/me", { token: "pat_alice" });
    assertEquals([me.body.identity.username, me.body.identity.type], ["alice", "ldap"]);
  } finally {
    await server.close();
  }
  const script = fileURLToPath(new URL("../../lib/testing/serve.ts", import.meta.url));
  const run = (args: string[]) =>
    new Deno.Command("deno", {
      args: ["run", "--allow-net=127.0.0.1", "--allow-read=.", script, ...args],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const help = await run(["--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(new TextDecoder().decode(help.stdout), "--user <spec>");
  const bad = await run(["--user", "nopat"]);
  assertEquals(bad.code, 2);
  const stderr = new TextDecoder().decode(bad.stderr);
  assertStringIncludes(stderr, 'Cannot read --user "nopat"');
  assertEquals(stderr.includes("    at "), false);
});
