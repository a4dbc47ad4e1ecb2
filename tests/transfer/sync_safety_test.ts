// syncFolder() at the edges, over real HTTP against the local server (issue 28): what the run did
// not see whole is never deleted, names map both ways or not at all, every write lands inside the
// target, and the hash cache is the sync's own (in a cache folder, bounded, validated).
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { IncompleteListingError } from "../../lib/http/paginate.ts";
import { syncFolder, type SyncOptions, type SyncResult } from "../../lib/transfer/sync.ts";
import { type Env, setup } from "./_helpers.ts";
import { fifo, readTree, remoteFiles, remoteTexts, symlink, writeTree } from "./_trees.ts";

/** A sync with its cache in the test's folder. */
function sync(env: Env, dir: string, options: SyncOptions): Promise<SyncResult> {
  return syncFolder(env.record, dir, { cacheDir: `${env.dir}/cache`, ...options });
}

/** The actions of a result that change something, as `action name`. */
function changes(result: SyncResult): string[] {
  return result.plan.actions
    .filter(({ action }) => action !== "skip" && action !== "extra")
    .map(({ action, name }) => `${action} ${name}`);
}

function problemNames(result: SyncResult): string[] {
  return result.plan.problems.map(({ name }) => name);
}

/** Whether this process can be kept out of a folder by its permissions (not when root). */
const permissionsBite = await (async () => {
  const { stdout } = await new Deno.Command("bash", { args: ["-c", "id -u"] }).output();
  return new TextDecoder().decode(stdout).trim() !== "0";
})();

async function uploadAll(env: Env, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) await env.record.uploadString(text, name);
}

Deno.test("finding 1: a followed link whose target is gone, or that loops, is an error for its path and holds back every deletion", async () => {
  await using env = await setup();
  await uploadAll(env, { "data/a.txt": "a", "data/b.txt": "b", "data/c.txt": "c", "old.txt": "o" });
  const src = `${env.dir}/src`;
  await writeTree(src, { "data/a.txt": "a" });
  // An unmounted drive: the links to its files lead nowhere.
  await symlink(`${env.dir}/unmounted/b.txt`, `${src}/data/b.txt`);
  await symlink(`${src}/data/c.txt`, `${src}/data/c.txt`);
  const result = await sync(env, src, { direction: "up", delete: true, followSymlinks: true });
  assertEquals(result.complete, false);
  assertEquals(problemNames(result), ["data/b.txt", "data/c.txt"]);
  assertStringIncludes(result.plan.problems[0]!.reason, "leads to nothing");
  // `old.txt` is not in the folder either, but a run with problems deletes nothing.
  assertStringIncludes(result.plan.deletionsHeld ?? "", "2 problem(s)");
  assertEquals(result.done, []);
  assertEquals([...(await remoteFiles(env)).keys()].sort(), [
    "data/a.txt",
    "data/b.txt",
    "data/c.txt",
    "old.txt",
  ]);
});

Deno.test("finding 1: a symbolic link left out (not followed) keeps the record's files of its path", async () => {
  await using env = await setup();
  await uploadAll(env, { "share/a.txt": "a", "share/deep/b.txt": "b", "link.txt": "l" });
  const src = `${env.dir}/src`;
  await writeTree(src, { "top.txt": "t" });
  await writeTree(`${env.dir}/mounted`, { "a.txt": "a" });
  await symlink(`${env.dir}/mounted`, `${src}/share`);
  await symlink(`${env.dir}/mounted/a.txt`, `${src}/link.txt`);
  const result = await sync(env, src, { direction: "up", delete: true });
  assertEquals(changes(result), ["upload top.txt"]);
  assertEquals(result.complete, true);
  assertEquals((await remoteFiles(env)).size, 4);
});

Deno.test({
  name: "finding 1: the files of a subfolder that cannot be read are never taken as deleted",
  ignore: !permissionsBite,
  async fn() {
    await using env = await setup();
    await uploadAll(env, { "data/a.txt": "a", "top.txt": "t" });
    const src = `${env.dir}/src`;
    await writeTree(src, { "data/a.txt": "a", "top.txt": "t" });
    await Deno.chmod(`${src}/data`, 0o644);
    try {
      const result = await sync(env, src, { direction: "up", delete: true });
      assertEquals(result.complete, false);
      assertEquals(problemNames(result), ["data/a.txt"]);
      assertEquals([...(await remoteFiles(env)).keys()].sort(), ["data/a.txt", "top.txt"]);
    } finally {
      await Deno.chmod(`${src}/data`, 0o755);
    }
  },
});

