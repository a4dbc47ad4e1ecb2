import { assertEquals, assertRejects, assertTrue } from "../_assert.ts";
import { ConnectionError } from "../../lib/http/errors.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { downloadFile } from "../../lib/transfer/download.ts";
import { IntegrityError } from "../../lib/transfer/errors.ts";
import { listDir, setup, sha256, sha256File, writeRandomFile } from "./_helpers.ts";

Deno.test("downloadFile() leaves no file or temporary file when the connection drops", async () => {
  await using env = await setup();
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 400_000, 29);
  const file = await env.record.uploadFile(source);
  const target = `${env.dir}/out`;
  await Deno.mkdir(target);
  env.server.addFault({ method: "GET", path: "/download", dropAfterBytes: 100_000 });
  await assertRejects(() => env.record.downloadFile(file.id, target), ConnectionError);
  assertEquals(await listDir(target), []);
});

Deno.test("downloadFile() rejects data of the wrong size or checksum and writes nothing", async () => {
  await using env = await setup();
  const real = await env.record.uploadString("some content", "a.txt");
  const wrongSize = { ...real, size: real.size + 1 };
  const wrongSum = { ...real, checksum: "0123456789abcdef0123456789abcdef" };
  for (const file of [wrongSize, wrongSum]) {
    await assertRejects(
      () => downloadFile(env.record, real.id, { path: `${env.dir}/`, file }),
      IntegrityError,
    );
  }
  assertEquals(await listDir(env.dir), []);
  const ok = await downloadFile(env.record, real.id, { path: `${env.dir}/x.txt`, file: real });
  assertEquals(await Deno.readTextFile(ok), "some content");
});

Deno.test("downloadFile() verifies the composite checksum of a chunked upload", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 31);
  const file = await env.record.uploadFile(source);
  assertTrue(file.checksum?.endsWith("-6"));
  const target = await env.record.downloadFile(file.id, `${env.dir}/copy.bin`);
  assertEquals(await sha256File(target), await sha256File(source));
  const tampered: FileJson = { ...file, checksum: `${"f".repeat(32)}-6` };
  await assertRejects(
    () => downloadFile(env.record, file.id, { path: `${env.dir}/bad.bin`, file: tampered }),
    IntegrityError,
  );
  assertEquals(await listDir(env.dir), ["big.bin", "copy.bin"]);
});

Deno.test("downloadFile() into a directory keeps existing files unless forced", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("v1", "notes.tar.gz");
  const first = await env.record.downloadFile(file.id, env.dir);
  await Deno.writeTextFile(first, "local edit");
  const second = await env.record.downloadFile(file.id, env.dir);
  assertEquals([first, second], [`${env.dir}/notes.tar.gz`, `${env.dir}/notes.tar_2.gz`]);
  assertEquals(await Deno.readTextFile(first), "local edit");
  const forced = await env.record.downloadFile(file.id, env.dir, { force: true });
  assertEquals(forced, first);
  assertEquals(await Deno.readTextFile(first), "v1");
});

Deno.test("downloadFile() again finds the file already here (same size and checksum): nothing is fetched or duplicated", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("v1", "notes.tar.gz");
  const first = await env.record.downloadFile(file.id, env.dir);
  const before = env.server.log.length;
  const present: string[] = [];
  const again = await env.record.downloadFile(file.id, env.dir, {
    onPresent: (path) => present.push(path),
  });
  assertEquals([again, present], [first, [first]]);
  assertEquals(
    env.server.log.slice(before).filter((entry) => entry.path.endsWith("/download")),
    [],
  );
  // A copy an earlier run wrote under a numbered name (the original edited) is found too.
  await Deno.writeTextFile(first, "local edit");
  const numbered = await env.record.downloadFile(file.id, env.dir);
  const third = await env.record.downloadFile(file.id, env.dir);
  assertEquals([numbered, third], [`${env.dir}/notes.tar_2.gz`, `${env.dir}/notes.tar_2.gz`]);
  assertEquals([...Deno.readDirSync(env.dir)].map((entry) => entry.name).sort(), [
    "notes.tar.gz",
    "notes.tar_2.gz",
  ]);
});

Deno.test("downloadFile() without a path returns the content stream and reports progress", async () => {
  await using env = await setup();
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 250_000, 37);
  const file = await env.record.uploadFile(source);
  const seen: number[] = [];
  const stream = await env.record.downloadFile(file.id, undefined, {
    onProgress: ({ bytes }) => seen.push(bytes),
  });
  assertEquals(await sha256(stream), await sha256File(source));
  assertEquals(seen.at(-1), 250_000);
});

Deno.test("downloadFiles() downloads the files matching pattern and not excludePattern", async () => {
  await using env = await setup();
  for (const name of ["a.txt", "b.txt", "skip.txt", "c.csv", "[x].txt"]) {
    await env.record.uploadString(name, name);
  }
  const written: string[] = [];
  const paths = await env.record.downloadFiles(env.dir, {
    pattern: "*.txt",
    excludePattern: "s*",
    onFile: (path) => written.push(path),
  });
  assertEquals(paths.sort(), written.sort());
  assertEquals(await listDir(env.dir), ["[x].txt", "a.txt", "b.txt"]);
  assertEquals(await Deno.readTextFile(`${env.dir}/a.txt`), "a.txt");
  const classes = await env.record.downloadFiles(`${env.dir}/c`, { pattern: "[ab].*" });
  assertEquals(classes.length, 2);
});

Deno.test("downloadFiles() pages through more than 100 files", async () => {
  await using env = await setup();
  for (let i = 0; i < 105; i++) await env.record.uploadString(String(i), `f${i}.txt`);
  const paths = await env.record.downloadFiles(env.dir);
  assertEquals(paths.length, 105);
  assertEquals((await listDir(env.dir)).length, 105);
});

Deno.test("downloadFiles() with useFolder writes below the record identifier and renames without force", async () => {
  await using env = await setup({ identifier: "my-record" });
  await env.record.uploadString("one", "one.txt");
  const first = await env.record.downloadFiles(env.dir, { useFolder: true });
  assertEquals(first, [`${env.dir}/my-record/one.txt`]);
  // The same content is already here: kept, nothing duplicated.
  const same = await env.record.downloadFiles(env.dir, { useFolder: true });
  assertEquals(same, [`${env.dir}/my-record/one.txt`]);
  await Deno.writeTextFile(`${env.dir}/my-record/one.txt`, "edited");
  const again = await env.record.downloadFiles(env.dir, { useFolder: true });
  assertEquals(again, [`${env.dir}/my-record/one_2.txt`]);
  const forced = await env.record.downloadFiles(env.dir, { useFolder: true, force: true });
  assertEquals(forced, [`${env.dir}/my-record/one.txt`]);
  assertEquals(await Deno.readTextFile(`${env.dir}/my-record/one.txt`), "one");
  assertEquals(await listDir(`${env.dir}/my-record`), ["one.txt", "one_2.txt"]);
});

Deno.test("downloadAllFiles() streams the ZIP archive to <identifier>.zip", async () => {
  await using env = await setup({ identifier: "zip-me" });
  await env.record.uploadString("alpha", "a.txt");
  await env.record.uploadString("beta", "b.txt");
  const path = await env.record.downloadAllFiles(env.dir);
  assertEquals(path, `${env.dir}/zip-me.zip`);
  const head = (await Deno.readFile(path)).subarray(0, 4);
  assertEquals([...head], [0x50, 0x4b, 0x03, 0x04]);
  const named = await env.record.downloadAllFiles(`${env.dir}/all.zip`);
  assertEquals(named, `${env.dir}/all.zip`);
});
