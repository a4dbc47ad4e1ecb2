// Partial downloads: kept when asked, resumed with HTTP Range (or started over when the server
// ignores it), verified as a whole, and stale temporary files of earlier runs removed.
import { assertEquals, assertRejects } from "../_assert.ts";
import { ConnectionError } from "../../lib/http/errors.ts";
import type { TestServer } from "../../lib/testing/mod.ts";
import { IncompleteDownloadError, IntegrityError } from "../../lib/transfer/errors.ts";
import { listDir, setup, sha256File, writeRandomFile } from "./_helpers.ts";

const SIZE = 400_000;

function ranges(server: TestServer, from: number): (string | undefined)[] {
  return server.log.slice(from).filter((entry) => entry.path.endsWith("/download"))
    .map((entry) => entry.headers["range"]);
}

async function interrupted(
  env: Awaited<ReturnType<typeof setup>>,
  size = SIZE,
  dropAfterBytes = 150_000,
) {
  const source = `${env.dir}/source.bin`;
  await writeRandomFile(source, size, 7);
  const file = await env.record.uploadFile(source);
  const out = `${env.dir}/out`;
  await Deno.mkdir(out);
  env.server.addFault({ method: "GET", path: "/download", dropAfterBytes, times: 1 });
  const error = await assertRejects(
    () => env.record.downloadFile(file.id, `${out}/`, { keepPartial: true }),
    IncompleteDownloadError,
  );
  assertEquals(error.cause instanceof ConnectionError, true);
  const [partial] = error.partials;
  assertEquals(partial?.path, `${out}/source.bin`);
  assertEquals(partial!.bytes > 0 && partial!.bytes < size, true);
  assertEquals((await Deno.stat(partial!.partPath)).size, partial!.bytes);
  return { source, file, out, partial: partial! };
}

Deno.test("downloadFile() with keepPartial keeps the data of a broken download and resumes it with Range", async () => {
  await using env = await setup();
  const { source, file, out, partial } = await interrupted(env);
  const before = env.server.log.length;
  const path = await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(path, `${out}/source.bin`);
  assertEquals(ranges(env.server, before), [`bytes=${partial.bytes}-`]);
  assertEquals(await sha256File(path), await sha256File(source));
  assertEquals(await listDir(out), ["source.bin"]);
});

Deno.test("downloadFile() of a big file resumes with Range too", async () => {
  await using env = await setup();
  const { source, file, out, partial } = await interrupted(env, 3_000_000);
  const before = env.server.log.length;
  const path = await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(ranges(env.server, before), [`bytes=${partial.bytes}-`]);
  assertEquals(await sha256File(path), await sha256File(source));
  assertEquals(await listDir(out), ["source.bin"]);
  const gets = env.server.log.filter((entry) => entry.path.endsWith("/download"));
  // The file's own bytes, never a compressed form: the Range and the size limit count them.
  assertEquals(gets.map((entry) => entry.headers["accept-encoding"]), ["identity", "identity"]);
});

Deno.test("downloadFile() starts over when the server ignores Range (200)", async () => {
  await using env = await setup();
  const { source, file, out } = await interrupted(env);
  env.server.addFault({ method: "GET", path: "/download", ignoreRange: true });
  const path = await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(await sha256File(path), await sha256File(source));
  assertEquals(await listDir(out), ["source.bin"]);
});

Deno.test("downloadFile() verifies a resumed file as a whole and drops corrupt partial data", async () => {
  await using env = await setup();
  const { file, out, partial } = await interrupted(env);
  await Deno.writeFile(partial.partPath, new Uint8Array(partial.bytes).fill(1));
  await assertRejects(() => env.record.downloadFile(file.id, `${out}/`), IntegrityError);
  assertEquals(await listDir(out), []);
});

Deno.test("downloadFile() verifies a resumed chunked file (composite checksum) from the file as a whole", async () => {
  await using env = await setup();
  // Six parts; the break comes in the third, so the kept data holds whole parts and a piece.
  const { source, file, out, partial } = await interrupted(env, 51_000_000, 25_000_000);
  assertEquals(file.checksum?.endsWith("-6"), true);
  // One byte of the kept data changed: the whole is refused and nothing is left.
  const kept = await Deno.open(partial.partPath, { write: true });
  await kept.seek(5_000_000, Deno.SeekMode.Start);
  await kept.write(new Uint8Array([1]));
  kept.close();
  await assertRejects(() => env.record.downloadFile(file.id, `${out}/`), IntegrityError);
  assertEquals(await listDir(out), []);
  // Broken again and resumed: the same file.
  env.server.addFault({ method: "GET", path: "/download", dropAfterBytes: 25_000_000, times: 1 });
  await assertRejects(
    () => env.record.downloadFile(file.id, `${out}/`, { keepPartial: true }),
    IncompleteDownloadError,
  );
  const before = env.server.log.length;
  const path = await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(ranges(env.server, before).length, 1);
  assertEquals(ranges(env.server, before)[0]?.startsWith("bytes="), true);
  assertEquals(await sha256File(path), await sha256File(source));
  assertEquals(await listDir(out), ["source.bin"]);
});