Deno.test("finding 2: a record file where the folder has a folder of that name is an error; nothing is written into the folder or deleted", async () => {
  await using env = await setup();
  await uploadAll(env, { x: "record's x", "y.txt": "y" });
  const out = `${env.dir}/out`;
  await writeTree(out, { "x/mine.txt": "mine", "x/more.txt": "more" });
  for (let run = 0; run < 2; run++) {
    const result = await sync(env, out, { direction: "down", delete: true });
    assertEquals(result.complete, false);
    assertEquals(problemNames(result), ["x"]);
    assertStringIncludes(result.plan.problems[0]!.reason, "local folder has this name");
    assertEquals(await readTree(out), [["x/mine.txt", "mine"], ["x/more.txt", "more"], [
      "y.txt",
      "y",
    ]]);
  }
});

Deno.test("finding 3: the local server stores names as Kadi does (whitespace trimmed, runs joined)", async () => {
  await using env = await setup();
  const lead = await env.record.uploadString("1", " lead.txt");
  const inner = await env.record.uploadString("2", "a \t\u00a0b.txt ");
  assertEquals([lead.name, inner.name], ["lead.txt", "a b.txt"]);
});

Deno.test("finding 3: a local name the server would change is an error, never uploaded and never paired with a delete", async () => {
  await using env = await setup();
  await uploadAll(env, { "lead.txt": "twin" });
  const src = `${env.dir}/src`;
  await writeTree(src, { " lead.txt": "spaced", "ok.txt": "ok" });
  for (let run = 0; run < 2; run++) {
    const result = await sync(env, src, { direction: "up", delete: true });
    assertEquals(result.complete, false);
    assertEquals(problemNames(result), [" lead.txt"]);
    assertStringIncludes(result.plan.problems[0]!.reason, "would store it as 'lead.txt'");
    assertEquals(await remoteTexts(env), [["lead.txt", "twin"], ["ok.txt", "ok"]]);
  }
});

Deno.test("finding 3: a stored name other than the one sent fails the file, naming both, and holds back deletions", async () => {
  await using env = await setup();
  await uploadAll(env, { "gone.txt": "g" });
  const src = `${env.dir}/src`;
  await writeTree(src, { "new.txt": "n" });
  // A server that changes names in a way the client does not know.
  env.server.addFault({ method: "PUT", path: /\/uploads\//, jsonFields: { name: "NEW.TXT" } });
  const result = await sync(env, src, { direction: "up", delete: true });
  assertEquals(result.complete, false);
  const messages = result.failed.map(({ action, message }) => `${action.action}: ${message}`);
  assertEquals(messages.length, 2);
  assertStringIncludes(messages[0]!, "delete: not deleted");
  assertStringIncludes(messages[1]!, "upload: the server stored it as");
  assert((await remoteFiles(env)).has("gone.txt"));
});

Deno.test("finding 4: a FIFO where a synced file was is an error for its path, and the record's file stays", async () => {
  await using env = await setup();
  await uploadAll(env, { "data.bin": "data", "other.txt": "o" });
  const src = `${env.dir}/src`;
  await writeTree(src, { "other.txt": "o" });
  await fifo(`${src}/data.bin`);
  const result = await sync(env, src, { direction: "up", delete: true });
  assertEquals(result.complete, false);
  assertEquals(problemNames(result), ["data.bin"]);
  assertStringIncludes(result.plan.problems[0]!.reason, "not a regular file");
  assertEquals([...(await remoteFiles(env)).keys()].sort(), ["data.bin", "other.txt"]);
});

Deno.test("finding 5: a listing that does not count its files is not whole: a first page cut off from the rest deletes nothing", async () => {
  await using env = await setup();
  const files = Object.fromEntries(
    Array.from({ length: 130 }, (_, i) => [`f${String(i).padStart(3, "0")}.txt`, `${i}`]),
  );
  await uploadAll(env, files);
  const out = `${env.dir}/out`;
  await writeTree(out, files);
  for (const total of [undefined, null]) {
    env.server.clearFaults();
    env.server.addFault({
      method: "GET",
      path: /\/files$/,
      pagination: { total_items: total, total_pages: undefined, _links: {} },
    });
    const error = await assertRejects(
      () => sync(env, out, { direction: "down", delete: true }),
      IncompleteListingError,
    );
    assertStringIncludes(error.message, "nothing was changed");
    assertEquals((await readTree(out)).length, 130);
  }
});

Deno.test("finding 6: record names that cannot exist in a folder are errors downward and never deleted or replaced upward", async () => {
  await using env = await setup();
  const hostile = {
    "..": "dots",
    "/abs.txt": "abs",
    "../x": "up",
    "./a": "dot",
    "clash/inner": "in",
  };
  await uploadAll(env, { ...hostile, clash: "file", "fine.txt": "fine" });
  const dir = `${env.dir}/dir`;
  const down = await sync(env, dir, { direction: "down", delete: true });
  assertEquals(down.complete, false);
  assertEquals(problemNames(down).sort(), Object.keys(hostile).sort());
  // Nothing is written for them, not even under a sanitised name.
  assertEquals(await readTree(dir), [["clash", "file"], ["fine.txt", "fine"]]);
  const up = await sync(env, dir, { direction: "up", delete: true });
  assertEquals(up.complete, false);
  assertEquals(changes(up), []);
  assertEquals(problemNames(up).sort(), Object.keys(hostile).sort());
  assertEquals((await remoteFiles(env)).size, 7);
  // The same when they are the only problem: `clash/inner` alone is not deleted.
  await env.record.deleteFile((await remoteFiles(env)).get("..")!.id);
  for (const name of ["/abs.txt", "../x", "./a"]) {
    await env.record.deleteFile((await remoteFiles(env)).get(name)!.id);
  }
  const again = await sync(env, dir, { direction: "up", delete: true });
  assertEquals(problemNames(again), ["clash/inner"]);
  assert((await remoteFiles(env)).has("clash/inner"));
});

Deno.test("finding 7: a subfolder swapped for a symbolic link during a download is never written through", async () => {
  await using env = await setup();
  const files = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`sub/f${i}.txt`, `${i}`]));
  await uploadAll(env, files);
  const out = `${env.dir}/out`;
  const elsewhere = `${env.dir}/elsewhere`;
  await Deno.mkdir(`${out}/sub`, { recursive: true });
  await Deno.mkdir(elsewhere);
  let swapped = false;
  const swap = () => {
    if (swapped) return;
    swapped = true;
    const { code } = new Deno.Command("bash", {
      args: ["-c", 'mv "$0/sub" "$0/sub.moved" && ln -s "$1" "$0/sub"', out, elsewhere],
    }).outputSync();
    assertEquals(code, 0);
  };
  // Swapped while the second file is in flight: its rename, and every later open, must refuse.
  let started = 0;
  const result = await sync(env, out, {
    direction: "down",
    concurrency: 1,
    onProgress: ({ files }) => {
      if (files === 1 && ++started === 1) swap();
    },
  });
  assert(swapped);
  assertEquals(result.complete, false);
  assertEquals(await readTree(elsewhere), []);
  assertEquals(result.failed.length, 5);
  for (const { message } of result.failed) assertStringIncludes(message, "a symbolic link");
});

