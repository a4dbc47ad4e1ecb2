// Folder trees and sync over real HTTP against the local server: recursive uploads and tree
// downloads, hostile names, and syncFolder() in both directions (new, changed, equal and extra
// files, deletion, dry run, resume, failed listings).
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError, RepoApyError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { IncompleteListingError } from "../../lib/http/paginate.ts";
import { type SyncAction, syncFolder } from "../../lib/transfer/sync.ts";
import { walkTree } from "../../lib/transfer/_tree.ts";
import { type Env, setup } from "./_helpers.ts";
import { readTree, remoteFiles, remoteTexts, symlink, writeTree } from "./_trees.ts";

function uploadsPosted(env: Env, from = 0): number {
  return env.server.log.slice(from).filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
}

const TREE = {
  "top.txt": "top",
  "raw/run1.csv": "1,2\n",
  "raw/run2.csv": "3,4\n",
  "raw/deep/er/x.bin": "x",
  "processed/summary.txt": "sum",
};

Deno.test("uploadFiles() recursive names files by relative path and downloadFiles() recreates the tree byte for byte", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  const done = await env.record.uploadFiles(src, { recursive: true });
  assertEquals(done.uploaded.map((file) => file.name).sort(), Object.keys(TREE).sort());
  const out = `${env.dir}/out`;
  await env.record.downloadFiles(out);
  assertEquals(await readTree(out), await readTree(src));
});

Deno.test("uploadFiles() recursive: globs match the relative path, symbolic links are left out unless followed, loops end", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  await Deno.writeTextFile(`${env.dir}/outside.txt`, "outside");
  await symlink(`${env.dir}/outside.txt`, `${src}/raw/link.txt`);
  await symlink(src, `${src}/raw/loop`);
  const warnings: string[] = [];
  const plan = await (await import("../../lib/transfer/upload_files.ts")).planUploadFiles(
    env.record,
    src,
    {
      recursive: true,
      pattern: "raw/*",
      excludePattern: "*/deep/*",
      onWarning: (text) => warnings.push(text),
    },
  );
  assertEquals(plan.upload.map((file) => file.name), ["raw/run1.csv", "raw/run2.csv"]);
  assertEquals(warnings.length, 1);
  assertStringIncludes(warnings[0]!, "2 symbolic link(s)");

  warnings.length = 0;
  const followed = await env.record.uploadFiles(src, {
    recursive: true,
    followSymlinks: true,
    onWarning: (text) => warnings.push(text),
  });
  const names = followed.uploaded.map((file) => file.name).sort();
  assertEquals(names, [...Object.keys(TREE), "raw/link.txt"].sort());
  assertEquals(warnings.length, 1);
  assertStringIncludes(warnings[0]!, "'raw/loop'");
  assertStringIncludes(warnings[0]!, "loop");
});

Deno.test("walkTree() finds the files, links and loops of a folder of many entries, statted concurrently", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, {
    ...TREE,
    ...Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`many/f${i}.txt`, `${i}`])),
  });
  // Links among the many files, more than one pool of concurrent stats (16) apart.
  await symlink(`${src}/top.txt`, `${src}/many/link.txt`);
  await symlink(src, `${src}/many/loop`);
  for (const followSymlinks of [false, true]) {
    const warnings: string[] = [];
    const files = await walkTree(src, {
      followSymlinks,
      skip: (name) => name === "processed/summary.txt",
      onWarning: (text) => warnings.push(text),
    });
    const names = files.map((file) => `${file.name} ${file.size}`);
    assertEquals(names.length, 44 + (followSymlinks ? 1 : 0));
    assert(!names.some((name) => name.startsWith("processed/")));
    assertEquals(names.includes("many/link.txt 3"), followSymlinks);
    assertEquals(warnings.length, 1);
    assertStringIncludes(warnings[0]!, followSymlinks ? "'many/loop'" : "2 symbolic link(s)");
  }
});