Deno.test("downloadFile() does not resume the partial data of a file changed on the server, and removes it", async () => {
  await using env = await setup();
  const { file, out, partial } = await interrupted(env);
  const minutesAgo = Date.now() / 1000 - 5 * 60;
  await Deno.utime(partial.partPath, minutesAgo, minutesAgo);
  // The file changes on the server: its checksum differs, so the partial data is stale.
  const changed = await env.record.uploadString("new content", file.name, { force: true });
  const before = env.server.log.length;
  const path = await env.record.downloadFile(changed.id, `${out}/`, {
    file: { ...changed, name: "source.bin" },
  });
  assertEquals(ranges(env.server, before), [undefined]);
  assertEquals(await Deno.readTextFile(path), "new content");
  assertEquals(await listDir(out), ["source.bin"]);
});

Deno.test("downloads remove stale temporary files: others of the same target, and any older than a day", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("fresh", "a.txt");
  const out = `${env.dir}/out`;
  await Deno.mkdir(out);
  const old = Date.now() / 1000 - 2 * 24 * 3600;
  const minutesAgo = Date.now() / 1000 - 5 * 60;
  const stale = {
    sameTarget: ".a.txt.0badf00d.part",
    otherOld: ".b.bin.12345678.part",
    otherRecent: ".c.bin.abcdef01.part",
    sameTargetInUse: ".a.txt.feedbeef.part",
    notOurs: ".a.txt.notahexx.part",
  };
  for (const name of Object.values(stale)) await Deno.writeTextFile(`${out}/${name}`, "old");
  await Deno.utime(`${out}/${stale.sameTarget}`, minutesAgo, minutesAgo);
  await Deno.utime(`${out}/${stale.otherOld}`, old, old);
  await Deno.utime(`${out}/${stale.notOurs}`, old, old);
  await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(
    await listDir(out),
    [
      stale.otherRecent,
      stale.sameTargetInUse,
      stale.notOurs,
      "a.txt",
    ].sort(),
  );
  await env.record.export(out, "json");
  assertEquals((await listDir(out)).includes("transfer-test.json"), true);
});

Deno.test("downloadFiles() with keepPartial lists every partial file and the rerun resumes them all", async () => {
  await using env = await setup();
  const sources: string[] = [];
  for (const seed of [1, 2, 3]) {
    const source = `${env.dir}/f${seed}.bin`;
    await writeRandomFile(source, 200_000, seed);
    await env.record.uploadFile(source);
    sources.push(source);
  }
  const out = `${env.dir}/out`;
  env.server.addFault({ method: "GET", path: "/download", dropAfterBytes: 50_000, times: 3 });
  const error = await assertRejects(
    () => env.record.downloadFiles(out, { keepPartial: true, concurrency: 3 }),
    IncompleteDownloadError,
  );
  assertEquals(error.partials.map((partial) => partial.path).sort(), [
    `${out}/f1.bin`,
    `${out}/f2.bin`,
    `${out}/f3.bin`,
  ]);
  const before = env.server.log.length;
  await env.record.downloadFiles(out);
  assertEquals(ranges(env.server, before).every((range) => range?.startsWith("bytes=")), true);
  for (const source of sources) {
    const name = source.slice(source.lastIndexOf("/") + 1);
    assertEquals(await sha256File(`${out}/${name}`), await sha256File(source));
  }
  assertEquals(await listDir(out), ["f1.bin", "f2.bin", "f3.bin"]);
});

Deno.test("export() aborted midway leaves no temporary file", async () => {
  await using env = await setup();
  env.server.addFault({ method: "GET", path: "/export/", slowBodyBytesPerSecond: 100 });
  const controller = new AbortController();
  const exporting = env.record.export(env.dir, "json", {
    signal: controller.signal,
    onProgress: () => controller.abort(new Error("stop")),
  });
  await assertRejects(() => exporting, Error);
  assertEquals(await listDir(env.dir), []);
});