Deno.test("finding 8: the cache is kept outside the synced folder, keyed by host, record and folder, and pruned", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, { "a.txt": "a", "b.txt": "b" });
  await sync(env, src, { direction: "up", pattern: "*" });
  assertEquals((await readTree(src)).map(([name]) => name), ["a.txt", "b.txt"]);
  const cached = await Array.fromAsync(Deno.readDir(`${env.dir}/cache/sync`));
  assertEquals(cached.length, 1);
  const path = `${env.dir}/cache/sync/${cached[0]!.name}`;
  const cache = JSON.parse(await Deno.readTextFile(path));
  assertEquals([cache.record, cache.folder], [env.record.id, await Deno.realPath(src)]);
  assertEquals(Object.keys(cache.entries).sort(), ["a.txt", "b.txt"]);
  // With the CLI's default pattern, entries of files that are gone are dropped.
  await Deno.remove(`${src}/b.txt`);
  await sync(env, src, { direction: "up", pattern: "*" });
  assertEquals(Object.keys(JSON.parse(await Deno.readTextFile(path)).entries), ["a.txt"]);
});

Deno.test("finding 8: a cache that is a link, a FIFO, too large, damaged or another's is ignored with a warning", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, { "a.txt": "aaaa" });
  await sync(env, src, { direction: "up" });
  const [entry] = await Array.fromAsync(Deno.readDir(`${env.dir}/cache/sync`));
  const path = `${env.dir}/cache/sync/${entry!.name}`;
  const good = JSON.parse(await Deno.readTextFile(path));
  const mtime = good.entries["a.txt"].m;
  // Each cache claims `a.txt` has the server's checksum of other content: trusted, it would skip.
  const lying = (entries: unknown) => JSON.stringify({ ...good, entries });
  await Deno.writeTextFile(`${src}/a.txt`, "bbbb");
  await Deno.utime(`${src}/a.txt`, mtime / 1000, mtime / 1000);
  const hostile: [string, () => Promise<void>, string][] = [
    ["link", () => symlink("/dev/zero", path), "not a regular file"],
    ["fifo", () => fifo(path), "not a regular file"],
    ["too large", async () => {
      const { code } = await new Deno.Command("bash", {
        args: ["-c", 'truncate -s 200M "$0"', path],
      })
        .output();
      assertEquals(code, 0);
    }, "larger than"],
    [
      "wrong type",
      () => Deno.writeTextFile(path, lying({ "a.txt": { s: 4, m: mtime, c: { md5: "x" } } })),
      "damaged",
    ],
    ["another's", () =>
      Deno.writeTextFile(
        path,
        JSON.stringify({ ...good, record: good.record + 1 }),
      ), "another host, record or folder"],
  ];
  for (const [what, make, expected] of hostile) {
    await Deno.remove(path).catch(() => {});
    await make();
    const warnings: string[] = [];
    const result = await sync(env, src, {
      direction: "up",
      dryRun: true,
      onWarning: (text) => warnings.push(text),
    });
    assertEquals(result.plan.counts.replace.files, 1, what);
    assertEquals(warnings.length, 1, what);
    assertStringIncludes(warnings[0]!, expected);
  }
});

