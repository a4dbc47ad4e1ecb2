// watchCollection() over real HTTP against the local server, stepped by an injected clock: a file
// of a record folder is stored once it settles (a growing one only whole), a new record folder
// becomes a record of the collection with its files, a changed .record.json changes the record
// and is never sent, a second watcher refuses naming the first, a restart catches up without
// sending anything twice.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { type CollectionWatchOptions, watchCollection } from "../../lib/collection_sync/watch.ts";
import { EventWatcher, is, uploadsOf } from "../transfer/_watch.ts";
import { WatchLockedError } from "../../lib/transfer/watch.ts";
import { tempDir } from "../_temp.ts";

interface Env extends AsyncDisposable {
  server: TestServer;
  manager: RepoManager;
  /** What the watchers talk through: short retries, so outages show at once. */
  transport: Transport;
  /** The collection folder. */
  dir: string;
  locks: string;
}

async function setup(): Promise<Env> {
  const server = await startServer();
  const manager = new RepoManager({ host: server.url, pat: server.pat });
  const transport = new Transport({
    settings: { host: server.url, pat: server.pat, timeout: 20 },
    retry: { minDelayMs: 5, maxDelayMs: 50 },
  });
  const temp = await tempDir();
  const dir = `${temp.path}/campaign`;
  await Deno.mkdir(dir);
  return {
    server,
    manager,
    transport,
    dir,
    locks: `${temp.path}/locks`,
    async [Symbol.asyncDispose]() {
      await manager.close();
      await transport.close();
      await server.close();
      await temp[Symbol.asyncDispose]();
    },
  };
}

/** A watcher of the collection folder with the tests' timing. */
class Watcher extends EventWatcher {
  constructor(env: Env, options: CollectionWatchOptions = {}) {
    super((signal, clock) =>
      watchCollection(env, { identifier: "campaign" }, env.dir, {
        settleMs: 5_000,
        rescanMs: 1_000,
        fileEvents: false,
        lockDir: env.locks,
        signal,
        clock,
        ...options,
      })
    );
  }
}

/** The collection's records: identifier → their file names and sizes. */
async function collectionFiles(env: Env): Promise<Map<string, Map<string, number>>> {
  const collection = await env.manager.collection({ identifier: "campaign" });
  const found = new Map<string, Map<string, number>>();
  for await (const item of collection.records()) {
    const record = await env.manager.record({ id: item.id });
    const files = await Array.fromAsync(record.files());
    found.set(item.identifier, new Map(files.map((file) => [file.name, file.size])));
  }
  return found;
}

Deno.test("watchCollection: a file of a record folder is stored once it settles, a growing one only whole", async () => {
  await using env = await setup();
  await Deno.mkdir(`${env.dir}/sample-1`);
  await Deno.writeTextFile(`${env.dir}/sample-1/a.csv`, "1,2\n");
  await Deno.writeTextFile(`${env.dir}/sample-1/.record.json`, JSON.stringify({ title: "S1" }));
  await using watcher = new Watcher(env);
  const ready = await watcher.next(is("ready"));
  assertEquals(ready.type === "ready" && ready.files, 1); // .record.json is no file
  await watcher.next(is("stored", "sample-1/a.csv"), 1_000);
  const file = await Deno.open(`${env.dir}/sample-1/run.bin`, { write: true, create: true });
  let size = 0;
  for (let step = 1; step <= 6; step++) {
    size += await file.write(new Uint8Array(1000).fill(step));
    watcher.clock.advance(1_000); // a rescan, within the settle time
    const seen = await watcher.next(is("waiting", "sample-1/run.bin"));
    assertEquals(seen.type === "waiting" && seen.size, size);
  }
  file.close();
  assertEquals(watcher.events.filter(is("stored", "sample-1/run.bin")).length, 0);
  const stored = await watcher.next(is("stored", "sample-1/run.bin"), 1_000);
  assertEquals(stored.type === "stored" && stored.size, 6000);
  const files = await collectionFiles(env);
  assertEquals([...files.keys()], ["sample-1"]);
  assertEquals(files.get("sample-1"), new Map([["a.csv", 4], ["run.bin", 6000]]));
  const record = await env.manager.record({ identifier: "sample-1" });
  assertEquals((await record.meta()).title, "S1");
});

