// `records sync --from DIR --watch` (and `--settle` alone, the cron pass) as a real process
// against the local server: events on stdout, SIGTERM and SIGINT stop it with exit 130 and
// nothing half stored, a second watcher refuses naming the first, bad combinations are usage
// errors.
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { statusText } from "../../lib/cli/commands/_records_watch.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, fileNames, managerFor, repo, tempDir } from "./_records.ts";
import { spawnCli, tempHome, writeLocalConfig } from "./_run.ts";
import { type Event, event, Lines } from "./_watch_lines.ts";

async function stderrOf(child: Deno.ChildProcess): Promise<string> {
  return await new Response(child.stderr).text();
}

Deno.test("records sync --watch: refuses --delete, --to and --dry-run (usage, nothing sent)", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "watch-usage");
  const base = ["records", "sync", "-r", String(id)];
  const cases: [string[], string][] = [
    [["--from", dir.path, "--watch", "--delete"], "never deletes"],
    [["--to", dir.path, "--watch"], "give --from"],
    [["--from", dir.path, "--watch", "--dry-run"], "leave out --dry-run"],
    [["--from", dir.path, "--settle", "x"], "not a number of seconds"],
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

Deno.test("records sync --watch --json: stores new files as they settle, a second watcher refuses, SIGTERM exits 130", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const id = await createRecord(server, "watch-cli");
  const data = `${home.dir}/data`;
  await Deno.mkdir(data);
  await Deno.writeTextFile(`${data}/before.txt`, "there at the start");
  const args = ["records", "sync", "-r", String(id), "--from", data, "--watch", "--json"];
  const child = spawnCli(home.dir, [...args, "--settle", "0.3", "--rescan", "1"]);
  const stderr = stderrOf(child);
  const lines = new Lines(child.stdout);
  const ready = JSON.parse(await lines.next(event("ready"))) as Event;
  assertEquals([ready.files, ready.equal], [1, 0]);
  await lines.next(event("stored", "before.txt"));
  await Deno.mkdir(`${data}/run2`);
  await Deno.writeTextFile(`${data}/run2/new.csv`, "1,2,3\n");
  const stored = JSON.parse(await lines.next(event("stored", "run2/new.csv"))) as Event;
  assertEquals([stored.size, stored.action], [6, "upload"]);
  assertMatch(String(stored.time), /^\d{4}-\d\d-\d\dT/);

  const second = spawnCli(home.dir, args);
  const refused = await second.output();
  assertEquals(refused.code, 1);
  const text = new TextDecoder().decode(refused.stderr);
  assertStringIncludes(text, `PID ${child.pid}`);
  assertStringIncludes(text, "Another watcher already syncs");

  // Windows has no SIGTERM to catch: there Ctrl-C's signal stops a watcher.
  child.kill(Deno.build.os === "windows" ? "SIGINT" : "SIGTERM");
  const { code } = await child.status;
  const last = JSON.parse((await lines.rest()).trim().split("\n").at(-1)!) as Event;
  assertEquals(last.type, "stopped");
  assertEquals(code, 130);
  assertStringIncludes(await stderr, "Stopped watching");
  assertEquals(await fileNames(server, id), ["before.txt", "run2/new.csv"]);
});

Deno.test("records sync --watch: SIGINT during a send abandons it cleanly (exit 130); the rerun stores it whole", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const id = await createRecord(server, "watch-interrupt");
  const data = `${home.dir}/data`;
  await Deno.mkdir(data);
  const content = new Uint8Array(400_000).map((_, i) => i % 251);
  await Deno.writeFile(`${data}/big.bin`, content);
  // The upload's data is read slowly: the send is in flight for seconds.
  server.addFault({ method: "PUT", slowRequestBytesPerSecond: 50_000 });
  const args = ["records", "sync", "-r", String(id), "--from", data];
  const child = spawnCli(home.dir, [...args, "--watch", "--settle", "0"]);
  const stderr = stderrOf(child);
  const lines = new Lines(child.stdout);
  const started = () =>
    server.log.some((entry) => entry.method === "POST" && entry.path.endsWith("/uploads"));
  while (!started()) await new Promise((resolve) => setTimeout(resolve, 20));
  child.kill("SIGINT");
  const { code } = await child.status;
  assertEquals(code, 130);
  assertEquals(await lines.rest(), "");
  const text = await stderr;
  assertStringIncludes(text, "Stopped watching");
  assertStringIncludes(text, "1 not yet");
  assertEquals(await fileNames(server, id), []);

  server.clearFaults();
  const rerun = spawnCli(home.dir, [...args, "--settle", "0"]);
  const out = await rerun.output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  assertMatch(
    new TextDecoder().decode(out.stdout),
    /^\S+Z {2}stored {2}big\.bin {2}\(400\.0 kB\)\n$/,
  );
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  const body = await record.downloadFile(await record.getFileId("big.bin"));
  assertEquals(new Uint8Array(await new Response(body).arrayBuffer()), content);
});

Deno.test("records sync --settle (cron): one pass leaves a file still written for the next run", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  const id = await createRecord(server, "watch-cron");
  const data = `${home.dir}/data`;
  await Deno.mkdir(data);
  await Deno.writeTextFile(`${data}/done.txt`, "complete");
  const args = ["records", "sync", "-r", String(id), "--from", data, "--settle", "0", "--json"];
  const run = await spawnCli(home.dir, args).output();
  assertEquals(run.code, 0, new TextDecoder().decode(run.stderr));
  const events = new TextDecoder().decode(run.stdout).trim().split("\n").map((line) =>
    JSON.parse(line) as Event
  );
  assertEquals(events.map((e) => e.type), ["ready", "waiting", "stored", "stopped"]);
  // Run again with nothing new: nothing is sent.
  const before = server.log.length;
  const again = await spawnCli(home.dir, args).output();
  assertEquals(again.code, 0);
  assert(!server.log.slice(before).some((entry) => entry.path.endsWith("/uploads")));
  assertEquals(await fileNames(server, id), ["done.txt"]);
});

Deno.test("records sync --watch: the terminal's status line names files watched, waiting, the last stored and errors", () => {
  const base = { time: "2026-03-02T09:14:03.118Z", watching: 120, waiting: 2 };
  const stored = {
    ...base,
    type: "stored",
    name: "run-1/f.tif",
    size: 9,
    action: "upload",
  } as const;
  assertEquals(
    statusText("/data", { ...base, type: "waiting", name: "x", size: 1 }, undefined, 0),
    "Watching /data: 120 file(s), 2 waiting",
  );
  assertEquals(
    statusText("/data", stored, stored, 3),
    "Watching /data: 120 file(s), 2 waiting, last stored run-1/f.tif at 09:14:03, 3 error(s)",
  );
});
