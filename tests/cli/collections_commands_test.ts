import { assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { managerFor, repo, tempDir } from "./_records.ts";
import { createdId, must } from "./_resources.ts";
import { runCli, tempHome, writeLocalConfig } from "./_run.ts";

Deno.test("collections: a tree of a parent, two children and records in each, shown by show-info -s -r", async () => {
  await using server = await startServer();
  const parent = await createdId(server, ["collections", "create", "-i", "parent", "-t", "Parent"]);
  await must(server, ["collections", "create", "-i", "child-a", "-t", "Child A"]);
  await must(server, ["collections", "create", "-i", "child-b", "-t", "Child B"]);
  for (const child of ["child-a", "child-b"]) {
    const linked = await must(server, [
      "collections",
      "add-collection-link",
      "-c",
      String(parent),
      "-L",
      child,
    ]);
    assertStringIncludes(linked.stderr, "a child of the collection 'Parent'");
  }
  const records: [string, string][] = [["r-top", "parent"], ["r-a1", "child-a"], [
    "r-a2",
    "child-a",
  ], ["r-b", "child-b"]];
  for (const [record, collection] of records) {
    await must(server, ["records", "create", "-i", record]);
    await must(server, ["collections", "add-record-link", "-C", collection, "-R", record]);
  }
  const again = await must(server, [
    "collections",
    "add-record-link",
    "-C",
    "child-a",
    "-R",
    "r-a1",
  ]);
  assertStringIncludes(again.stderr, "is in the collection 'Child A'");

  const info = await must(server, ["collections", "show-info", "-C", "parent", "-s", "-r"]);
  const tree = info.stdout.split("\n").slice(1, -1);
  assertEquals(tree.map((line) => line.replace(/id: \d+/g, "id: N")), [
    "Collection 'Parent' (id: N): 1 record",
    "├── record id: N, identifier: 'r-top', title: 'r-top'",
    "├── collection id: N, identifier: 'child-a', title: 'Child A', 2 records",
    "│   ├── record id: N, identifier: 'r-a1', title: 'r-a1'",
    "│   └── record id: N, identifier: 'r-a2', title: 'r-a2'",
    "└── collection id: N, identifier: 'child-b', title: 'Child B', 1 record",
    "    └── record id: N, identifier: 'r-b', title: 'r-b'",
  ]);

  const json = await must(server, ["collections", "show-info", "-C", "parent", "-s", "--json"]);
  const parsed = JSON.parse(json.stdout);
  assertEquals(parsed.identifier, "parent");
  assertEquals(
    parsed.subcollections.children.map((c: { identifier: string }) => c.identifier).sort(),
    ["child-a", "child-b"],
  );

  await must(server, ["collections", "remove-record-link", "-C", "child-a", "-R", "r-a2"]);
  await must(server, ["collections", "remove-collection-link", "-C", "parent", "-L", "child-b"]);
  const after = await must(server, ["collections", "show-info", "-C", "parent", "-s"]);
  assertMatch(
    after.stdout,
    /\n└── collection id: \d+, identifier: 'child-a', title: 'Child A', 1 record\n$/,
  );
  const nested = await must(server, ["collections", "show-info", "-C", "parent", "-s", "--json"]);
  assertEquals(JSON.parse(nested.stdout).subcollections.children[0].children, []);
});

Deno.test("collections create/edit/delete: get-or-create, one change per attribute, --i-am-sure", async () => {
  await using server = await startServer();
  const id = await createdId(server, ["collections", "create", "-i", "c1", "-v", "public"]);
  const existed = await repo(server, ["collections", "create", "-i", "c1", "-e"]);
  assertEquals(existed.code, 1);
  assertStringIncludes(existed.stderr, "existed already (-e/--exit-not-created)");
  const edit = await must(server, [
    "collections",
    "edit",
    "-c",
    String(id),
    "-t",
    "Renamed",
    "-d",
    "About it",
    "-v",
    "public",
  ]);
  assertStringIncludes(edit.stderr, "Changed the title of the collection");
  assertStringIncludes(
    edit.stderr,
    "The visibility of the collection 'c1' (id: 1, identifier: 'c1') is already 'public'",
  );
  const info = await must(server, ["collections", "show-info", "-C", "c1", "-d", "-v"]);
  assertStringIncludes(info.stdout, "Description: About it\nVisibility: public\n");
  const unsure = await repo(server, ["collections", "delete", "-C", "c1"]);
  assertEquals(unsure.code, 1);
  assertStringIncludes(unsure.stderr, "--i-am-sure");
  const deleted = await must(server, ["collections", "delete", "-C", "c1", "--i-am-sure"]);
  assertStringIncludes(deleted.stderr, "Deleted the collection 'Renamed'");
  const missing = await repo(server, ["collections", "show-info", "-C", "c1"]);
  assertEquals(missing.code, 1);
  const usage = await repo(server, ["collections", "edit", "-t", "x"]);
  assertEquals(usage.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  assertStringIncludes(usage.stderr, "--collection-id or --collection-identifier");
});

Deno.test("collections add-tag says when the tag was there already, as records add-tag does", async () => {
  await using server = await startServer();
  await createdId(server, ["collections", "create", "-i", "tag-twice"]);
  const first = await must(server, ["collections", "add-tag", "-C", "tag-twice", "-t", "raman"]);
  assertStringIncludes(first.stderr, "Added the tag 'raman' to the collection");
  const again = await must(server, ["collections", "add-tag", "-C", "tag-twice", "-t", "Raman"]);
  assertStringIncludes(again.stderr, "has the tag 'raman' already");
  assertEquals(again.stderr.includes("Added"), false);
});

Deno.test("collections tags, search by tag, get-collection-ids with a custom separator", async () => {
  await using server = await startServer();
  const a = await createdId(server, ["collections", "create", "-i", "tagged-a"]);
  const b = await createdId(server, ["collections", "create", "-i", "tagged-b"]);
  await createdId(server, ["collections", "create", "-i", "untagged"]);
  await must(server, ["collections", "add-tag", "-C", "tagged-a", "-t", "Calibrated,2026"]);
  await must(server, ["collections", "add-tag", "-C", "tagged-b", "-t", "calibrated"]);
  const and = await must(server, [
    "collections",
    "get-collections",
    "-t",
    "calibrated,2026",
    "-T",
    "and",
  ]);
  assertStringIncludes(and.stdout, "Found 1 collection(s)");
  assertStringIncludes(and.stdout, "identifier: 'tagged-a'");
  const ids = await must(server, [
    "collections",
    "get-collection-ids",
    "-t",
    "calibrated",
    "-p",
    "-s",
    ";",
  ]);
  assertEquals(ids.stdout.trim().split(";").map(Number).sort(), [a, b].sort());
  const json = await must(server, ["collections", "get-collection-ids", "--json"]);
  assertEquals(JSON.parse(json.stdout).length, 3);
  const removed = await must(server, [
    "collections",
    "remove-tag",
    "-C",
    "tagged-b",
    "-t",
    "calibrated",
  ]);
  assertStringIncludes(removed.stderr, "Removed the tag 'calibrated'");
  const none = await must(server, [
    "collections",
    "remove-tag",
    "-C",
    "tagged-b",
    "-t",
    "calibrated",
  ]);
  assertStringIncludes(none.stderr, "has no tag 'calibrated'");
  const mine = await must(server, ["collections", "get-collections", "-i", "-n", "2", "--json"]);
  assertEquals(JSON.parse(mine.stdout).length, 3);
  const minePage = await must(server, [
    "collections",
    "get-collections",
    "-i",
    "-n",
    "2",
    "-p",
    "1",
    "--json",
  ]);
  assertEquals(JSON.parse(minePage.stdout)._pagination.total_items, 3);
  const excluded = await repo(server, ["collections", "get-collections", "-i", "-q", "x"]);
  assertEquals(excluded.code, 2);
});

Deno.test("collections roles: add-user, change, remove-user with a second user; group roles", async () => {
  await using server = await startServer({ users: [{ username: "jdoe", displayname: "J. Doe" }] });
  await must(server, ["collections", "create", "-i", "shared"]);
  const added = await must(server, [
    "collections",
    "add-user",
    "-C",
    "shared",
    "-U",
    "jdoe",
    "-D",
    "local",
    "-p",
    "collaborator",
  ]);
  assertStringIncludes(added.stderr, "Gave J. Doe");
  assertStringIncludes(added.stderr, "the role 'collaborator'");
  const changed = await must(server, [
    "collections",
    "add-user",
    "-C",
    "shared",
    "-u",
    "2",
    "-p",
    "editor",
  ]);
  assertStringIncludes(changed.stderr, "Changed the role of J. Doe");
  await using jdoe = managerFor({ ...server, pat: server.users[1]!.pat });
  const seen = await jdoe.collection({ identifier: "shared" });
  await seen.edit({ title: "Edited by jdoe" });
  await must(server, ["collections", "remove-user", "-C", "shared", "-u", "2"]);
  assertEquals(
    (await repo(server, ["collections", "add-user", "-C", "shared", "-u", "2", "-p", "owner"]))
      .code,
    2,
  );
  await must(server, ["groups", "create", "-i", "lab"]);
  const group = await must(server, ["collections", "add-group-role", "-C", "shared", "-G", "lab"]);
  assertStringIncludes(group.stderr, "the role 'member'");
  const regroup = await must(server, [
    "collections",
    "add-group-role",
    "-C",
    "shared",
    "-G",
    "lab",
    "-p",
    "admin",
  ]);
  assertStringIncludes(regroup.stderr, "to 'admin'");
  await must(server, ["collections", "remove-group-role", "-C", "shared", "-G", "lab"]);
});

Deno.test("collections export: json to stdout, rdf to a folder named after the identifier", async () => {
  await using server = await startServer();
  await must(server, ["collections", "create", "-i", "exported", "-t", "Exported"]);
  await must(server, ["records", "create", "-i", "inside"]);
  await must(server, ["collections", "add-record-link", "-C", "exported", "-R", "inside"]);
  const piped = await must(server, ["collections", "export", "-C", "exported", "-P"]);
  assertEquals(JSON.parse(piped.stdout).identifier, "exported");
  const refused = await repo(server, ["collections", "export", "-C", "exported", "-e", "qr", "-P"]);
  assertEquals(refused.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  await using dir = await tempDir();
  const written = await must(server, [
    "collections",
    "export",
    "-C",
    "exported",
    "-e",
    "rdf",
    "-p",
    dir.path,
    "-u",
  ]);
  assertStringIncludes(written.stderr, "as rdf to");
  const text = await Deno.readTextFile(`${dir.path}/exported/exported.ttl`);
  assertStringIncludes(text, "inside");
});

Deno.test("collections, templates, groups, users and misc run as a real process (lazily loaded groups)", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const config = `${home.dir}/custom.toml`;
  await writeLocalConfig(config, server.url, server.pat);
  const env = { REPO_APY_CONFIG: config };
  const created = await runCli(home.dir, ["collections", "create", "-i", "proc", "-p"], { env });
  assertEquals([created.code, created.stdout], [0, "1\n"], created.stderr);
  for (
    const args of [
      ["templates", "get-templates"],
      ["groups", "get-groups"],
      ["users", "get-users"],
      ["misc", "get-tags"],
    ]
  ) {
    const run = await runCli(home.dir, args, { env });
    assertEquals(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
    assertStringIncludes(run.stdout, "Found ");
  }
  const help = await runCli(home.dir, ["collections", "show-info", "--help"]);
  assertEquals(help.code, 0);
  assertStringIncludes(help.stdout, "-s, --subcollections");
});

Deno.test("titles and identifiers from the server reach the terminal without control characters", async () => {
  await using server = await startServer();
  await using manager = managerFor(server);
  await manager.collection({ identifier: "hostile", create: true, title: "Red\x1b[31m\x07Fake" });
  const list = await must(server, ["collections", "get-collections"]);
  assertStringIncludes(list.stdout, "title: 'Red?[31m?Fake'");
  const info = await must(server, ["collections", "show-info", "-C", "hostile"]);
  assertEquals([...info.stdout].filter((c) => c < " " && c !== "\n"), []);
  const json = await must(server, ["collections", "show-info", "-C", "hostile", "--json"]);
  assertEquals(JSON.parse(json.stdout).title, "Red\x1b[31m\x07Fake");
});

Deno.test("collections add-collection-link: an existing child is nothing to do (exit 0), a cycle an error (exit 1)", async () => {
  await using server = await startServer();
  for (const identifier of ["top", "mid", "low", "other"]) {
    await must(server, ["collections", "create", "-i", identifier]);
  }
  await must(server, ["collections", "add-collection-link", "-C", "top", "-L", "mid"]);
  await must(server, ["collections", "add-collection-link", "-C", "mid", "-L", "low"]);
  const again = await repo(server, [
    "collections",
    "add-collection-link",
    "-C",
    "top",
    "-L",
    "mid",
  ]);
  assertEquals(again.code, 0, again.stderr);
  assertEquals(again.stdout, "");
  assertStringIncludes(again.stderr, "already exists. Nothing to do.");
  for (const [parent, child] of [["low", "top"], ["mid", "top"], ["low", "low"]]) {
    const cycle = await repo(server, [
      "collections",
      "add-collection-link",
      "-C",
      parent!,
      "-L",
      child!,
    ]);
    assertEquals(cycle.code, 1, `${parent} -> ${child}`);
    assertStringIncludes(cycle.stderr, "that would be a cycle");
  }
  const elsewhere = await repo(server, [
    "collections",
    "add-collection-link",
    "-C",
    "other",
    "-L",
    "low",
  ]);
  assertEquals(elsewhere.code, 1);
  assertStringIncludes(elsewhere.stderr, "another parent already");
});
