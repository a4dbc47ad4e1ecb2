// watchFolder() over real HTTP against the local server, stepped by an injected clock (no
// sleeps): a growing file is stored only whole, a restarted watcher catches up without sending
// anything twice, a server outage pauses and resumes, a second watcher refuses to start, and the
// settle bookkeeping itself.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { downloadFileStream } from "../../lib/transfer/download.ts";
import { SettleTracker } from "../../lib/transfer/_settle.ts";
import {
  type WatchEvent,
  watchFolder,
  WatchLockedError,
  type WatchOptions,
} from "../../lib/transfer/watch.ts";
import { type Env, setup } from "./_helpers.ts";
import { EventWatcher, is, StepClock, uploadsOf } from "./_watch.ts";

/** A watcher of the record's folder `data` with the tests' timing. */
class Watcher extends EventWatcher {
  constructor(env: Env, options: WatchOptions = {}) {
    super((signal, clock) =>
      watchFolder(env.record, `${env.dir}/data`, {
        settleMs: 5_000,
        rescanMs: 1_000,
        fileEvents: false,
        lockDir: `${env.dir}/locks`,
        signal,
        clock,
        ...options,
      })
    );
  }
}

async function remote(env: Env): Promise<Map<string, FileJson>> {
  const files = await Array.fromAsync(env.record.files());
  return new Map(files.map((file) => [file.name, file]));
}

async function remoteBytes(env: Env, name: string): Promise<Uint8Array> {
  const file = (await remote(env)).get(name);
  assert(file !== undefined, `no file '${name}' in the record`);
  return new Uint8Array(await new Response(await downloadFileStream(env.record, file.id)).bytes());
}

async function dataDir(env: Env): Promise<string> {
  await Deno.mkdir(`${env.dir}/data`, { recursive: true });
  return `${env.dir}/data`;
}

Deno.test("watchFolder: a file that grows over several rescans is stored once, whole", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await using watcher = new Watcher(env);
  await watcher.next(is("ready"));
  const file = await Deno.open(`${data}/run1.bin`, { write: true, create: true });
  let size = 0;
  for (let step = 1; step <= 8; step++) {
    const piece = new Uint8Array(1000).fill(step);
    await file.write(piece);
    size += piece.length;
    watcher.clock.advance(1_000); // a rescan, well within the settle time
    const seen = await watcher.next(is("waiting", "run1.bin"));
    assertEquals(seen.type === "waiting" && seen.size, size);
  }
  file.close();
  assertEquals(watcher.events.filter(is("stored")).length, 0);
  assertEquals(uploadsOf(env.server), 0);
  for (let step = 0; step < 5; step++) watcher.clock.advance(1_000);
  const stored = await watcher.next(is("stored", "run1.bin"));
  assertEquals(stored.type === "stored" && [stored.size, stored.action], [8000, "upload"]);
  const bytes = await remoteBytes(env, "run1.bin");
  assertEquals(bytes.length, 8000);
  assertEquals(bytes[7999], 8);
  assertEquals(uploadsOf(env.server), 1);
});

Deno.test("watchFolder: a file that changes between its due time and the send waits again", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await Deno.writeTextFile(`${data}/a.txt`, "first");
  await using watcher = new Watcher(env, { rescanMs: 60_000 });
  await watcher.next(is("waiting", "a.txt"));
  // Changed, with no rescan or file event between: the look before the send sees it.
  await Deno.writeTextFile(`${data}/a.txt`, "first and more");
  watcher.clock.advance(5_000);
  const again = await watcher.next(is("waiting", "a.txt"));
  assertEquals(again.type === "waiting" && again.size, 14);
  assertEquals(uploadsOf(env.server), 0);
  watcher.clock.advance(5_000);
  await watcher.next(is("stored", "a.txt"));
  assertEquals(new TextDecoder().decode(await remoteBytes(env, "a.txt")), "first and more");
});

