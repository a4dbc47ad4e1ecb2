// Tests of the local server's trash for every resource type, collection revisions and the misc
// lists (licenses, roles, tags).
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

const BODIES: Record<string, Record<string, unknown>> = {
  records: {},
  collections: {},
  templates: { type: "extras", data: [] },
  groups: {},
};

Deno.test("trash: every type is listed (filtered, newest first), restored and purged", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const ids: Record<string, number> = {};
  for (const [base, extra] of Object.entries(BODIES)) {
    const created = await call(server, "POST", `/${base}`, {
      body: { identifier: `del-${base}`, title: base, ...extra },
    });
    assertEquals(created.status, 201, base);
    ids[base] = created.body.id;
    assertEquals((await call(server, "DELETE", `/${base}/${created.body.id}`)).status, 204);
  }
  await createRecord(server, "alice-rec", {}, "pat_alice");
  const trash = await call(server, "GET", "/trash");
  const times = trash.body.items.map((i: { deleted_at: string }) => i.deleted_at);
  assertEquals(times, [...times].sort().reverse(), "newest deletion first");
  assertEquals(
    trash.body.items.map((i: { type: string; identifier: string }) => [i.type, i.identifier])
      .sort(),
    [
      ["collection", "del-collections"],
      ["group", "del-groups"],
      ["record", "del-records"],
      ["template", "del-templates"],
    ],
  );
  assertEquals(Object.keys(trash.body.items[0]).sort(), [
    "_actions",
    "deleted_at",
    "id",
    "identifier",
    "type",
  ]);
  const filtered = await call(server, "GET", "/trash?filter=del-temp");
  assertEquals(filtered.body.items.length, 1);
  assertEquals((await call(server, "GET", "/trash", { token: "pat_alice" })).body.items, []);
  for (const [base, id] of Object.entries(ids)) {
    const item = trash.body.items.find((i: { id: number; type: string }) =>
      `${i.type}s` === base && i.id === id
    );
    const restored = await call(server, "POST", item._actions.restore);
    assertEquals([restored.status, restored.body.id, restored.body.state], [200, id, "active"]);
    assertEquals((await call(server, "GET", `/${base}/${id}`)).status, 200);
    assertEquals((await call(server, "POST", item._actions.purge)).status, 404, "not deleted");
    await call(server, "DELETE", `/${base}/${id}`);
    const purged = await call(server, "POST", item._actions.purge);
    assertEquals(purged.status, base === "records" ? 202 : 204, base);
    assertEquals((await call(server, "GET", `/${base}/${id}`)).status, 404);
  }
  assertEquals((await call(server, "GET", "/trash")).body.items, []);
});

Deno.test("collection revisions record create, edit, delete and restore with diffs", async () => {
  await using server = await startServer();
  const c = await call(server, "POST", "/collections", {
    body: { identifier: "col", title: "Col", tags: ["a"] },
  });
  const id = c.body.id;
  await call(server, "PATCH", `/collections/${id}`, { body: { tags: ["a", "b"] } });
  await call(server, "PATCH", `/collections/${id}`, { body: { tags: ["b", "a"] } });
  await call(server, "DELETE", `/collections/${id}`);
  await call(server, "POST", `/collections/${id}/restore`);
  const list = await call(server, "GET", `/collections/${id}/revisions`);
  assertEquals(list.body._pagination.total_items, 4);
  const [restore, remove, edit, create] = list.body.items;
  assertEquals(restore.diff, { state: "deleted" });
  assertEquals(remove.diff, { state: "active" });
  assertEquals(edit.diff, { tags: ["a"] });
  assertEquals(create.data.identifier, "col");
  assertEquals(create._links.child, `${server.url}/api/v1/collections/${id}/revisions/${edit.id}`);
  assertEquals(create.user.id, 1);
  const compared = await call(
    server,
    "GET",
    `/collections/${id}/revisions/${restore.id}?revision=${create.id}`,
  );
  assertEquals(compared.body.diff, { tags: ["a"] });
  assertEquals((await call(server, "GET", `/collections/${id}/revisions/999`)).status, 404);
  const noUser = server.createToken({ scopes: ["collection.read"] });
  const hidden = await call(server, "GET", `/collections/${id}/revisions`, { token: noUser });
  assertEquals("user" in hidden.body.items[0], false);
});

Deno.test("licenses, roles and tags: search, per-type tags, only readable resources", async () => {
  await using server = await startServer({ users: [{ username: "alice", pat: "pat_alice" }] });
  const licenses = await call(server, "GET", "/licenses?filter=mit");
  assertEquals(licenses.body.items, [{
    name: "MIT",
    title: "MIT License",
    url: "https://opensource.org/licenses/MIT",
  }]);
  const byTitle = await call(server, "GET", "/licenses?per_page=100");
  const titles = byTitle.body.items.map((l: { title: string }) => l.title);
  assertEquals(titles, [...titles].sort((a: string, b: string) => a.localeCompare(b)));
  const roles = await call(server, "GET", "/roles");
  assertEquals(roles.body.template.map((r: { name: string }) => r.name), [
    "member",
    "editor",
    "admin",
  ]);
  assertEquals(roles.body.group[2].permissions.map((p: { action: string }) => p.action), [
    "read",
    "update",
    "members",
    "delete",
  ]);
  await createRecord(server, "r", { tags: ["rec-tag", "shared"] });
  await call(server, "POST", "/collections", {
    body: { identifier: "c", title: "C", tags: ["col-tag", "shared"] },
  });
  await createRecord(server, "hidden", { tags: ["secret"] }, "pat_alice");
  const names = async (query: string) =>
    (await call(server, "GET", `/tags${query}`)).body.items.map((t: { name: string }) => t.name);
  assertEquals(await names(""), ["col-tag", "rec-tag", "shared"]);
  assertEquals(await names("?type=record"), ["rec-tag", "shared"]);
  assertEquals(await names("?type=collection"), ["col-tag", "shared"]);
  assertEquals(await names("?filter=tag&per_page=1"), ["col-tag"]);
  const page = await call(server, "GET", "/tags?type=record&per_page=1");
  assertEquals(page.body._pagination._links.next.includes("type=record"), true);
});
