// `collections sync` against the local server: usage, output discipline (data on stdout, status
// on stderr), --json, --dry-run, --delete's question, --template failures and exit codes.
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { managerFor, repo, tempDir } from "./_records.ts";
import { changing } from "../_server_log.ts";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

const TREE = {
  ".collection.json": JSON.stringify({ title: "Campaign" }),
  "sample-1/.record.json": JSON.stringify({
    title: "Sample 1",
    extras: [{ key: "t", type: "float", value: 2.0 }],
  }),
  "sample-1/a.csv": "1,2\n",
  "sample-2/b.txt": "b",
};

Deno.test("collections sync --from: status on stderr, nothing on stdout; a second run is up to date and changes nothing", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, TREE);
  const first = await repo(server, ["collections", "sync", "-C", "campaign", "--from", dir.path]);
  assertEquals(first.code, 0, first.stderr);
  assertEquals(first.stdout, "");
  assertStringIncludes(first.stderr, "'sample-1' → sample-1: created; added to the collection");
  assertStringIncludes(first.stderr, "Synced collection 'campaign': 2 record(s), 2 created");
  const mark = server.log.length;
  const again = await repo(server, ["collections", "sync", "-C", "campaign", "--from", dir.path]);
  assertEquals(again.code, 0);
  assertStringIncludes(again.stderr, "sample-2: up to date");
  assertEquals(changing(server, mark), []);
  const json = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--to",
    `${dir.path}/out`,
    "--json",
  ]);
  assertEquals(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout);
  assertEquals(parsed.complete, true);
  assertEquals(parsed.records.map((r: { identifier: string }) => r.identifier), [
    "sample-1",
    "sample-2",
  ]);
  assertStringIncludes(
    await Deno.readTextFile(`${dir.path}/out/sample-1/.record.json`),
    '"value": 2.0',
  );
});

Deno.test("collections sync --dry-run prints the plan on stdout and changes nothing", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, TREE);
  const mark = server.log.length;
  const dry = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--from",
    dir.path,
    "--dry-run",
  ]);
  assertEquals(dry.code, 0, dry.stderr);
  assertStringIncludes(dry.stdout, "Dry run: collection campaign: would create");
  assertStringIncludes(dry.stdout, "Dry run: would sync 'sample-1' → sample-1: created");
  assertStringIncludes(dry.stdout, "upload 1 (");
  assertEquals(changing(server, mark), []);
});

Deno.test("collections sync: usage errors exit 2", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const cases = [
    ["collections", "sync", "-C", "c"],
    ["collections", "sync", "-C", "c", "--from", dir.path, "--to", dir.path],
    ["collections", "sync", "-C", "c", "--from", dir.path, "--shard", "4/3"],
    ["collections", "sync", "-C", "c", "--to", dir.path, "--template", "t"],
  ];
  for (const args of cases) {
    const run = await repo(server, args);
    assertEquals(run.code, 2, args.join(" "));
    assert(!run.stderr.includes("    at "), run.stderr);
  }
  const help = await repo(server, ["collections", "sync", "--help"]);
  assertStringIncludes(help.stdout, ".record.json");
  assertStringIncludes(help.stdout, "--shard 3/8");
  assertStringIncludes(help.stdout, "CANNOT be restored");
});

Deno.test("collections sync --delete without -y and no terminal refuses before anything changes", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await writeTree(dir.path, TREE);
  await repo(server, ["collections", "sync", "-C", "campaign", "--from", dir.path]);
  await Deno.remove(`${dir.path}/sample-2/b.txt`);
  const mark = server.log.length;
  const run = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--from",
    dir.path,
    "--delete",
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "add -y/--yes");
  assertEquals(changing(server, mark), []);
  const yes = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--from",
    dir.path,
    "--delete",
    "-y",
  ]);
  // sample-2's folder is now empty: an empty source deletes nothing without --allow-empty-source.
  assertEquals(yes.code, 1, yes.stderr);
  assertEquals(changing(server, mark), []);
  const empty = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--from",
    dir.path,
    "--delete",
    "-y",
    "--allow-empty-source",
  ]);
  assertEquals(empty.code, 0, empty.stderr);
  await using manager = managerFor(server);
  const record = await manager.record({ identifier: "sample-2" });
  assertEquals(await record.getNumberFiles(), 0);
});

Deno.test("collections sync --template: every problem named with folder and key, exit 1, nothing created", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await using manager = managerFor(server);
  await manager.template({
    identifier: "tpl",
    create: true,
    type: "extras",
    data: [{ key: "t", type: "int", value: null, validation: { required: true } }],
  });
  await writeTree(dir.path, TREE);
  const mark = server.log.length;
  const run = await repo(server, [
    "collections",
    "sync",
    "-C",
    "campaign",
    "--from",
    dir.path,
    "--template",
    "tpl",
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(
    run.stderr,
    "Cannot sync 'sample-1': extra 't' is float, the template says int",
  );
  assertStringIncludes(run.stderr, "Cannot sync 'sample-2': extra 't' is missing");
  assertEquals(changing(server, mark), []);
});
