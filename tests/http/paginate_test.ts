// Pagination against servers whose links never end.
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { RepoApyError } from "../../lib/errors.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { IncompleteListingError, paginate, paginateItems } from "../../lib/http/paginate.ts";
import { createRecord, listDir, managerFor, ok, tempDir } from "../cli/_records.ts";

Deno.test("paginateItems() fails clearly when 'next' points back at the same page", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  for (const identifier of ["a", "b", "c"]) {
    await transport.json("POST", "/records", { json: { identifier, title: identifier } });
  }
  server.addFault({ method: "GET", path: /\/records$/, selfNext: true });
  const seen: unknown[] = [];
  const error = await assertRejects(async () => {
    for await (const item of paginateItems(transport, "/records", { per_page: 2 })) seen.push(item);
  }, RepoApyError);
  assertStringIncludes(error.message, "page links loop");
  assertEquals(seen.length, 2);
  assertEquals(
    server.log.filter((e) => e.method === "GET" && e.path === "/api/v1/records").length,
    2,
  );
});

Deno.test("paginate() stops at total_pages and never yields an item twice", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  for (const identifier of ["a", "b", "c"]) {
    await transport.json("POST", "/records", { json: { identifier, title: identifier } });
  }
  const pages = await Array.fromAsync(paginate(transport, "/records", { per_page: 2 }));
  assertEquals(pages.map((page) => page.items.length), [2, 1]);
});

Deno.test("records get-file -P '*' against a self-pointing 'next' writes each file once", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "looping");
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  for (const name of ["one.txt", "two.txt", "three.txt"]) await record.uploadString(name, name);
  server.addFault({ method: "GET", path: /\/files$/, selfNext: true });
  await ok(server, ["get-file", "-r", String(id), "-P", "*", "-p", dir.path]);
  const written = await listDir(dir.path);
  assertEquals(written.length >= 1 && written.length <= 3, true);
  assertEquals(new Set(written).size, written.length);
  const listings = server.log.filter((entry) => entry.path.endsWith(`/records/${id}/files`));
  assertEquals(listings.length <= 2, true, `${listings.length} listing requests`);
});

Deno.test("the local server offers no 'next' link beyond its search page cap", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  for (const identifier of ["a", "b"]) {
    await transport.json("POST", "/records", { json: { identifier, title: identifier } });
  }
  const page = await transport.json<{ _pagination: { _links: { next?: string } } }>(
    "GET",
    "/records",
    { query: { page: 150, per_page: 1 } },
  );
  assertEquals(page._pagination._links.next, undefined);
});

Deno.test("paginate() with `ahead` requests following pages ahead, yields them in order, each once", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const identifiers = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"];
  for (const identifier of identifiers) {
    await transport.json("POST", "/records", { json: { identifier, title: identifier } });
  }
  const before = server.log.length;
  const seen: string[] = [];
  for await (
    const item of paginateItems<{ identifier: string }>(transport, "/records", {
      per_page: 2,
      sort: "identifier",
    }, { ahead: 4 })
  ) seen.push(item.identifier);
  assertEquals(seen.toSorted(), identifiers);
  assertEquals(new Set(seen).size, identifiers.length);
  const pages = server.log.slice(before).filter((e) => e.path === "/api/v1/records");
  assertEquals(pages.length, 6);
});

Deno.test("paginateItems() reads a trash whose items of different types share an id", async () => {
  // Found against the real server: record 1 and collection 1 both in the trash are two items.
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const record = await transport.json("POST", "/records", {
    json: { identifier: "r", title: "r" },
  });
  const collection = await transport.json("POST", "/collections", {
    json: { identifier: "c", title: "c" },
  });
  assertEquals((record as { id: number }).id, (collection as { id: number }).id);
  await transport.request("DELETE", `/records/${(record as { id: number }).id}`);
  await transport.request("DELETE", `/collections/${(collection as { id: number }).id}`);
  const items = await Array.fromAsync(paginateItems<{ type: string }>(transport, "/trash"));
  assertEquals(items.map((i) => i.type).sort(), ["collection", "record"]);
});

/** Records `a`…`e` on a fresh server, listed by identifier. */
async function fiveRecords(transport: Transport): Promise<void> {
  for (const identifier of ["a", "b", "c", "d", "e"]) {
    await transport.json("POST", "/records", { json: { identifier, title: identifier } });
  }
}