Deno.test("uploadFiles() recursive refuses names over 256 characters before sending anything, listing them", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  const long = `${"d".repeat(200)}/${"f".repeat(60)}.txt`;
  await writeTree(src, { "ok.txt": "ok", [long]: "long" });
  const before = env.server.log.length;
  const error = await assertRejects(
    () => env.record.uploadFiles(src, { recursive: true }),
    InputError,
  );
  assertStringIncludes(error.message, `'${long}'`);
  assertStringIncludes(error.message, "nothing was sent");
  assertEquals(uploadsPosted(env, before), 0);
});

Deno.test("downloadFiles() writes hostile names with '/', '..', absolute paths and collisions nowhere outside the target", async () => {
  await using env = await setup();
  const names = [
    "../../escape.txt",
    "/etc/passwd",
    "a//b.txt",
    "a/./c.txt",
    "a/../d.txt",
    "a/_/d.txt",
    "ctl\u0001/x.txt",
  ];
  for (const name of names) await env.record.uploadString(name, name);
  const out = `${env.dir}/one/two`;
  const warnings: string[] = [];
  const paths = await env.record.downloadFiles(out, { onWarning: (text) => warnings.push(text) });
  assertEquals(paths.length, names.length);
  for (const path of paths) assert(path.startsWith(`${out}/`), path);
  const tree = await readTree(env.dir);
  for (const [path] of tree) assert(path.startsWith("one/two/"), path);
  // The two names that map to 'a/_/d.txt' are both kept, and the clash is reported.
  const texts = tree.map(([, text]) => text).sort();
  assertEquals(texts, [...names].sort());
  assertEquals(warnings.filter((text) => text.includes("both map to")).length, 1);
  assertEquals(
    tree.map(([path]) => path.slice("one/two/".length)).sort(),
    [
      "_/_/escape.txt",
      "_/etc/passwd",
      "a/_/b.txt",
      "a/_/c.txt",
      "a/_/d.txt",
      "a/_/d_2.txt",
      "ctl_/x.txt",
    ],
  );
});

Deno.test("downloadFiles() never writes through a symbolic link in the target; flat keeps one level", async () => {
  await using env = await setup();
  await env.record.uploadString("evil", "link/x.txt");
  const out = `${env.dir}/out`;
  const outside = `${env.dir}/outside`;
  await Deno.mkdir(out);
  await Deno.mkdir(outside);
  await symlink(outside, `${out}/link`);
  const refused = await assertRejects(() => env.record.downloadFiles(out), InputError);
  assertStringIncludes(refused.message, "symbolic link");
  assertEquals(await readTree(outside), []);
  const flat = await env.record.downloadFiles(out, { flat: true });
  assertEquals(flat, [`${out}/link_x.txt`]);
});

/** The transferring and deleting actions of a plan. */
function changes(actions: SyncAction[]): SyncAction[] {
  return actions.filter(({ action }) => action !== "skip" && action !== "extra");
}

Deno.test("syncFolder() up: new, changed, equal and extra files, with and without delete", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  const first = await syncFolder(env.record, src, { direction: "up" });
  assertEquals(first.plan.counts.upload.files, 5);
  assertEquals(first.complete, true);
  const before = await remoteFiles(env);

  await Deno.writeTextFile(`${src}/raw/run1.csv`, "9,9\n"); // changed, same size
  await Deno.writeTextFile(`${src}/new.txt`, "new");
  await Deno.remove(`${src}/top.txt`);
  const kept = await syncFolder(env.record, src, { direction: "up" });
  const summary = kept.plan.actions.map(({ action, name }) => `${action} ${name}`);
  assertEquals(summary, [
    "upload new.txt",
    "skip processed/summary.txt",
    "skip raw/deep/er/x.bin",
    "replace raw/run1.csv",
    "skip raw/run2.csv",
    "extra top.txt",
  ]);
  assertEquals(kept.complete, true);
  const after = await remoteFiles(env);
  // Replaced through the replace-data endpoint: the file keeps its id.
  assertEquals(after.get("raw/run1.csv")!.id, before.get("raw/run1.csv")!.id);
  assert(after.has("top.txt"));

  const mirrored = await syncFolder(env.record, src, { direction: "up", delete: true });
  assertEquals(changes(mirrored.plan.actions).map(({ action, name }) => `${action} ${name}`), [
    "delete top.txt",
  ]);
  assertEquals(await remoteTexts(env), await readTree(src));
});

