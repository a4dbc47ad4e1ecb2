import { assertEquals, assertStringIncludes, assertTrue } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { createRecord, listDir, managerFor, ok, repo, tempDir } from "./_records.ts";

async function fixtures(server: TestServer) {
  const a = await createRecord(server, "alpha");
  const b = await createRecord(server, "beta");
  const c = await createRecord(server, "gamma");
  await ok(server, ["add-tag", "-r", String(a), "-t", "x,y"]);
  await ok(server, ["add-tag", "-r", String(b), "-t", "x"]);
  await ok(server, ["edit", "-r", String(c), "-v", "public"]);
  return { a, b, c };
}

Deno.test("records get-record-ids -p prints a comma list filtered by tags and visibility", async () => {
  await using server = await startServer();
  const { a, b, c } = await fixtures(server);
  assertEquals(
    (await ok(server, ["get-record-ids", "-p"])).stdout.trim().split(",").sort(),
    [
      String(a),
      String(b),
      String(c),
    ].sort(),
  );
  const or = (await ok(server, ["get-record-ids", "-t", "x,y", "-p"])).stdout.trim();
  assertEquals(or.split(",").sort(), [String(a), String(b)].sort());
  assertEquals(
    (await ok(server, ["get-record-ids", "-t", "x,y", "-T", "and", "-p"])).stdout,
    `${a}\n`,
  );
  assertEquals((await ok(server, ["get-record-ids", "-v", "public", "-p"])).stdout, `${c}\n`);
  assertEquals((await ok(server, ["get-record-ids", "-q", "bet", "-p"])).stdout, `${b}\n`);
  await ok(server, ["add-string-as-file", "-r", String(b), "-s", "{}", "-n", "b.json"]);
  await using manager = managerFor(server);
  const record = await manager.record({ id: b });
  await record.editFile(await record.getFileId("b.json"), { mimetype: "application/json" });
  assertEquals(
    (await ok(server, ["get-record-ids", "-m", "application/json", "-p"])).stdout,
    `${b}\n`,
  );
  const parent = await manager.transport.json<{ id: number }>("POST", "/collections", {
    json: { identifier: "parent", title: "Parent" },
  });
  const child = await manager.transport.json<{ id: number }>("POST", "/collections", {
    json: { identifier: "child", title: "Child" },
  });
  await manager.transport.request("POST", `/collections/${parent.id}/collections`, {
    json: { id: child.id },
  }).then((response) => response.body?.cancel());
  await ok(server, ["add-collection-link", "-r", String(a), "-c", String(child.id)]);
  const direct = await ok(server, ["get-record-ids", "-c", String(parent.id), "-p"]);
  assertEquals(direct.stdout, "\n");
  const nested = await ok(server, ["get-record-ids", "-c", String(parent.id), "-C", "-p"]);
  assertEquals(nested.stdout, `${a}\n`);
  assertTrue(server.log.some((entry) => entry.query.includes("child_collections=true")));
  const plain = await ok(server, ["get-record-ids", "-v", "public"]);
  assertEquals([plain.stdout, plain.stderr], [`${c}\n`, "Found 1 record(s)\n"]);
  const tagged = server.log.filter((entry) =>
    entry.path.endsWith("/records") && entry.query.includes("tag=x")
  );
  assertTrue(tagged.every((entry) => entry.query.includes("per_page=100")));
});

Deno.test("records get-record-ids needs --i-am-sure beyond 1000 hits", async () => {
  await using server = await startServer();
  await using manager = managerFor(server);
  for (let index = 0; index < 1001; index++) {
    await manager.transport.json("POST", "/records", {
      json: { identifier: `bulk-${index}`, title: `Bulk ${index}` },
    });
  }
  const refused = await repo(server, ["records", "get-record-ids", "-p"]);
  assertEquals(refused.code, 1);
  assertStringIncludes(refused.stderr, "Found 1001 records: add --i-am-sure");
  const sure = await ok(server, ["get-record-ids", "-p", "--i-am-sure"]);
  assertEquals(new Set(sure.stdout.trim().split(",")).size, 1001);
});

Deno.test("records get-records shows one page; a user lists their records; filters exclude users", async () => {
  await using server = await startServer();
  const { a } = await fixtures(server);
  const page = await ok(server, ["get-records", "-n", "2", "-p", "2"]);
  assertStringIncludes(page.stdout, "Found 3 record(s) on 2 page(s). Showing results of page 2:");
  assertEquals(page.stdout.split("\n").filter((line) => line.startsWith("  id: ")).length, 1);
  const tagged = await ok(server, ["get-records", "-t", "y"]);
  assertStringIncludes(tagged.stdout, `  id: ${a}, identifier: 'alpha', title: 'alpha'`);
  const mine = await ok(server, ["get-records", "-i"]);
  assertStringIncludes(mine.stdout, "Found 3 record(s)");
  assertTrue(server.log.some((entry) => entry.path.endsWith("/users/1/records")));
  const byId = await ok(server, ["get-records", "-u", "1", "-n", "1"]);
  assertStringIncludes(byId.stdout, "on 3 page(s)");
  const conflict = await repo(server, ["records", "get-records", "-i", "-t", "x"]);
  assertEquals(conflict.code, 2);
  const conflict2 = await repo(server, ["records", "get-records", "-u", "1", "-q", "a"]);
  assertEquals(conflict2.code, 2);
});