const byIdentifier = { per_page: 2, sort: "identifier" };

Deno.test("paginate() with `whole` reads a steady listing whole, pages requested ahead", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  const items = await Array.fromAsync(
    paginateItems<{ identifier: string }>(transport, "/records", byIdentifier, {
      whole: true,
      ahead: 2,
    }),
  );
  assertEquals(items.map((item) => item.identifier), ["a", "b", "c", "d", "e"]);
});

Deno.test("paginate() with `whole` fails when the list changes between pages", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  const seen: string[] = [];
  const error = await assertRejects(async () => {
    for await (
      const item of paginateItems<{ identifier: string }>(transport, "/records", byIdentifier, {
        whole: true,
      })
    ) {
      seen.push(item.identifier);
      if (seen.length === 2) {
        await transport.json("POST", "/records", { json: { identifier: "0", title: "0" } });
      }
    }
  }, IncompleteListingError);
  assertEquals(seen, ["a", "b"]);
  assertStringIncludes(error.message, "changed while it was read");
  assertEquals([error.endpoint, error.received, error.total], ["/records", 4, 5]);
});

Deno.test("paginate() with `whole` fails on a listing short of the server's count; without, it ends quietly", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  // Page 2 claims to be the last one and holds nothing: 2 of 5 items arrive.
  const short = () =>
    server.addFault({
      method: "GET",
      path: /\/records$/,
      nth: 2,
      jsonBody: {
        items: [],
        _pagination: { page: 2, per_page: 2, total_pages: 2, total_items: 5, _links: {} },
      },
    });
  short();
  const quiet = await Array.fromAsync(paginateItems(transport, "/records", byIdentifier));
  assertEquals(quiet.length, 2);
  server.clearFaults();
  short();
  const error = await assertRejects(
    () => Array.fromAsync(paginateItems(transport, "/records", byIdentifier, { whole: true })),
    IncompleteListingError,
  );
  assertStringIncludes(error.message, "2 of the 5 items the server counted arrived");
  assertEquals([error.received, error.total], [2, 5]);
});

Deno.test("paginate() with `whole` fails when `maxPages` leaves pages unread; without, it stops there", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  const pages = await Array.fromAsync(
    paginate(transport, "/records", byIdentifier, { maxPages: 2 }),
  );
  assertEquals(pages.length, 2);
  const error = await assertRejects(
    () =>
      Array.fromAsync(paginate(transport, "/records", byIdentifier, { maxPages: 2, whole: true })),
    IncompleteListingError,
  );
  assertStringIncludes(error.message, "more than 2 pages");
});

Deno.test("paginate() with `whole` reports an item repeated on a later page as a changed listing", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  const [first] = await Array.fromAsync(
    paginateItems<{ id: number }>(transport, "/records", { per_page: 1, sort: "identifier" }),
  );
  const repeat = () =>
    server.addFault({ method: "GET", path: /\/records$/, nth: 2, jsonFields: { id: first!.id } });
  repeat();
  const loop = await assertRejects(
    () => Array.fromAsync(paginateItems(transport, "/records", byIdentifier)),
    RepoApyError,
  );
  assertStringIncludes(loop.message, "repeats items of an earlier page");
  server.clearFaults();
  repeat();
  const error = await assertRejects(
    () => Array.fromAsync(paginateItems(transport, "/records", byIdentifier, { whole: true })),
    IncompleteListingError,
  );
  assertStringIncludes(error.message, "changed while it was read");
});

Deno.test("paginate() with `whole` fails on a listing that does not count its items (no or a null `total_items`)", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await fiveRecords(transport);
  for (const total of [undefined, null]) {
    server.clearFaults();
    // The first page neither counts the items nor links to the rest: 2 of 5 arrive.
    server.addFault({
      method: "GET",
      path: /\/records$/,
      nth: 1,
      pagination: { total_items: total, total_pages: undefined, _links: {} },
    });
    const error = await assertRejects(
      () => Array.fromAsync(paginateItems(transport, "/records", byIdentifier, { whole: true })),
      IncompleteListingError,
    );
    assertStringIncludes(error.message, "does not say how many items");
    assertEquals([error.received, error.total], [2, undefined]);
  }
});
