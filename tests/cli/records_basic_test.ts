import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, managerFor, ok, repo } from "./_records.ts";
import { runCli, tempHome, writeLocalConfig } from "./_run.ts";

Deno.test("records create -p prints only the id; again it opens the record and renames it", async () => {
  await using server = await startServer();
  const first = await repo(server, ["records", "create", "-i", "sample-1", "-t", "Sample", "-p"]);
  assertEquals(first.code, 0, first.stderr);
  const id = Number(first.stdout.trim());
  assertEquals(first.stdout, `${id}\n`);
  const again = await repo(server, ["records", "create", "-i", "sample-1", "-t", "Renamed"]);
  assertEquals(again.code, 0, again.stderr);
  assertStringIncludes(again.stderr, "Changed the title");
  assertStringIncludes(again.stderr, "exists already");
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  assertEquals((await record.meta()).title, "Renamed");
  assertEquals((await record.meta()).visibility, "private");
});

Deno.test("records create -e exits 1 when the record existed; -v public creates a public record", async () => {
  await using server = await startServer();
  const created = await repo(server, ["records", "create", "-i", "pub", "-v", "public", "-e"]);
  assertEquals(created.code, 0, created.stderr);
  assertStringIncludes(created.stderr, "Created record 'pub'");
  const existed = await repo(server, ["records", "create", "-i", "pub", "-e", "-p"]);
  assertEquals(existed.code, 1);
  assertStringIncludes(existed.stderr, "Error: Nothing was created");
  assertEquals(existed.stdout.trim(), String(Number(existed.stdout.trim())));
  await using manager = managerFor(server);
  assertEquals((await (await manager.record({ identifier: "pub" })).meta()).visibility, "public");
});

Deno.test("records, collections, groups and templates create without -i exit 1, as the Python client (issue 31)", async () => {
  await using server = await startServer();
  for (const type of ["collections", "groups", "templates"]) {
    const other = await repo(server, [type, "create", "-t", "x"]);
    assertEquals(other.code, 1, other.stderr);
    assertStringIncludes(other.stderr, "-i/--identifier");
  }
  const run = await repo(server, ["records", "create"]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "--identifier");
});

Deno.test("records edit changes each given attribute once and reports unchanged ones", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "editable");
  const run = await ok(server, [
    "edit",
    "-r",
    String(id),
    "-t",
    "New title",
    "-d",
    "Some **text**",
    "-y",
    "sample",
    "-l",
    "CC-BY-4.0",
    "-v",
    "private",
  ]);
  assertStringIncludes(run.stderr, "The visibility of the record");
  assertStringIncludes(run.stderr, "is already 'private'");
  assertStringIncludes(run.stderr, "to 'CC-BY-4.0'");
  const patches = server.log.filter((entry) => entry.method === "PATCH");
  assertEquals(patches.length, 4);
  await using manager = managerFor(server);
  const meta = await (await manager.record({ id })).meta();
  assertEquals([meta.title, meta.description, meta.type, meta.license], [
    "New title",
    "Some **text**",
    "sample",
    "CC-BY-4.0",
  ]);
  const bad = await repo(server, ["records", "edit", "-R", "editable", "-l", "no-such-license"]);
  assertEquals(bad.code, 1);
  assertStringIncludes(bad.stderr, "Error: [400]");
});

Deno.test("records show-info prints description, visibility, a file page and sorted metadata", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "info");
  await ok(server, ["edit", "-r", String(id), "-d", "About it"]);
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "x", "-n", "a.txt"]);
  await ok(server, ["add-metadatum", "-r", String(id), "-m", "t", "-v", "2", "-t", "integer"]);
  const run = await ok(server, ["show-info", "-R", "info", "-d", "-v", "-l", "-m"]);
  assertStringIncludes(run.stdout, `Record 'info' (id: ${id}, identifier: 'info')`);
  assertStringIncludes(run.stdout, "Description: About it");
  assertStringIncludes(run.stdout, "Visibility: private");
  assertStringIncludes(run.stdout, "Found 1 file(s) on 1 page(s)");
  assertStringIncludes(run.stdout, "  a.txt (id: ");
  assertStringIncludes(
    run.stdout,
    '"key": "t",\n    "type": "int",\n    "unit": null,\n    "value": 2',
  );
  const json = await ok(server, ["show-info", "-r", String(id), "--json", "-l"]);
  const parsed = JSON.parse(json.stdout);
  assertEquals([parsed.id, parsed.identifier, parsed.files.length], [id, "info", 1]);
});

Deno.test("records delete needs --i-am-sure (exit 1), then moves the record to the trash", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "doomed");
  const refused = await repo(server, ["records", "delete", "-r", String(id)]);
  assertEquals(refused.code, 1);
  assertStringIncludes(refused.stderr, "--i-am-sure");
  await ok(server, ["delete", "-r", String(id), "--i-am-sure"]);
  const gone = await repo(server, ["records", "show-info", "-r", String(id)]);
  assertEquals(gone.code, 1);
  assertNotIncludes(gone.stderr, "    at ");
});

Deno.test("records commands need a record: none or both of -r/-R exit 1, as the Python client (issue 31)", async () => {
  await using server = await startServer();
  const none = await repo(server, ["records", "show-info"]);
  assertEquals(none.code, 1);
  assertStringIncludes(none.stderr, "Please specify either the id or the identifier of the record");
  const both = await repo(server, ["records", "show-info", "-r", "1", "-R", "x"]);
  assertEquals(both.code, 1);
  for (const edit of [["-t", "x"], ["-r", "1", "-R", "x", "-t", "x"]]) {
    const run = await repo(server, ["records", "edit", ...edit]);
    assertEquals(run.code, 1, run.stderr);
    assertStringIncludes(run.stderr, "Please specify either the id or the identifier");
  }
});

Deno.test("records --xmlhelp and --commands come from the frame", async () => {
  await using server = await startServer();
  const xml = await repo(server, ["records", "add-files", "--xmlhelp"]);
  assertEquals(xml.code, 0);
  assertStringIncludes(xml.stdout, "exclude_pattern");
  const list = await repo(server, ["records", "--commands"]);
  assertEquals(list.code, 0);
  for (
    const name of ["create", "get-file", "get-record-ids", "export-metadata", "add-group-role"]
  ) {
    assertStringIncludes(list.stdout, `repo-apy records ${name}`);
  }
});

Deno.test("records create -p runs as a real process with a config file (REPO_APY_CONFIG)", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const config = `${home.dir}/custom.toml`;
  await writeLocalConfig(config, server.url, server.pat);
  const env = { REPO_APY_CONFIG: config };
  const created = await runCli(home.dir, ["records", "create", "-i", "proc", "-p"], { env });
  assertEquals(created.code, 0, created.stderr);
  assertEquals(created.stdout, `${Number(created.stdout)}\n`);
  const existed = await runCli(home.dir, ["records", "create", "-i", "proc", "-e"], { env });
  assertEquals(existed.code, 1);
  assertStringIncludes(existed.stderr, "Error: Nothing was created");
  const sure = await runCli(home.dir, ["records", "delete", "-R", "proc"], { env });
  assertEquals(sure.code, 1);
});