Deno.test("syncFolder() down: new, changed, equal and extra files, with and without delete", async () => {
  await using env = await setup();
  for (const [name, text] of Object.entries(TREE)) await env.record.uploadString(text, name);
  const out = `${env.dir}/out`;
  const first = await syncFolder(env.record, out, { direction: "down" });
  assertEquals(first.plan.counts.download.files, 5);
  assertEquals(await readTree(out), await remoteTexts(env));

  await env.record.uploadString("5,6\n", "raw/run2.csv", { force: true });
  await env.record.uploadString("more", "raw/more.txt");
  await Deno.writeTextFile(`${out}/local-only.txt`, "mine");
  const kept = await syncFolder(env.record, out, { direction: "down" });
  assertEquals(changes(kept.plan.actions).map(({ action, name }) => `${action} ${name}`), [
    "download raw/more.txt",
    "replace raw/run2.csv",
  ]);
  assertEquals(kept.plan.counts.extra.files, 1);
  assertEquals(await Deno.readTextFile(`${out}/local-only.txt`), "mine");

  const mirrored = await syncFolder(env.record, out, { direction: "down", delete: true });
  assertEquals(changes(mirrored.plan.actions).map(({ action, name }) => `${action} ${name}`), [
    "delete local-only.txt",
  ]);
  // Exactly the record's files: the sync keeps its state elsewhere.
  assertEquals(await readTree(out), await remoteTexts(env));
  const up = await syncFolder(env.record, out, { direction: "up", dryRun: true });
  assertEquals(changes(up.plan.actions), []);
});

Deno.test("syncFolder() dry run plans exactly what the run then does, and changes nothing", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  await env.record.uploadString("old", "top.txt");
  await env.record.uploadString("gone", "remote-only.txt");
  await env.record.uploadString("sum", "processed/summary.txt");
  const before = env.server.log.length;
  const dry = await syncFolder(env.record, src, { direction: "up", delete: true, dryRun: true });
  assertEquals(
    env.server.log.slice(before).filter((entry) => entry.method !== "GET").length,
    0,
  );
  const run = await syncFolder(env.record, src, { direction: "up", delete: true });
  assertEquals(run.plan, dry.plan);
  assertEquals(run.done, changes(dry.plan.actions));
  assertEquals(run.failed, []);
  assertEquals(dry.plan.counts.upload.files, 3);
  assertEquals(dry.plan.counts.replace.files, 1);
  assertEquals(dry.plan.counts.delete.files, 1);
  assertEquals(dry.plan.counts.skip.files, 1);
});

Deno.test("syncFolder() interrupted by failures: the rerun finishes the job without re-sending what arrived", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  const files = Object.fromEntries(
    Array.from({ length: 8 }, (_, i) => [`d${i % 2}/f${i}.txt`, `file ${i}`]),
  );
  await writeTree(src, files);
  env.server.addFault({ method: "PUT", path: /\/uploads\//, status: 500, nth: 3, times: 2 });
  const first = await syncFolder(env.record, src, { direction: "up", concurrency: 1 });
  assertEquals(first.complete, false);
  assertEquals(first.failed.length, 2);
  env.server.clearFaults();
  const before = env.server.log.length;
  const second = await syncFolder(env.record, src, { direction: "up", concurrency: 1 });
  assertEquals(second.complete, true);
  assertEquals(second.plan.counts.skip.files, 6);
  assertEquals(uploadsPosted(env, before), 2);
  assertEquals(await remoteTexts(env), await readTree(src));
});

Deno.test("syncFolder() cancelled by its signal: the rerun continues", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  const controller = new AbortController();
  let seen = 0;
  await assertRejects(() =>
    syncFolder(env.record, src, {
      direction: "up",
      concurrency: 1,
      signal: controller.signal,
      onAction: () => {
        if (++seen === 2) controller.abort(new Error("stop"));
      },
    }), Error);
  assertEquals((await remoteFiles(env)).size, 2);
  const rerun = await syncFolder(env.record, src, { direction: "up" });
  assertEquals([rerun.plan.counts.skip.files, rerun.plan.counts.upload.files], [2, 3]);
  assertEquals(await remoteTexts(env), await readTree(src));
});

