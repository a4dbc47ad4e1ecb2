// syncCollection() over real HTTP against the local server: a folder of record folders made into
// a collection (metadata, extras with their types, membership, links, files) and back, no-op
// re-syncs, a round trip between two servers, child collections, templates, shards, --delete.
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { syncCollection, syncRecordFolder } from "../../lib/collection_sync/sync_collection.ts";
import { identifierFromFolder } from "../../lib/collection_sync/layout.ts";
import { inShard, parseShard } from "../../lib/collection_sync/shard.ts";
import { tempDir } from "../_temp.ts";
import { changing } from "../_server_log.ts";
import { fileNames, managerOf } from "./_helpers.ts";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

/** Every file below `root` with its text, relative with `/`, sorted (the sync's cache left out). */
async function readTree(root: string, prefix = ""): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for await (const entry of Deno.readDir(`${root}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.name === ".repo-apy-sync-cache.json") continue;
    if (entry.isDirectory) found.push(...await readTree(root, `${path}/`));
    else if (entry.isFile) found.push([path, await Deno.readTextFile(`${root}/${path}`)]);
  }
  return found.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

const SAMPLE_1 = {
  title: "Sample 1",
  description: "First sample",
  tags: ["steel", "batch-a"],
  type: "sample",
  extras: [
    { key: "temperature", type: "float", value: 1.0, unit: "K" },
    { key: "count", type: "int", value: 3 },
    {
      key: "conditions",
      type: "dict",
      value: [{ key: "pressure", type: "float", value: 2.0, unit: "bar" }],
    },
  ],
  links: [{ name: "derived from", record_to: { identifier: "raw-2" } }],
};

const PROJECT = {
  ".collection.json": JSON.stringify({
    identifier: "ignored-here",
    title: "Campaign 2026",
    description: "All samples",
    tags: ["campaign"],
  }),
  "sample-1/.record.json": JSON.stringify(SAMPLE_1),
  "sample-1/raw/run1.csv": "1,2\n",
  "sample-1/notes.txt": "notes",
  "Raw 2/data.bin": "raw data",
};

Deno.test("--from creates the collection and records, metadata with types, membership, links and files; a second run changes nothing", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const first = await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    direction: "up",
  });
  assert(first.complete, JSON.stringify(first.problems));
  assertEquals(first.records.map((r) => [r.folder, r.identifier, r.created]), [
    ["Raw 2", "raw-2", true],
    ["sample-1", "sample-1", true],
  ]);
  const collection = await manager.collection({ identifier: "campaign" });
  const meta = await collection.meta();
  assertEquals([meta.title, meta.description, meta.tags], [
    "Campaign 2026",
    "All samples",
    ["campaign"],
  ]);
  const members = (await Array.fromAsync(collection.records())).map((r) => r.identifier).sort();
  assertEquals(members, ["raw-2", "sample-1"]);
  const sample = await manager.record({ identifier: "sample-1" });
  const json = await sample.meta();
  assertEquals([json.title, json.type, json.tags], ["Sample 1", "sample", ["batch-a", "steel"]]);
  const extras = json.extras as Extra[];
  assertEquals(extras[0], { ...extras[0], key: "temperature", type: "float", value: 1 });
  assertEquals((extras[2]!.value as Extra[])[0]!.type, "float");
  // The float stays a float on the wire: the server's raw answer writes 1.0.
  const raw = await (await fetch(`${server.url}/api/v1/records/${sample.id}`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  })).text();
  assertStringIncludes(raw, '"value":1.0');
  const raw2 = await manager.record({ identifier: "raw-2" });
  assertEquals((await raw2.meta()).title, "Raw 2");
  const links = await Array.fromAsync(sample.recordLinks({ direction: "out" }));
  assertEquals(links.map((l) => [l.name, l.record_to?.identifier]), [["derived from", "raw-2"]]);
  assertEquals(await fileNames(manager, "sample-1"), ["notes.txt", "raw/run1.csv"]);
  assertEquals(await fileNames(manager, "raw-2"), ["data.bin"]);

  const mark = server.log.length;
  const again = await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    direction: "up",
  });
  assert(again.complete);
  assertEquals(changing(server, mark), []);
  assertEquals(again.records.map((r) => [r.created, r.changed, r.added, r.linked]), [
    [false, [], false, []],
    [false, [], false, []],
  ]);
});

Deno.test("--from changes only the metadata that differs, and a dry run changes nothing", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const up = { direction: "up" } as const;
  await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  await Deno.writeTextFile(
    `${dir.path}/sample-1/.record.json`,
    JSON.stringify({ ...SAMPLE_1, title: "Sample one", extras: [SAMPLE_1.extras[0]] }),
  );
  await Deno.writeTextFile(`${dir.path}/sample-1/new.txt`, "new");
  const mark = server.log.length;
  const dry = await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    ...up,
    dryRun: true,
  });
  assertEquals(changing(server, mark), []);
  const planned = dry.records.find((r) => r.folder === "sample-1")!;
  assertEquals(planned.changed.sort(), ["extras", "title"]);
  assertEquals(planned.files?.plan.counts.upload.files, 1);
  const run = await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  assert(run.complete);
  const patches = changing(server, mark).filter((line) => line.startsWith("PATCH"));
  assertEquals(patches.length, 1);
  const meta = await (await manager.record({ identifier: "sample-1" })).meta();
  assertEquals([meta.title, meta.extras?.length], ["Sample one", 1]);
});

Deno.test("--to writes a folder per record with .record.json and .collection.json; a second run writes nothing", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using src = await tempDir();
  await using out = await tempDir();
  await writeTree(src.path, PROJECT);
  await syncCollection(manager, { identifier: "campaign" }, src.path, {
    direction: "up",
  });
  const down = await syncCollection(manager, { identifier: "campaign" }, out.path, {
    direction: "down",
  });
  assert(down.complete, JSON.stringify(down.problems));
  const tree = await readTree(out.path);
  assertEquals(tree.map(([name]) => name), [
    ".collection.json",
    "raw-2/.record.json",
    "raw-2/data.bin",
    "sample-1/.record.json",
    "sample-1/notes.txt",
    "sample-1/raw/run1.csv",
  ]);
  const record = JSON.parse(Object.fromEntries(tree)["sample-1/.record.json"]!);
  assertEquals(record.identifier, "sample-1");
  assertEquals(record.links, [{
    name: "derived from",
    term: null,
    record_to: { identifier: "raw-2" },
  }]);
  // Floats are written as floats.
  assertStringIncludes(Object.fromEntries(tree)["sample-1/.record.json"]!, '"value": 1.0');
  assertEquals(JSON.parse(Object.fromEntries(tree)[".collection.json"]!).title, "Campaign 2026");
  const before = await Promise.all(
    tree.map(async ([name]) => (await Deno.stat(`${out.path}/${name}`)).mtime?.getTime()),
  );
  const again = await syncCollection(manager, { identifier: "campaign" }, out.path, {
    direction: "down",
  });
  assert(again.complete);
  assertEquals(again.records.map((r) => [r.wrote, r.files?.done.length]), [[false, 0], [false, 0]]);
  assertEquals(again.collections.map((c) => c.wrote), [false]);
  const after = await Promise.all(
    tree.map(async ([name]) => (await Deno.stat(`${out.path}/${name}`)).mtime?.getTime()),
  );
  assertEquals(after, before);
});

Deno.test("round trip: --to from one server, --from into another gives the same records, files, links and child collections", async () => {
  await using a = await startServer();
  await using b = await startServer();
  await using ma = managerOf(a);
  await using mb = managerOf(b);
  await using src = await tempDir();
  await using moved = await tempDir();
  await using back = await tempDir();
  await writeTree(src.path, {
    ...PROJECT,
    "week-1/.collection.json": JSON.stringify({ title: "Week 1" }),
    "week-1/sample-3/.record.json": JSON.stringify({
      title: "Sample 3",
      license: "CC-BY-4.0",
      extras: [{ key: "ratio", type: "float", value: 3 }, { key: "ok", type: "bool", value: true }],
      links: [{
        name: "compare",
        term: "https://example.org/compare",
        record_to: { identifier: "sample-1" },
      }],
    }),
    "week-1/sample-3/big/a.dat": "x".repeat(5000),
  });
  const first = await syncCollection(ma, { identifier: "project" }, src.path, {
    direction: "up",
  });
  assert(first.complete, JSON.stringify(first.problems));
  const down = await syncCollection(ma, { identifier: "project" }, moved.path, {
    direction: "down",
  });
  assert(down.complete, JSON.stringify(down.problems));
  const up = await syncCollection(mb, { identifier: "project" }, moved.path, {
    direction: "up",
  });
  assert(up.complete, JSON.stringify(up.problems));
  const again = await syncCollection(mb, { identifier: "project" }, back.path, {
    direction: "down",
  });
  assert(again.complete);
  // The same folder, byte for byte: titles, tags, extras with types, files, links, the tree.
  assertEquals(await readTree(back.path), await readTree(moved.path));
  const tree = Object.fromEntries(await readTree(back.path));
  assertStringIncludes(tree["week-1/sample-3/.record.json"]!, '"value": 3.0');
  assertEquals(JSON.parse(tree["week-1/.collection.json"]!).title, "Week 1");
  const child = await mb.collection({ identifier: "week-1" });
  assertEquals(
    (await Array.fromAsync((await mb.collection({ identifier: "project" })).collections()))
      .map((c) => c.id),
    [child.id],
  );
  assertEquals((await Array.fromAsync(child.records())).map((r) => r.identifier), ["sample-3"]);
  const sample3 = await mb.record({ identifier: "sample-3" });
  const links = await Array.fromAsync(sample3.recordLinks({ direction: "out" }));
  assertEquals(links.map((l) => [l.name, l.term, l.record_to?.identifier]), [
    ["compare", "https://example.org/compare", "sample-1"],
  ]);
  assertEquals((await sample3.meta()).license, "CC-BY-4.0");
});

Deno.test("--template lists every problem and creates nothing when any record fails", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await manager.template({
    identifier: "sample-template",
    create: true,
    type: "extras",
    data: [
      { key: "temperature", type: "float", value: null, validation: { required: true } },
      { key: "phase", type: "str", value: null, validation: { options: ["solid", "liquid"] } },
    ],
  });
  await writeTree(dir.path, {
    "good/.record.json": JSON.stringify({
      extras: [{ key: "temperature", type: "float", value: 300 }],
    }),
    "bad/.record.json": JSON.stringify({
      extras: [
        { key: "temperature", type: "str", value: "hot" },
        { key: "phase", type: "str", value: "gas" },
      ],
    }),
    "empty/a.txt": "a",
  });
  const mark = server.log.length;
  const result = await syncCollection(manager, { identifier: "checked" }, dir.path, {
    direction: "up",
    template: "sample-template",
  });
  assertEquals(result.complete, false);
  assertEquals(result.problems.map((p) => [p.folder, p.key]), [
    ["bad", "temperature"],
    ["bad", "phase"],
    ["empty", "temperature"],
  ]);
  assertStringIncludes(result.problems[0]!.reason, "is str, the template says float");
  assertStringIncludes(result.problems[1]!.reason, "'gas' is not one of");
  assertEquals(result.records, []);
  assertEquals(changing(server, mark), []);
});

Deno.test("--shard K/N: the shards together sync every record once, and two at once never create one twice", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    files[`s-${i}/data.txt`] = `data ${i}`;
    // Links across shards: each record links to the next one.
    files[`s-${i}/.record.json`] = JSON.stringify({
      title: `S ${i}`,
      links: [{ name: "next", record_to: { identifier: `s-${(i + 1) % 12}` } }],
    });
  }
  // A child collection every shard opens and attaches at once.
  files["week/.collection.json"] = JSON.stringify({ title: "Week" });
  files["week/w-1/a.txt"] = "a";
  await writeTree(dir.path, files);
  const shards = ["1/3", "2/3", "3/3"].map(parseShard);
  const results = await Promise.all(
    shards.map((shard) =>
      syncCollection(manager, { identifier: "big" }, dir.path, {
        direction: "up",
        shard,
      })
    ),
  );
  for (const result of results) assert(result.complete, JSON.stringify(result.problems));
  const synced = results.flatMap((result) => result.records.map((r) => r.folder)).sort();
  assertEquals(
    synced,
    [
      ...Object.keys(files).filter((f) => f.endsWith("data.txt")).map((f) => f.split("/")[0]),
      "week/w-1",
    ].sort(),
  );
  for (const result of results) {
    for (const record of result.records) {
      assert(shards.filter((shard) => inShard(record.folder, shard)).length === 1);
    }
  }
  const posts = server.log.filter(({ method, path }) =>
    method === "POST" && path === "/api/v1/records"
  );
  const created = posts.filter(({ status }) => status === 201).length;
  assertEquals(created, 13);
  const collections = server.log.filter(({ method, path, status }) =>
    method === "POST" && path === "/api/v1/collections" && status === 201
  );
  assertEquals(collections.length, 2);
  const week = await manager.collection({ identifier: "week" });
  assertEquals(
    (await Array.fromAsync((await manager.collection({ identifier: "big" })).collections()))
      .map((c) => c.id),
    [week.id],
  );
  const collection = await manager.collection({ identifier: "big" });
  assertEquals((await Array.fromAsync(collection.records())).length, 12);
  for (let i = 0; i < 12; i++) {
    const record = await manager.record({ identifier: `s-${i}` });
    const links = await Array.fromAsync(record.recordLinks({ direction: "out" }));
    assertEquals(links.map((l) => l.record_to?.identifier), [`s-${(i + 1) % 12}`]);
    assertEquals((await record.meta()).title, `S ${i}`);
  }
  // A record belongs to exactly one of N shards.
  for (const name of ["a", "b", "sample-17", "campaign/x"]) {
    assertEquals(shards.filter((shard) => inShard(name, shard)).length, 1);
  }
});

Deno.test("--delete deletes files inside records and removes gone records from the collection, never deleting them; nothing when a folder is unreadable", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const up = { direction: "up", delete: true } as const;
  await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  await Deno.remove(`${dir.path}/sample-1/notes.txt`);
  await Deno.remove(`${dir.path}/Raw 2`, { recursive: true });
  await writeTree(dir.path, { "broken/.record.json": "{ not json" });
  const blocked = await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  assertEquals(blocked.complete, false);
  assertEquals(blocked.problems.map((p) => p.folder), ["broken", "", ""]);
  assertStringIncludes(blocked.problems[1]!.reason, "1 file(s) in 1 record(s) were not deleted");
  assertStringIncludes(blocked.problems[2]!.reason, "not removed from the collection");
  // Nothing irreversible while anything went wrong: the record still has the file.
  assertEquals(await fileNames(manager, "sample-1"), ["notes.txt", "raw/run1.csv"]);
  const collection = await manager.collection({ identifier: "campaign" });
  const members = async () =>
    (await Array.fromAsync(collection.records())).map((r) => r.identifier).sort();
  assertEquals(await members(), ["raw-2", "sample-1"]);
  await Deno.remove(`${dir.path}/broken`, { recursive: true });
  const run = await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  assert(run.complete, JSON.stringify(run.problems));
  assertEquals(run.collections[0]!.removed, ["raw-2"]);
  assertEquals(await members(), ["sample-1"]);
  assertEquals(await fileNames(manager, "sample-1"), ["raw/run1.csv"]);
  // Removed from the collection, never deleted.
  assertEquals((await (await manager.record({ identifier: "raw-2" })).meta()).state, "active");
});

Deno.test("--delete with confirmDelete asks once over all records, and a refusal changes nothing", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    direction: "up",
  });
  await Deno.remove(`${dir.path}/sample-1/notes.txt`);
  await Deno.remove(`${dir.path}/Raw 2/data.bin`);
  const asked: unknown[] = [];
  const mark = server.log.length;
  const refused = syncCollection(manager, { identifier: "campaign" }, dir.path, {
    direction: "up",
    delete: true,
    confirmDelete: (summary) => {
      asked.push(summary);
      return false;
    },
  });
  await refused.then(
    () => assert(false, "not refused"),
    (error) => assertStringIncludes(String(error), "not confirmed: nothing was changed"),
  );
  assertEquals(asked, [{ files: 2, bytes: 13, records: 2, direction: "up" }]);
  assertEquals(changing(server, mark), []);
});

Deno.test("layout: identifiers from folder names, files beside record folders left out, clashing identifiers refused", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  assertEquals(identifierFromFolder("Run 2026-03 (B)"), "run-2026-03-b");
  await writeTree(dir.path, {
    "loose.txt": "x",
    "Sample A/a.txt": "a",
    "sample-a/b.txt": "b",
    ".git/config": "x",
    "ok/.repo-apy-sync-cache.json": "{}",
    "ok/c.txt": "c",
  });
  const warnings: string[] = [];
  const result = await syncCollection(manager, { identifier: "c" }, dir.path, {
    direction: "up",
    onWarning: (message) => warnings.push(message),
  });
  assertEquals(result.records.map((r) => r.folder), ["ok"]);
  assertEquals(result.problems.map((p) => p.folder).sort(), ["Sample A", "sample-a"]);
  assertStringIncludes(warnings.join("\n"), "'loose.txt'");
  // A file named like the sync cache of older versions is an ordinary file (the cache is kept in
  // the user's cache folder).
  assertEquals(await fileNames(manager, "ok"), [".repo-apy-sync-cache.json", "c.txt"]);
});

Deno.test("syncRecordFolder syncs the one folder a watcher names", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const result = await syncRecordFolder(
    manager,
    { identifier: "w" },
    dir.path,
    "Raw 2",
    {},
  );
  assertEquals(result.records.map((r) => r.identifier), ["raw-2"]);
  const collection = await manager.collection({ identifier: "w" });
  assertEquals((await Array.fromAsync(collection.records())).map((r) => r.identifier), ["raw-2"]);
});

Deno.test("--to of a collection that does not exist: an error naming it and what to do, nothing written", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  const error = await syncCollection(manager, { identifier: "nowhere" }, `${dir.path}/out`, {
    direction: "down",
  }).then(() => undefined, (caught: unknown) => caught);
  assertStringIncludes(String(error), "There is no collection 'nowhere' to sync down");
  assertEquals([...Deno.readDirSync(dir.path)], []);
});

Deno.test("a child collection that has another parent is named as a problem, its records still synced", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  const other = await manager.collection({ identifier: "other", create: true });
  const week = await manager.collection({ identifier: "week", create: true });
  await other.addCollectionLink(week.id);
  await writeTree(dir.path, {
    "week/.collection.json": JSON.stringify({ title: "Week" }),
    "week/w-1/a.txt": "a",
  });
  const result = await syncCollection(manager, { identifier: "main" }, dir.path, {
    direction: "up",
  });
  assertEquals(result.complete, false);
  assertEquals(result.problems.map((p) => p.folder), ["week"]);
  assertStringIncludes(result.problems[0]!.reason, "already has another parent collection");
  assertEquals(result.records.map((r) => [r.folder, r.complete]), [["week/w-1", true]]);
});

Deno.test("--to --delete deletes local files only after every record synced; a confirmed plan is carried out", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using src = await tempDir();
  await using out = await tempDir();
  await writeTree(src.path, PROJECT);
  await syncCollection(manager, { identifier: "campaign" }, src.path, { direction: "up" });
  await writeTree(out.path, { "sample-1/stale.txt": "old" });
  // raw-2 cannot get its folder: a file has the name.
  await Deno.writeTextFile(`${out.path}/raw-2`, "in the way");
  const down = { direction: "down", delete: true } as const;
  const blocked = await syncCollection(manager, { identifier: "campaign" }, out.path, down);
  assertEquals(blocked.complete, false);
  assertEquals(blocked.records.map((r) => [r.folder, r.complete]), [
    ["raw-2", false],
    ["sample-1", true],
  ]);
  assertStringIncludes(blocked.problems[0]!.reason, "1 file(s) in 1 record(s) were not deleted");
  assertEquals(await Deno.readTextFile(`${out.path}/sample-1/stale.txt`), "old");
  await Deno.remove(`${out.path}/raw-2`);
  const asked: number[] = [];
  const run = await syncCollection(manager, { identifier: "campaign" }, out.path, {
    ...down,
    confirmDelete: (summary) => {
      asked.push(summary.files);
      return true;
    },
  });
  assert(run.complete, JSON.stringify(run.problems));
  assertEquals(asked, [1]);
  const sample = run.records.find((r) => r.folder === "sample-1")!;
  assertEquals(sample.files?.plan.counts.delete.files, 1);
  assertEquals(sample.files?.done.map((a) => [a.action, a.local]), [["delete", "stale.txt"]]);
  assertEquals(
    (await readTree(out.path)).map(([name]) => name).filter((n) => n.startsWith("sample-1/")),
    ["sample-1/.record.json", "sample-1/notes.txt", "sample-1/raw/run1.csv"],
  );
});

Deno.test("--to: a record identifier from the server that is no safe folder name is refused, nothing written outside the folder", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await manager.collection({ identifier: "campaign", create: true });
  const evil = { id: 99, identifier: "../evil", title: "x", extras: [], _links: {}, _actions: {} };
  server.addFault({
    method: "GET",
    path: /\/collections\/\d+\/records$/,
    jsonBody: {
      items: [evil],
      _pagination: { page: 1, per_page: 100, total_pages: 1, total_items: 1, _links: { self: "" } },
    },
  });
  const result = await syncCollection(manager, { identifier: "campaign" }, `${dir.path}/out`, {
    direction: "down",
  });
  assertEquals(result.complete, false);
  assertStringIncludes(result.problems[0]!.reason, "'../evil', which cannot be a folder's name");
  assertEquals(result.records, []);
  assertEquals([...Deno.readDirSync(dir.path)].map((e) => e.name), ["out"]);
  assertEquals([...Deno.readDirSync(`${dir.path}/out`)].map((e) => e.name), [".collection.json"]);
});

Deno.test("an interrupted run, run again, finishes the job with nothing created twice; links outside the folder are made or warned about", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await manager.record({ identifier: "instrument", create: true });
  const files: Record<string, string> = {};
  for (let i = 0; i < 6; i++) {
    files[`r-${i}/data.txt`] = `data ${i}`;
    files[`r-${i}/.record.json`] = JSON.stringify({
      links: [
        { name: "measured with", record_to: { identifier: "instrument" } },
        { name: "see", record_to: { identifier: "nowhere" } },
      ],
    });
  }
  await writeTree(dir.path, files);
  const controller = new AbortController();
  const stopped = await syncCollection(manager, { identifier: "c" }, dir.path, {
    direction: "up",
    concurrency: 1,
    signal: controller.signal,
    onRecord: () => controller.abort(new Error("stopped")),
  }).then(() => "finished", (error: unknown) => String(error));
  assertStringIncludes(stopped, "stopped");
  const warnings: string[] = [];
  const again = await syncCollection(manager, { identifier: "c" }, dir.path, {
    direction: "up",
    onWarning: (message) => warnings.push(message),
  });
  assert(again.complete, JSON.stringify(again.problems));
  const created = server.log.filter(({ method, path, status }) =>
    method === "POST" && path === "/api/v1/records" && status === 201
  );
  assertEquals(created.length, 1 + 6);
  const collection = await manager.collection({ identifier: "c" });
  assertEquals((await Array.fromAsync(collection.records())).length, 6);
  for (let i = 0; i < 6; i++) {
    const record = await manager.record({ identifier: `r-${i}` });
    assertEquals(await fileNames(manager, `r-${i}`), ["data.txt"]);
    const links = await Array.fromAsync(record.recordLinks({ direction: "out" }));
    assertEquals(links.map((l) => [l.name, l.record_to?.identifier]), [
      ["measured with", "instrument"],
    ]);
  }
  assertEquals(warnings.filter((w) => w.includes("no record 'nowhere'")).length, 6);
});

Deno.test("fields a .record.json leaves out are not managed; without the file the title is the folder's name", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, {
    "Sample A/.record.json": JSON.stringify({ tags: ["x"] }),
    "Sample B/b.txt": "b",
  });
  const up = { direction: "up" } as const;
  await syncCollection(manager, { identifier: "c" }, dir.path, up);
  const a = await manager.record({ identifier: "sample-a" });
  const b = await manager.record({ identifier: "sample-b" });
  assertEquals([(await a.meta()).title, (await b.meta()).title], ["Sample A", "Sample B"]);
  // Retitled in the web interface: A's file names no title, so it stays; B's title is its folder's.
  await a.edit({ title: "Renamed A", description: "Set on the server" });
  await b.edit({ title: "Renamed B" });
  const again = await syncCollection(manager, { identifier: "c" }, dir.path, up);
  assertEquals(again.records.map((r) => [r.folder, r.changed]), [
    ["Sample A", []],
    ["Sample B", ["title"]],
  ]);
  a.invalidate();
  b.invalidate();
  assertEquals([(await a.meta()).title, (await b.meta()).title], ["Renamed A", "Sample B"]);
});