Deno.test("watchFolder: a restarted watcher catches up and sends nothing twice", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await Deno.mkdir(`${data}/raw`);
  await Deno.writeTextFile(`${data}/raw/1.csv`, "1");
  await Deno.writeTextFile(`${data}/raw/2.csv`, "2");
  {
    await using first = new Watcher(env);
    await first.next(is("ready"));
    first.clock.advance(5_000);
    await first.next(is("stored", "raw/1.csv"));
    await first.next(is("stored", "raw/2.csv"));
  }
  // While no watcher ran: a new file, a changed one, a new folder.
  await Deno.writeTextFile(`${data}/raw/2.csv`, "2, corrected");
  await Deno.mkdir(`${data}/run2`);
  await Deno.writeTextFile(`${data}/run2/3.csv`, "3");
  const before = env.server.log.length;
  await using second = new Watcher(env);
  const ready = await second.next(is("ready"));
  assertEquals(ready.type === "ready" && [ready.files, ready.equal], [3, 1]);
  second.clock.advance(5_000);
  const replaced = await second.next(is("stored", "raw/2.csv"));
  assertEquals(replaced.type === "stored" && replaced.action, "replace");
  await second.next(is("stored", "run2/3.csv"));
  assertEquals(uploadsOf(env.server, before), 2);
  const files = await remote(env);
  assertEquals([...files.keys()].sort(), ["raw/1.csv", "raw/2.csv", "run2/3.csv"]);
  assertEquals(new TextDecoder().decode(await remoteBytes(env, "raw/2.csv")), "2, corrected");
});

Deno.test("watchFolder: while the server is gone sends pause with backoff, and resume once", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await using watcher = new Watcher(env);
  await watcher.next(is("ready"));
  await Deno.writeTextFile(`${data}/during-outage.txt`, "kept");
  watcher.clock.advance(1_000);
  await watcher.next(is("waiting", "during-outage.txt"));
  env.server.addFault({ drop: true });
  watcher.clock.advance(5_000);
  const error = await watcher.next(is("error", "during-outage.txt"));
  assert(error.type === "error" && error.retryInMs !== undefined && error.retryInMs >= 500);
  env.server.clearFaults();
  const before = env.server.log.length;
  watcher.clock.advance(error.retryInMs);
  const stored = await watcher.next(is("stored", "during-outage.txt"));
  assertEquals(stored.type === "stored" && stored.already, undefined);
  assertEquals(new TextDecoder().decode(await remoteBytes(env, "during-outage.txt")), "kept");
  assertEquals(uploadsOf(env.server, before), 1);
});

Deno.test("watchFolder: a send whose answer was lost is found on the record, not sent again", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await using watcher = new Watcher(env);
  await watcher.next(is("ready"));
  await Deno.writeTextFile(`${data}/lost.txt`, "arrived");
  watcher.clock.advance(1_000);
  await watcher.next(is("waiting", "lost.txt"));
  // The data arrives and is stored, then the connection drops: no answer, and every look that
  // follows fails too, so the upload cannot tell whether it arrived.
  env.server.addFault({ method: "PUT", dropAfterProcessing: true, times: 1 });
  env.server.addFault({ method: "GET", drop: true });
  watcher.clock.advance(5_000);
  const error = await watcher.next(is("error", "lost.txt"));
  assert(error.type === "error" && error.retryInMs !== undefined);
  env.server.clearFaults();
  const before = env.server.log.length;
  watcher.clock.advance(error.retryInMs);
  const stored = await watcher.next(is("stored", "lost.txt"));
  assertEquals(stored.type === "stored" && stored.already, true);
  assertEquals(uploadsOf(env.server, before), 0);
  assertEquals((await remote(env)).size, 1);
});

Deno.test("watchFolder: a second watcher of the same folder and record refuses, naming the first", async () => {
  await using env = await setup();
  await dataDir(env);
  await using first = new Watcher(env);
  await first.next(is("ready"));
  const events = watchFolder(env.record, `${env.dir}/data`, { lockDir: `${env.dir}/locks` });
  const error = await assertRejects(() => events.next(), WatchLockedError);
  assertEquals(error.owner?.pid, Deno.pid);
  assert(error.message.includes(`PID ${Deno.pid}`), error.message);
  // Once the first stops, the lock is free.
  first.controller.abort();
  await first.done;
  await using second = new Watcher(env);
  await second.next(is("ready"));
});