Deno.test("syncFolder() with delete never deletes when a listing fails", async () => {
  await using env = await setup();
  await env.record.uploadString("keep", "remote.txt");
  const out = `${env.dir}/out`;
  await writeTree(out, { "local.txt": "local" });
  env.server.addFault({ method: "GET", path: /\/files$/, status: 500, times: 100 });
  await assertRejects(
    () => syncFolder(env.record, out, { direction: "down", delete: true }),
    RequestError,
  );
  env.server.clearFaults();
  assertEquals(await readTree(out), [["local.txt", "local"]]);
  // A listing that answers but is not whole (fewer files than the server's own total).
  env.server.addFault({
    method: "GET",
    path: /\/files$/,
    jsonBody: {
      items: [],
      _pagination: { page: 1, per_page: 100, total_pages: 1, total_items: 1, _links: {} },
    },
  });
  const torn = await assertRejects(
    () => syncFolder(env.record, out, { direction: "down", delete: true }),
    RepoApyError,
  );
  assertStringIncludes(torn.message, "changed while it was read");
  env.server.clearFaults();
  assertEquals(await readTree(out), [["local.txt", "local"]]);
  // Upward, a folder that is not there is an error, never "nothing there".
  await assertRejects(
    () => syncFolder(env.record, `${env.dir}/missing`, { direction: "up", delete: true }),
    InputError,
  );
  assertEquals([...(await remoteFiles(env)).keys()], ["remote.txt"]);
});

Deno.test("syncFolder() down reports record names that cannot be local paths or need a folder where a file goes, and syncs the rest", async () => {
  await using env = await setup();
  await env.record.uploadString("one", "a/../b.txt");
  await env.record.uploadString("two", "a/_/b.txt");
  await env.record.uploadString("file", "x");
  await env.record.uploadString("nested", "x/y.txt");
  await env.record.uploadString("fine", "ok.txt");
  const out = `${env.dir}/out`;
  const result = await syncFolder(env.record, out, { direction: "down" });
  assertEquals(result.complete, false);
  // `a/../b.txt` is never written under a sanitised name (a later upload would not map back).
  assertEquals(result.plan.problems.map(({ name }) => name).sort(), ["a/../b.txt", "x/y.txt"]);
  assertEquals(await readTree(out), [["a/_/b.txt", "two"], ["ok.txt", "fine"], ["x", "file"]]);
});

Deno.test("syncFolder() never trusts a cached checksum when size or modification time changed", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, { "a.txt": "aaaa" });
  const cacheDir = `${env.dir}/cache`;
  await syncFolder(env.record, src, { direction: "up", cacheDir });
  const [stored] = await Array.fromAsync(Deno.readDir(`${cacheDir}/sync`));
  const cache = JSON.parse(await Deno.readTextFile(`${cacheDir}/sync/${stored!.name}`));
  assert(cache.entries["a.txt"] !== undefined);
  await Deno.writeTextFile(`${src}/a.txt`, "bbbb");
  await Deno.utime(`${src}/a.txt`, new Date(0), new Date(1_000_000));
  const run = await syncFolder(env.record, src, { direction: "up", cacheDir });
  assertEquals(run.plan.counts.replace.files, 1);
  assertEquals(await remoteTexts(env), [["a.txt", "bbbb"]]);
});

