// manager.search against the local server over real HTTP.
import { TooManyResultsError } from "../../lib/resources/errors.ts";
import { assertEquals, assertRejects } from "../_assert.ts";
import { secondManager, setup } from "./_setup.ts";

async function seed(env: Awaited<ReturnType<typeof setup>>) {
  const m = env.manager;
  const a = await m.record({
    identifier: "alpha",
    create: true,
    tags: ["x", "y"],
    type: "sample",
    extras: [{ key: "temperature", type: "float", value: 21.5, unit: "C" }],
  });
  const b = await m.record({ identifier: "beta", create: true, tags: ["x"] });
  const c = await m.record({ identifier: "gamma", create: true, visibility: "public" });
  return { a, b, c };
}

function ids(items: { identifier: string }[]): string[] {
  return items.map((item) => item.identifier).sort();
}

Deno.test("searchResources() iterates over every page with tags, operator and visibility", async () => {
  await using env = await setup();
  await seed(env);
  const search = env.manager.search;
  const all = await Array.fromAsync(search.searchResources("record", { perPage: 1 }));
  assertEquals(ids(all), ["alpha", "beta", "gamma"]);
  const anyTag = await Array.fromAsync(search.searchResources("record", { tags: ["x", "y"] }));
  assertEquals(ids(anyTag), ["alpha", "beta"]);
  const bothTags = search.searchResources("record", { tags: ["x", "y"], tagOperator: "and" });
  assertEquals(ids(await Array.fromAsync(bothTags)), ["alpha"]);
  const pub = await Array.fromAsync(search.searchResources("record", { visibility: "public" }));
  assertEquals(ids(pub), ["gamma"]);
  const text = await Array.fromAsync(search.searchResources("record", { query: "bet" }));
  assertEquals(ids(text), ["beta"]);
  const typed = await Array.fromAsync(search.searchResources("record", { type: "sample" }));
  assertEquals(ids(typed), ["alpha"]);
});

Deno.test("searchResources() encodes the extras filter and finds by MIME type", async () => {
  await using env = await setup();
  const { b } = await seed(env);
  const search = env.manager.search;
  const warm = search.searchResources("record", {
    extras: [{ key: "temperature", type: "numeric", numeric: { min: 20, max: 22 } }],
  });
  assertEquals(ids(await Array.fromAsync(warm)), ["alpha"]);
  const cold = search.searchResources("record", {
    extras: [{ key: "temperature", type: "numeric", numeric: { max: 10 } }],
  });
  assertEquals(await Array.fromAsync(cold), []);
  await b.uploadString("a,b\n", "t.csv", { mimetype: "text/csv" });
  const csv = await Array.fromAsync(search.searchResources("record", { mimetypes: ["text/csv"] }));
  assertEquals(ids(csv), ["beta"]);
  const last = env.server.log.findLast((entry) => entry.path.endsWith("/records"));
  assertEquals(last?.method, "GET");
});

Deno.test("searchResources() filters by collection, with child collections", async () => {
  await using env = await setup();
  const { a, b } = await seed(env);
  const parent = await env.manager.collection({ identifier: "parent", create: true });
  const child = await env.manager.collection({ identifier: "child", create: true });
  await parent.addCollectionLink(child.id);
  await parent.addRecordLink(a.id);
  await child.addRecordLink(b.id);
  const search = env.manager.search;
  const direct = search.searchResources("record", { collections: [parent.id] });
  assertEquals(ids(await Array.fromAsync(direct)), ["alpha"]);
  const tree = search.searchResources("record", {
    collections: [parent.id],
    childCollections: true,
  });
  assertEquals(ids(await Array.fromAsync(tree)), ["alpha", "beta"]);
  const collections = await Array.fromAsync(search.searchResources("collection", {}));
  assertEquals(ids(collections), ["child", "parent"]);
});

Deno.test("searchResourcesPage() returns one page; sort orders it", async () => {
  await using env = await setup();
  await seed(env);
  const page = await env.manager.search.searchResourcesPage("record", {
    perPage: 2,
    page: 2,
    sort: "identifier",
  });
  assertEquals(page._pagination.total_items, 3);
  assertEquals(ids(page.items), ["gamma"]);
});

Deno.test("searchResourceIds() joins every id with the separator; limit refuses", async () => {
  await using env = await setup();
  const { a, b, c } = await seed(env);
  const search = env.manager.search;
  const all = [a.id, b.id, c.id].sort((x, y) => x - y);
  const joined = await search.searchResourceIds("record", { perPage: 1, page: 3 });
  assertEquals(joined.split(",").map(Number).sort((x, y) => x - y), all);
  const spaced = await search.searchResourceIds("record", { tags: ["x"] }, { separator: " " });
  assertEquals(spaced.split(" ").map(Number).sort((x, y) => x - y), [a.id, b.id].sort());
  const error = await assertRejects(
    () => search.resourceIds("record", {}, { limit: 2 }),
    TooManyResultsError,
  );
  assertEquals([error.total, error.limit], [3, 2]);
});

Deno.test("searchUserResources() lists what a user created; searchUsers() finds usernames", async () => {
  await using env = await setup();
  await seed(env);
  const other = secondManager(env.server, "jdoe");
  try {
    await other.manager.record({ identifier: "theirs", create: true, visibility: "public" });
    const search = env.manager.search;
    const theirs = await search.searchUserResources("record", other.userId, {});
    assertEquals(ids(theirs.items), ["theirs"]);
    const mine = await search.searchUserResources("record", 1, { perPage: 2 });
    assertEquals(mine._pagination.total_items, 3);
    const users = await search.searchUsers({ filter: "jdoe" });
    assertEquals(users.items.map((user) => user.identity?.username), ["jdoe"]);
    const everyone = await Array.fromAsync(search.users({}));
    assertEquals(everyone.length, 2);
  } finally {
    await other.manager.close();
  }
});

Deno.test("searchResources() of templates, groups and collections uses their own filters", async () => {
  await using env = await setup();
  const m = env.manager;
  await m.template({ identifier: "rec-t", create: true, type: "record" });
  await m.template({ identifier: "ext-t", create: true, type: "extras" });
  const other = secondManager(env.server, "jdoe");
  try {
    const o = other.manager;
    await o.group({ identifier: "theirs", create: true, visibility: "public" });
    await m.group({ identifier: "mine", create: true });
    const search = m.search;
    const extras = await Array.fromAsync(search.searchResources("template", { type: "extras" }));
    assertEquals(ids(extras), ["ext-t"]);
    const groups = await Array.fromAsync(search.searchResources("group", {}));
    assertEquals(ids(groups), ["mine", "theirs"]);
    const member = await Array.fromAsync(search.searchResources("group", { memberOnly: true }));
    assertEquals(ids(member), ["mine"]);
    const byUser = search.searchResources("group", { user: other.userId });
    assertEquals(ids(await Array.fromAsync(byUser)), ["theirs"]);
    await o.collection({ identifier: "shared", create: true, tags: ["t"] });
    const shared = await o.collection({ identifier: "shared" });
    await shared.addUser(1, "member");
    await m.collection({ identifier: "own", create: true, tags: ["t"] });
    const explicit = search.searchResources("collection", { explicitPermissions: true });
    assertEquals(ids(await Array.fromAsync(explicit)), ["own", "shared"]);
    const tagged = search.searchResources("collection", { tags: ["t"], user: [other.userId] });
    assertEquals(ids(await Array.fromAsync(tagged)), ["shared"]);
  } finally {
    await other.manager.close();
  }
});
