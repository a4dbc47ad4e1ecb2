// --dry-run (issue 9): says what would be sent, written or deleted, and changes nothing.

import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { createRecord, listDir, managerFor, ok, repo, tempDir } from "./_records.ts";

/** Requests that could change something, logged from `from` on. */
function changes(server: TestServer, from: number) {
  return server.log.slice(from).filter((entry) => !["GET", "HEAD"].includes(entry.method))
    .map((entry) => `${entry.method} ${entry.path}`);
}

Deno.test("add-files --dry-run lists the files it would send and sends nothing", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "dry-up"));
  await Deno.writeTextFile(`${dir.path}/a.h5`, "aaaa");
  await Deno.writeTextFile(`${dir.path}/b.txt`, "b");
  const from = server.log.length;
  const run = await ok(server, ["add-files", "-r", id, "-n", dir.path, "-p", "*.h5", "--dry-run"]);
  assertStringIncludes(run.stdout, `Dry run: would upload '${dir.path}/a.h5' (4 B) as 'a.h5'`);
  assertEquals(run.stdout.includes("b.txt"), false);
  assertEquals(changes(server, from), []);
  await using manager = managerFor(server);
  assertEquals(await Array.fromAsync((await manager.record({ id: Number(id) })).files()), []);
});

Deno.test("add-files --dry-run asks the library: what it would skip, and the clashes that would stop it", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "dry-plan"));
  await Deno.writeTextFile(`${dir.path}/a.txt`, "same");
  await ok(server, ["add-files", "-r", id, "-n", `${dir.path}/a.txt`]);
  await Deno.writeTextFile(`${dir.path}/b.txt`, "new");
  const from = server.log.length;
  const run = await ok(server, [
    "add-files",
    "-r",
    id,
    "-n",
    dir.path,
    "--skip-existing",
    "--dry-run",
  ]);
  assertStringIncludes(run.stdout, `Dry run: would upload '${dir.path}/b.txt' (3 B) as 'b.txt'`);
  assertEquals(run.stdout.includes("would upload '" + dir.path + "/a.txt'"), false);
  assertStringIncludes(run.stderr + run.stdout, "Would skip 'a.txt'");
  await Deno.writeTextFile(`${dir.path}/a.txt`, "other");
  const clash = await repo(server, ["records", "add-files", "-r", id, "-n", dir.path, "--dry-run"]);
  assertEquals(clash.code, 1);
  assertStringIncludes(clash.stderr, "'a.txt'");
  assertEquals(changes(server, from), []);
});

Deno.test("get-file --dry-run says what it would write and writes nothing", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "dry-down"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "hello", "-n", "a.txt"]);
  const from = server.log.length;
  const run = await ok(server, ["get-file", "-r", id, "-p", `${dir.path}/out`, "--dry-run"]);
  assertStringIncludes(run.stdout, `Dry run: would download 'a.txt' (5 B)`);
  assertStringIncludes(run.stdout, `into '${dir.path}/out/'`);
  assertEquals(await listDir(dir.path), []);
  assertEquals(changes(server, from), []);
});

Deno.test("delete-type commands with --dry-run delete nothing (and need no --i-am-sure)", async () => {
  await using server = await startServer();
  const id = String(await createRecord(server, "dry-delete"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "x", "-n", "keep.txt"]);
  await ok(server, ["add-metadatum", "-r", id, "-m", "temperature", "-v", "20", "-t", "float"]);
  const expected: [string[], string][] = [
    [["delete", "-r", id], "Dry run: would delete the record 'dry-delete'"],
    [["delete-file", "-r", id, "-n", "keep.txt"], "would delete the file 'keep.txt'"],
    [["delete-files", "-r", id], "would delete the file 'keep.txt'"],
    [
      ["delete-metadatum", "-r", id, "-m", "temperature"],
      "would delete the metadatum 'temperature'",
    ],
    [["delete-all-metadata", "-r", id], "would delete the metadatum 'temperature'"],
    [["remove-tag", "-r", id, "-t", "keep"], "would remove the tag 'keep'"],
  ];
  await ok(server, ["add-tag", "-r", id, "-t", "keep"]);
  await repo(server, ["collections", "create", "-i", "dry-collection"]);
  // Purging needs an item in the trash (the dry run checks that as the real run would).
  const binned = String(await createRecord(server, "dry-binned"));
  await ok(server, ["delete", "-r", binned, "--i-am-sure"]);
  const from = server.log.length;
  for (const [args, text] of expected) {
    const run = await ok(server, [...args, "--dry-run"]);
    assertStringIncludes(run.stdout, text);
  }
  const collection = await repo(server, [
    "collections",
    "delete",
    "-C",
    "dry-collection",
    "--dry-run",
  ]);
  assertStringIncludes(collection.stdout, "Dry run: would delete the collection");
  const purge = await repo(server, [
    "misc",
    "purge-resource",
    "-t",
    "record",
    "-i",
    binned,
    "--dry-run",
  ]);
  assertStringIncludes(purge.stdout, "Dry run: would purge the record 'dry-binned'");
  assertEquals(changes(server, from), []);
  await using manager = managerFor(server);
  const record = await manager.record({ id: Number(id) });
  assertEquals((await record.meta()).state, "active");
  assertEquals((await Array.fromAsync(record.files())).map((file) => file.name), ["keep.txt"]);
  assertEquals((await record.meta()).extras?.length, 1);
});