Deno.test("finding 9: files named like the old cache or a partial download are ordinary files, or errors; never skipped", async () => {
  await using env = await setup();
  await uploadAll(env, { ".repo-apy-sync-cache.json": "{}", ".x.0123abcd.part": "part" });
  const out = `${env.dir}/out`;
  const down = await sync(env, out, { direction: "down" });
  assertEquals(down.complete, true);
  assertEquals(await readTree(out), [[".repo-apy-sync-cache.json", "{}"], [
    ".x.0123abcd.part",
    "part",
  ]]);
  const src = `${env.dir}/src`;
  await writeTree(src, {
    ".notes.0123abcd.part": "notes",
    "a.txt": "a",
    ".a.txt.0123abcd.part": "half of a",
  });
  const up = await syncFolder(env.record, src, {
    direction: "up",
    cacheDir: `${env.dir}/cache`,
    dryRun: true,
  });
  assertEquals(changes(up), ["upload .notes.0123abcd.part", "upload a.txt"]);
  // Beside its file, a `.part` may be an unfinished download: said, not uploaded; downward, a
  // record's `.part` beside its file is said, not written (it would be taken for a download).
  assertEquals(problemNames(up), [".a.txt.0123abcd.part"]);
  // A user's day-old file named like a `.part`, beside a file the sync downloads, is kept.
  await writeTree(out, { "sub/.notes.0123abcd.part": "notes" });
  await Deno.utime(`${out}/sub/.notes.0123abcd.part`, 0, 0);
  await uploadAll(env, { x: "x", "sub/new.txt": "new" });
  const beside = await sync(env, out, { direction: "down" });
  assertEquals(await Deno.readTextFile(`${out}/sub/.notes.0123abcd.part`), "notes");
  assertEquals(problemNames(beside), [".x.0123abcd.part"]);
  assertEquals(await Deno.readTextFile(`${out}/.x.0123abcd.part`), "part");
});

Deno.test("guard rails: an empty source deletes nothing unless allowed; --max-delete; a backup folder keeps what --to replaces or deletes", async () => {
  await using env = await setup();
  await uploadAll(env, { "a.txt": "a", "b.txt": "b" });
  const empty = `${env.dir}/empty`;
  await Deno.mkdir(empty);
  const held = await sync(env, empty, { direction: "up", delete: true });
  assertEquals(held.complete, false);
  assertStringIncludes(held.plan.deletionsHeld ?? "", "has no files");
  assertEquals((await remoteFiles(env)).size, 2);

  const src = `${env.dir}/src`;
  await writeTree(src, { "a.txt": "a" });
  const limited = await sync(env, src, { direction: "up", delete: true, maxDelete: 0 });
  assertStringIncludes(limited.plan.deletionsHeld ?? "", "more than --max-delete 0");
  assertEquals((await remoteFiles(env)).size, 2);

  const out = `${env.dir}/out`;
  const backup = `${env.dir}/backup`;
  await writeTree(out, { "a.txt": "old a", "mine.txt": "mine" });
  const overlap = await assertRejects(
    () => sync(env, out, { direction: "down", delete: true, backupDir: `${out}/keep` }),
    InputError,
  );
  assertStringIncludes(overlap.message, "overlap");
  const run = await sync(env, out, { direction: "down", delete: true, backupDir: backup });
  assertEquals(run.complete, true);
  assertEquals(await readTree(out), [["a.txt", "a"], ["b.txt", "b"]]);
  assertEquals(await readTree(backup), [["a.txt", "old a"], ["mine.txt", "mine"]]);

  const allowed = await sync(env, empty, { direction: "up", delete: true, allowEmptySource: true });
  assertEquals(allowed.complete, true);
  assertEquals((await remoteFiles(env)).size, 0);
});