Deno.test("watchCollection: a new record folder becomes a record of the collection, with its files", async () => {
  await using env = await setup();
  await using watcher = new Watcher(env);
  const ready = await watcher.next(is("ready"));
  assertEquals(ready.type === "ready" && [ready.files, ready.equal], [0, 0]);
  await Deno.mkdir(`${env.dir}/Sample 2`);
  await Deno.writeTextFile(
    `${env.dir}/Sample 2/.record.json`,
    JSON.stringify({ identifier: "sample-two", title: "Sample two", tags: ["new"] }),
  );
  await Deno.writeTextFile(`${env.dir}/Sample 2/b.txt`, "bee");
  await watcher.next(is("stored", "Sample 2/b.txt"), 1_000);
  const files = await collectionFiles(env);
  assertEquals(files, new Map([["sample-two", new Map([["b.txt", 3]])]]));
  const meta = await (await env.manager.record({ identifier: "sample-two" })).meta();
  assertEquals([meta.title, meta.tags], ["Sample two", ["new"]]);
  // A folder without .record.json: identifier and title from its name.
  await Deno.mkdir(`${env.dir}/run-3`);
  await Deno.writeTextFile(`${env.dir}/run-3/c.txt`, "cc");
  await watcher.next(is("stored", "run-3/c.txt"), 1_000);
  assertEquals((await collectionFiles(env)).get("run-3"), new Map([["c.txt", 2]]));
});

Deno.test("watchCollection: a new record folder while the server is gone is retried with backoff, then made once", async () => {
  await using env = await setup();
  await using watcher = new Watcher(env);
  await watcher.next(is("ready"));
  env.server.addFault({ drop: true });
  await Deno.mkdir(`${env.dir}/sample-2`);
  await Deno.writeTextFile(`${env.dir}/sample-2/kept.txt`, "kept");
  const error = await watcher.next(is("error", "sample-2"), 1_000);
  assert(error.type === "error" && error.retryInMs !== undefined && error.retryInMs >= 500);
  env.server.clearFaults();
  const before = env.server.log.length;
  await watcher.next(is("stored", "sample-2/kept.txt"), 1_000);
  const made = env.server.log.slice(before).filter((entry) =>
    entry.method === "POST" && entry.path === "/api/v1/records"
  );
  assertEquals(made.length, 1);
  assertEquals(uploadsOf(env.server, before), 1);
  assertEquals(await collectionFiles(env), new Map([["sample-2", new Map([["kept.txt", 4]])]]));
});