Deno.test("removing commands of every group take --dry-run and change nothing", async () => {
  await using server = await startServer({ users: [{ username: "jdoe", displayname: "J. Doe" }] });
  const id = String(await createRecord(server, "dry-rm"));
  const target = String(await createRecord(server, "dry-target"));
  await repo(server, ["collections", "create", "-i", "dry-c"]);
  await repo(server, ["collections", "create", "-i", "dry-child"]);
  await repo(server, ["templates", "create", "-i", "dry-t", "-y", "record"]);
  await repo(server, ["groups", "create", "-i", "dry-g"]);
  const link = await ok(server, ["add-record-link", "-r", id, "-n", "uses", "-l", target]);
  const linkId = /link id: (\d+)/.exec(link.stderr)![1]!;
  const setup: string[][] = [
    ["records", "add-collection-link", "-r", id, "-C", "dry-c"],
    ["records", "add-user", "-r", id, "-u", "2", "-p", "member"],
    ["records", "add-group-role", "-r", id, "-G", "dry-g", "-p", "member"],
    ["collections", "add-collection-link", "-C", "dry-c", "-L", "dry-child"],
    ["collections", "add-tag", "-C", "dry-c", "-t", "keep"],
    ["groups", "add-user", "-G", "dry-g", "-u", "2", "-p", "member"],
  ];
  for (const type of ["collections", "templates"]) {
    const flag = type === "collections" ? "-C" : "-T";
    const name = type === "collections" ? "dry-c" : "dry-t";
    setup.push([type, "add-user", flag, name, "-u", "2", "-p", "member"]);
    setup.push([type, "add-group-role", flag, name, "-G", "dry-g", "-p", "member"]);
  }
  for (const args of setup) {
    const run = await repo(server, args);
    assertEquals(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
  }
  const expected: [string[], string][] = [
    [["records", "delete-record-link", "-r", id, "-l", linkId], `would delete the link ${linkId}`],
    [["records", "remove-collection-link", "-r", id, "-C", "dry-c"], "would remove the record"],
    [["records", "remove-user", "-r", id, "-u", "2"], "would remove J. Doe"],
    [["records", "remove-group-role", "-r", id, "-G", "dry-g"], "would remove the group"],
    [["collections", "remove-record-link", "-C", "dry-c", "-r", id], "would remove the record"],
    [
      ["collections", "remove-collection-link", "-C", "dry-c", "-L", "dry-child"],
      "would remove the child",
    ],
    [["collections", "remove-tag", "-C", "dry-c", "-t", "keep"], "would remove the tag 'keep'"],
    [["collections", "remove-user", "-C", "dry-c", "-u", "2"], "would remove J. Doe"],
    [["collections", "remove-group-role", "-C", "dry-c", "-G", "dry-g"], "would remove the group"],
    [["templates", "remove-user", "-T", "dry-t", "-u", "2"], "would remove J. Doe"],
    [["templates", "remove-group-role", "-T", "dry-t", "-G", "dry-g"], "would remove the group"],
    [["groups", "remove-user", "-G", "dry-g", "-u", "2"], "would remove J. Doe"],
  ];
  const from = server.log.length;
  for (const [args, text] of expected) {
    const run = await repo(server, [...args, "--dry-run"]);
    assertEquals(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
    assertStringIncludes(run.stdout, `Dry run: ${text}`);
  }
  assertEquals(changes(server, from), []);
});