Deno.test("watchFolder: once, a pass sends what settled and leaves what is still written", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await Deno.writeTextFile(`${data}/done.txt`, "complete");
  await Deno.writeTextFile(`${data}/growing.txt`, "part");
  const clock = new StepClock();
  const events: WatchEvent[] = [];
  const pass = (async () => {
    for await (
      const event of watchFolder(env.record, data, {
        once: true,
        settleMs: 5_000,
        lockDir: `${env.dir}/locks`,
        clock,
      })
    ) {
      events.push(event);
      if (event.type === "ready") {
        await Deno.writeTextFile(`${data}/growing.txt`, "part and more");
        clock.advance(5_000);
      }
    }
  })();
  await pass;
  assertEquals(events.filter(is("stored")).map((e) => "name" in e && e.name), ["done.txt"]);
  assertEquals(events.at(-1)?.type, "stopped");
  assertEquals(events.at(-1)?.waiting, 1);
  assertEquals([...(await remote(env)).keys()], ["done.txt"]);
});

Deno.test("SettleTracker: due after the settle time; settled only when the second look agrees", () => {
  const tracker = new SettleTracker(10);
  assertEquals(tracker.look("a", { size: 1, mtime: 5 }, 100), "new");
  assertEquals(tracker.look("a", { size: 1, mtime: 5 }, 104), "same");
  assertEquals(tracker.due(109), []);
  assertEquals(tracker.nextSettle(), 110);
  assertEquals(tracker.due(110), ["a"]);
  assertEquals(tracker.isSettled("a", { size: 2, mtime: 6 }, 110), false);
  assertEquals(tracker.isSettled("a", { size: 1, mtime: 5 }, 109), false);
  assertEquals(tracker.isSettled("a", { size: 1, mtime: 5 }, 110), true);
  tracker.stored("a", { size: 1, mtime: 5 });
  assertEquals(tracker.look("a", { size: 1, mtime: 5 }, 120), "known");
  assertEquals(tracker.look("a", { size: 3, mtime: 9 }, 120), "new");
  assertEquals(tracker.pending.get("a")?.onRecord, true);
});

Deno.test("watchFolder: the lock of a watcher that died without releasing it is taken over, with a warning", async () => {
  await using env = await setup();
  await dataDir(env);
  // A first watcher whose process ended: its lock is gone with it, its owner file is left.
  const warnings: string[] = [];
  {
    await using first = new Watcher(env);
    await first.next(is("ready"));
  }
  const locks = `${env.dir}/locks`;
  const lock = [...Deno.readDirSync(locks)].find((entry) => entry.name.endsWith(".lock"))!;
  const ownerFile = `${locks}/${lock.name.replace(/\.lock$/, ".owner.json")}`;
  await Deno.writeTextFile(
    ownerFile,
    JSON.stringify({ pid: 999999, host: "lab-pc", since: "2026-01-01T00:00:00.000Z" }),
  );
  await using second = new Watcher(env, { onWarning: (message) => warnings.push(message) });
  await second.next(is("ready"));
  assertEquals(warnings.length, 1);
  assert(warnings[0]!.includes("PID 999999 on lab-pc"), warnings[0]);
  assertEquals(JSON.parse(await Deno.readTextFile(ownerFile)).pid, Deno.pid);
});

Deno.test("watchFolder: a file removed before it settled is skipped; the record keeps what it has", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  await Deno.writeTextFile(`${data}/kept.txt`, "kept");
  await using watcher = new Watcher(env);
  await watcher.next(is("ready"));
  watcher.clock.advance(5_000);
  await watcher.next(is("stored", "kept.txt"));
  await Deno.writeTextFile(`${data}/short-lived.tmp`, "x");
  watcher.clock.advance(1_000);
  await watcher.next(is("waiting", "short-lived.tmp"));
  await Deno.remove(`${data}/short-lived.tmp`);
  await Deno.remove(`${data}/kept.txt`);
  watcher.clock.advance(1_000);
  const skipped = await watcher.next(is("skipped", "short-lived.tmp"));
  assertEquals(skipped.type === "skipped" && skipped.reason, "removed before it settled");
  assertEquals(skipped.watching, 0);
  assertEquals([...(await remote(env)).keys()], ["kept.txt"]);
});

Deno.test("watchFolder: files named like a partial download or the old sync cache are the user's files and are stored", async () => {
  await using env = await setup();
  const data = await dataDir(env);
  const names = [".notes.0123abcd.part", ".repo-apy-sync-cache.json"];
  for (const name of names) await Deno.writeTextFile(`${data}/${name}`, name);
  await using watcher = new Watcher(env, { rescanMs: 60_000 });
  for (const name of names) await watcher.next(is("waiting", name));
  watcher.clock.advance(5_000);
  for (const name of names) await watcher.next(is("stored", name));
  assertEquals([...(await remote(env)).keys()].sort(), names);
});
