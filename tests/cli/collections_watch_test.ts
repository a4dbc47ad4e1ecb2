// `collections sync --from DIR --watch` as a real process against the local server: a new record
// folder becomes a record with its files (JSON events on stdout, names relative to DIR), a second
// watcher refuses naming the first, SIGTERM stops it with exit 130; bad combinations are usage
// errors with nothing sent.
import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { managerFor, repo, tempDir } from "./_records.ts";
import { spawnCli, tempHome, writeLocalConfig } from "./_run.ts";
import { type Event, event, Lines } from "./_watch_lines.ts";

/** The collection's records: identifier → their sorted file names. */
async function collectionFiles(server: TestServer, identifier: string) {
  await using manager = managerFor(server);
  const collection = await manager.collection({ identifier });
  const found: Record<string, string[]> = {};
  for await (const item of collection.records()) {
    const record = await manager.record({ id: item.id });
    found[item.identifier] = (await Array.fromAsync(record.files())).map((f) => f.name).sort();
  }
  return found;
}

Deno.test("collections sync --watch: refuses --delete, --to, --dry-run, --shard, --template (usage, nothing sent)", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const base = ["collections", "sync", "-C", "campaign"];
  const cases: [string[], string][] = [
    [["--from", dir.path, "--watch", "--delete"], "never deletes"],
    [["--to", dir.path, "--watch"], "give --from"],
    [["--from", dir.path, "--watch", "--dry-run"], "leave out --dry-run"],
    [["--from", dir.path, "--watch", "--shard", "1/2"], "does not take --shard"],
    [["--from", dir.path, "--watch", "--template", "t"], "does not take --template"],
    [["--from", dir.path, "--rescan", "5"], "--rescan is for --watch"],
  ];
  for (const [args, text] of cases) {
    const before = server.log.length;
    const run = await repo(server, [...base, ...args]);
    assertEquals(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
    assertStringIncludes(run.stderr, text);
    assertEquals(server.log.slice(before).filter((entry) => entry.method !== "GET").length, 0);
  }
});

Deno.test("collections sync --watch --json: a new record folder becomes a record with its files, a second watcher refuses, SIGTERM exits 130", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const data = `${home.dir}/campaign`;
  await Deno.mkdir(`${data}/sample-1`, { recursive: true });
  await Deno.writeTextFile(`${data}/sample-1/.record.json`, JSON.stringify({ title: "S 1" }));
  await Deno.writeTextFile(`${data}/sample-1/before.txt`, "there at the start");
  const args = ["collections", "sync", "-C", "campaign", "--from", data, "--watch", "--json"];
  const child = spawnCli(home.dir, [...args, "--settle", "0.3", "--rescan", "1"]);
  const stderr = new Response(child.stderr).text();
  const lines = new Lines(child.stdout);
  const ready = JSON.parse(await lines.next(event("ready"))) as Event;
  assertEquals([ready.files, ready.equal], [1, 0]);
  await lines.next(event("stored", "sample-1/before.txt"));
  await Deno.mkdir(`${data}/sample-2`);
  await Deno.writeTextFile(`${data}/sample-2/new.csv`, "1,2,3\n");
  const stored = JSON.parse(await lines.next(event("stored", "sample-2/new.csv"))) as Event;
  assertEquals([stored.size, stored.action], [6, "upload"]);

  const second = spawnCli(home.dir, args);
  const refused = await second.output();
  assertEquals(refused.code, 1);
  const text = new TextDecoder().decode(refused.stderr);
  assertStringIncludes(text, `PID ${child.pid}`);
  assertStringIncludes(text, "into the collection 'campaign'");

  // Windows has no SIGTERM to catch: there Ctrl-C's signal stops a watcher.
  child.kill(Deno.build.os === "windows" ? "SIGINT" : "SIGTERM");
  const { code } = await child.status;
  const last = JSON.parse((await lines.rest()).trim().split("\n").at(-1)!) as Event;
  assertEquals(last.type, "stopped");
  assertEquals(code, 130);
  assertStringIncludes(await stderr, "Stopped watching");
  assertEquals(await collectionFiles(server, "campaign"), {
    "sample-1": ["before.txt"],
    "sample-2": ["new.csv"],
  });
});