Deno.test("watchCollection: a changed .record.json changes the record once it settles, and is never sent", async () => {
  await using env = await setup();
  await Deno.mkdir(`${env.dir}/sample-1`);
  await Deno.writeTextFile(`${env.dir}/sample-1/.record.json`, JSON.stringify({ title: "Old" }));
  await Deno.writeTextFile(`${env.dir}/sample-1/a.txt`, "a");
  const outcomes: string[] = [];
  await using watcher = new Watcher(env, {
    onRecord: (outcome) => outcomes.push(`${outcome.folder}:${outcome.changed.join(",")}`),
  });
  await watcher.next(is("stored", "sample-1/a.txt"), 1_000);
  await Deno.writeTextFile(
    `${env.dir}/sample-1/.record.json`,
    JSON.stringify({ title: "New title", description: "now described" }),
  );
  const record = await env.manager.record({ identifier: "sample-1" });
  for (let step = 0; step < 40 && (await record.refresh()).title !== "New title"; step++) {
    watcher.clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  const meta = await record.refresh();
  assertEquals([meta.title, meta.description], ["New title", "now described"]);
  assert(
    outcomes.some((line) => line.startsWith("sample-1:") && line.includes("title")),
    outcomes.join(" | "),
  );
  assertEquals(await collectionFiles(env), new Map([["sample-1", new Map([["a.txt", 1]])]]));
  assertEquals(
    watcher.events.filter((event) => "name" in event && event.name?.endsWith(".record.json")),
    [],
  );
});

Deno.test("watchCollection: a second watcher of the same folder and collection refuses, naming the first", async () => {
  await using env = await setup();
  await using first = new Watcher(env);
  await first.next(is("ready"));
  const events = watchCollection(env.manager, { identifier: "campaign" }, env.dir, {
    lockDir: env.locks,
  });
  const error = await assertRejects(() => events.next(), WatchLockedError);
  assertEquals(error.owner?.pid, Deno.pid);
  assertEquals(error.owner?.collection, "campaign");
  assert(error.message.includes(`PID ${Deno.pid}`), error.message);
  assert(error.message.includes("collection 'campaign'"), error.message);
  // Once the first stops, the lock is free.
  first.controller.abort();
  await first.done;
  await using second = new Watcher(env);
  await second.next(is("ready"));
});

Deno.test("watchCollection: a restarted watcher catches up and sends nothing twice", async () => {
  await using env = await setup();
  await Deno.mkdir(`${env.dir}/sample-1`);
  await Deno.writeTextFile(`${env.dir}/sample-1/a.txt`, "first");
  {
    await using watcher = new Watcher(env);
    await watcher.next(is("stored", "sample-1/a.txt"), 1_000);
    watcher.controller.abort();
    await watcher.done;
    assert(watcher.events.at(-1)?.type === "stopped");
  }
  const before = env.server.log.length;
  // While no watcher runs: a file in the known folder, and a new record folder.
  await Deno.writeTextFile(`${env.dir}/sample-1/b.txt`, "second");
  await Deno.mkdir(`${env.dir}/sample-2`);
  await Deno.writeTextFile(`${env.dir}/sample-2/c.txt`, "third");
  await using again = new Watcher(env);
  const ready = await again.next(is("ready"));
  assertEquals(ready.type === "ready" && [ready.files, ready.equal], [3, 1]);
  assertEquals(again.events[0]?.type, "ready"); // the first event, as in the records form
  await again.next(is("stored"), 1_000);
  await again.next(is("stored"), 1_000);
  assertEquals(uploadsOf(env.server, before), 2); // b.txt and c.txt; a.txt not again
  assertEquals(
    again.events.filter(is("stored")).map((event) => "name" in event && event.name).sort(),
    ["sample-1/b.txt", "sample-2/c.txt"],
  );
  assertEquals(
    await collectionFiles(env),
    new Map([
      ["sample-1", new Map([["a.txt", 5], ["b.txt", 6]])],
      ["sample-2", new Map([["c.txt", 5]])],
    ]),
  );
});

Deno.test("watchCollection: once, a pass makes the records and sends what settled", async () => {
  await using env = await setup();
  await Deno.mkdir(`${env.dir}/sample-1`);
  await Deno.writeTextFile(`${env.dir}/sample-1/a.txt`, "a");
  const events = await Array.fromAsync(
    watchCollection(env.manager, { identifier: "campaign" }, env.dir, {
      settleMs: 0,
      once: true,
      lockDir: env.locks,
    }),
  );
  assertEquals(events.filter(is("stored")).map((event) => "name" in event && event.name), [
    "sample-1/a.txt",
  ]);
  assertEquals(events.at(-1)?.type, "stopped");
  assertEquals(await collectionFiles(env), new Map([["sample-1", new Map([["a.txt", 1]])]]));
});

Deno.test("watchCollection: once, a record that cannot be made whole is an error event; its files are still sent", async () => {
  await using env = await setup();
  await Deno.mkdir(`${env.dir}/sample-1`);
  await Deno.writeTextFile(
    `${env.dir}/sample-1/.record.json`,
    JSON.stringify({ links: [{ name: "self", record_to: { identifier: "sample-1" } }] }),
  );
  await Deno.writeTextFile(`${env.dir}/sample-1/a.txt`, "a");
  const events = await Array.fromAsync(
    watchCollection(env, { identifier: "campaign" }, env.dir, {
      settleMs: 0,
      once: true,
      lockDir: env.locks,
    }),
  );
  const error = events.find(is("error", "sample-1"));
  assert(
    error?.type === "error" && error.message.includes("link to itself"),
    JSON.stringify(events),
  );
  assertEquals(events.filter(is("stored")).map((event) => "name" in event && event.name), [
    "sample-1/a.txt",
  ]);
  assertEquals(events.at(-1)?.type, "stopped");
});