Deno.test("syncFolder() goes through the transport's pacer: answers of 429 are waited out, not failures", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(src, TREE);
  for (const nth of [1, 3, 4]) {
    env.server.addFault({ method: "PUT", path: /\/uploads\//, status: 429, retryAfter: "0", nth });
  }
  env.server.addFault({ method: "GET", path: /\/files$/, status: 429, retryAfter: "0", nth: 1 });
  const run = await syncFolder(env.record, src, { direction: "up", concurrency: 2 });
  assertEquals(run.complete, true);
  assertEquals(run.done.length, 5);
  assertEquals(
    env.server.log.filter((entry) => entry.status === 429).length,
    4,
  );
  assertEquals(await remoteTexts(env), await readTree(src));
});

Deno.test("syncFolder() reads a listing of several pages whole (pages in flight at once)", async () => {
  await using env = await setup();
  const src = `${env.dir}/src`;
  await writeTree(
    src,
    Object.fromEntries(Array.from({ length: 230 }, (_, i) => [`d${i % 7}/f${i}.txt`, `${i}`])),
  );
  await syncFolder(env.record, src, { direction: "up" });
  const before = env.server.log.length;
  const again = await syncFolder(env.record, src, { direction: "up", dryRun: true });
  assertEquals(again.plan.counts.skip.files, 230);
  assertEquals(changes(again.plan.actions), []);
  assertEquals(env.server.log.slice(before).length, 3);
  // A listing that shifts between pages (page 2 repeats a file of page 1) deletes nothing.
  await Deno.remove(`${src}/d0/f0.txt`);
  const [first] = await Array.fromAsync(env.record.files());
  env.server.addFault({ method: "GET", path: /\/files$/, nth: 2, jsonFields: { id: first!.id } });
  const torn = await assertRejects(
    () => syncFolder(env.record, src, { direction: "up", delete: true }),
    IncompleteListingError,
  );
  assertStringIncludes(torn.message, "nothing was changed");
  env.server.clearFaults();
  assertEquals((await remoteFiles(env)).size, 230);
});

Deno.test("syncFolder() down: a download cut off keeps its partial data, which the rerun resumes and never deletes", async () => {
  await using env = await setup();
  const big = new Uint8Array(3_000_000).map((_, i) => (i * 7) & 0xff);
  await env.record.uploadFile(new Blob([big]).stream(), {
    fileName: "big/data.bin",
    size: big.length,
  });
  await env.record.uploadString("small", "small.txt");
  env.server.addFault({ method: "GET", path: "/download", dropAfterBytes: 1_000_000, times: 20 });
  const out = `${env.dir}/out`;
  const first = await syncFolder(env.record, out, { direction: "down", delete: true });
  assertEquals(first.complete, false);
  assertEquals(first.failed.map(({ action }) => action.name), ["big/data.bin"]);
  const parts = [...Deno.readDirSync(`${out}/big`)].map((entry) => entry.name);
  assertEquals(parts.length, 1);
  assert(parts[0]!.endsWith(".part"), parts[0]);
  env.server.clearFaults();
  const second = await syncFolder(env.record, out, { direction: "down", delete: true });
  assertEquals(second.complete, true);
  assertEquals(second.plan.counts.delete.files, 0);
  assertEquals(new Uint8Array(await Deno.readFile(`${out}/big/data.bin`)), big);
  assertEquals([...Deno.readDirSync(`${out}/big`)].map((entry) => entry.name), ["data.bin"]);
  // The rerun asked only for the bytes after the partial data.
  const last = env.server.log.filter((entry) => entry.path.endsWith("/download")).at(-1);
  assert(/^bytes=[1-9]\d*-/.test(last?.headers.range ?? ""), JSON.stringify(last?.headers));
});

Deno.test("downloadFiles() leaves out a file whose folder is taken by a file, writes the rest, and says so", async () => {
  await using env = await setup();
  // Listed newest first: the file 'x' comes before 'x/y.txt', whose folder it takes.
  await env.record.uploadString("nested", "x/y.txt");
  await env.record.uploadString("file", "x");
  await env.record.uploadString("fine", "ok.txt");
  const out = `${env.dir}/out`;
  const error = await assertRejects(
    () => env.record.downloadFiles(out, { concurrency: 1 }),
    InputError,
  );
  assertStringIncludes(error.message, "1 file(s) were not downloaded");
  assertStringIncludes(error.message, "'x/y.txt'");
  assertEquals(await readTree(out), [["ok.txt", "fine"], ["x", "file"]]);
});