Deno.test("records export writes json and ro-crate files, names them, and pipes json", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "exp");
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "content", "-n", "f.txt"]);
  const json = await ok(server, ["export", "-r", String(id), "-p", dir.path]);
  assertStringIncludes(json.stderr, `to '${dir.path}/exp.json'`);
  assertEquals(JSON.parse(await Deno.readTextFile(`${dir.path}/exp.json`)).identifier, "exp");
  await ok(server, ["export", "-r", String(id), "-p", dir.path, "-f"]);
  await ok(server, ["export", "-R", "exp", "-p", dir.path, "-e", "ro-crate", "-u"]);
  await ok(server, ["export", "-r", String(id), "-p", dir.path, "-n", "named", "-u"]);
  assertEquals(await listDir(dir.path), ["exp", "exp.json"]);
  assertEquals(await listDir(`${dir.path}/exp`), ["exp.eln", "named.json"]);
  const zip = await Deno.readFile(`${dir.path}/exp/exp.eln`);
  assertEquals([...zip.subarray(0, 2)], [0x50, 0x4b]);
  const piped = await ok(server, ["export", "-r", String(id), "-P"]);
  assertEquals(JSON.parse(piped.stdout).identifier, "exp");
  const notJson = await repo(server, ["records", "export", "-r", String(id), "-P", "-e", "pdf"]);
  assertEquals(notJson.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  const rdf = await repo(server, ["records", "export", "-r", String(id), "-P", "-e", "rdf"]);
  assertEquals(rdf.code, 1);
  const badType = await repo(server, ["records", "export", "-r", String(id), "-e", "zip"]);
  assertEquals(badType.code, 2);
});

Deno.test("export onto an existing file without -f fails (exit 1) before the export is requested", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "rec-a");
  await ok(server, ["export", "-R", "rec-a", "-e", "json", "-p", dir.path]);
  const collection = await repo(server, ["collections", "create", "-i", "col-a"]);
  assertEquals(collection.code, 0);
  await repo(server, ["collections", "export", "-C", "col-a", "-p", dir.path]);
  const template = await repo(server, ["templates", "create", "-i", "tpl-a"]);
  assertEquals(template.code, 0);
  await repo(server, ["templates", "export", "-T", "tpl-a", "-p", dir.path]);
  const before = await listDir(dir.path);
  assertEquals(before, ["col-a.json", "rec-a.json", "tpl-a.json"]);
  for (
    const [args, file] of [
      [["records", "export", "-R", "rec-a", "-e", "JSON", "-p", dir.path], "rec-a.json"],
      [["records", "export", "-r", String(id), "-p", dir.path, "-n", "rec-a"], "rec-a.json"],
      [["collections", "export", "-C", "col-a", "-p", dir.path], "col-a.json"],
      [["templates", "export", "-T", "tpl-a", "-p", dir.path], "tpl-a.json"],
    ] as const
  ) {
    const exports = server.log.filter((entry) => entry.path.includes("/export/")).length;
    assertTrue(exports >= 3);
    const run = await repo(server, [...args]);
    assertEquals(run.code, 1, run.stderr);
    assertStringIncludes(
      run.stderr,
      `A file with the name '${dir.path}/${file}' already exists. File '${dir.path}/${file}' ` +
        "was not replaced. Use '-f' to force overwriting existing file.",
    );
    assertEquals(server.log.filter((entry) => entry.path.includes("/export/")).length, exports);
  }
  assertEquals(await listDir(dir.path), before);
  const forced = await repo(server, ["templates", "export", "-T", "tpl-a", "-p", dir.path, "-f"]);
  assertEquals(forced.code, 0, forced.stderr);
});

Deno.test("records export -T exports several records", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const a = await createRecord(server, "one");
  const b = await createRecord(server, "two");
  await ok(server, ["export", "-T", `${a},${b}`, "-p", dir.path, "-e", "rdf"]);
  assertEquals(await listDir(dir.path), ["one.ttl", "two.ttl"]);
});

Deno.test("records export-metadata writes and pipes the extras as JSON", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "extras");
  await ok(server, ["add-metadatum", "-r", String(id), "-m", "t", "-v", "3", "-t", "integer"]);
  const written = await ok(server, ["export-metadata", "-r", String(id), "-p", dir.path]);
  assertStringIncludes(written.stderr, "Exported the metadata");
  const [name] = await listDir(dir.path);
  const data = JSON.parse(await Deno.readTextFile(`${dir.path}/${name}`));
  assertStringIncludes(JSON.stringify(data), '"t"');
  await ok(server, ["export-metadata", "-r", String(id), "-p", dir.path, "-n", "meta", "-u"]);
  assertEquals(await listDir(`${dir.path}/extras`), ["meta.json"]);
  const piped = await ok(server, ["export-metadata", "-r", String(id), "-P"]);
  assertEquals(JSON.parse(piped.stdout), data);
  const pdf = await repo(server, ["records", "export-metadata", "-r", String(id), "-e", "pdf"]);
  assertEquals(pdf.code, 2);
});

Deno.test("an export or import path that does not exist is wrong usage (exit 2) and nothing is written (issue 31)", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await ok(server, ["create", "-i", "rec-a"]);
  await repo(server, ["collections", "create", "-i", "col-a"]);
  const missing = `${dir.path}/no-such-dir/x`;
  for (
    const args of [
      ["records", "export", "-R", "rec-a", "-p", missing],
      ["records", "export-metadata", "-R", "rec-a", "-p", missing],
      ["collections", "export", "-C", "col-a", "-p", missing],
      ["misc", "import-eln", "-p", `${dir.path}/none.eln`],
      ["misc", "import-json-schema", "-p", `${dir.path}/none.json`],
      ["misc", "import-shacl", "-p", `${dir.path}/none.ttl`],
    ]
  ) {
    const run = await repo(server, args);
    assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assertStringIncludes(run.stderr, "Nothing exists at");
  }
  assertEquals(await listDir(dir.path), []);
  const rdf = await repo(server, ["collections", "export", "-C", "col-a", "-e", "rdf", "-P"]);
  assertEquals(rdf.code, 1); // as the Python client (issue 31)
});
