// Edge cases of downloads: sizes that differ from the body, missing directories, aborts, unsafe
// and long file names, name clashes within one downloadFiles() call, invalid file ids.
import { assertEquals, assertRejects } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { downloadFile } from "../../lib/transfer/download.ts";
import { IntegrityError } from "../../lib/transfer/errors.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { listDir, setup } from "./_helpers.ts";

Deno.test("downloadFile() rejects a body longer than the file's size and writes nothing", async () => {
  await using env = await setup();
  const real = await env.record.uploadString("0123456789", "a.txt");
  const error = await assertRejects(
    () =>
      downloadFile(env.record, real.id, { path: `${env.dir}/a.txt`, file: { ...real, size: 4 } }),
    IntegrityError,
  );
  assertEquals([error.facts.expectedSize, error.facts.size], [4, 10]);
  assertEquals(await listDir(env.dir), []);
});

Deno.test("downloadFile() creates the missing directories of a file path", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("deep", "a.txt");
  const path = await env.record.downloadFile(file.id, `${env.dir}/x/y/copy.txt`);
  assertEquals(path, `${env.dir}/x/y/copy.txt`);
  assertEquals(await Deno.readTextFile(path), "deep");
});

Deno.test("downloadFile() aborted midway leaves neither the file nor a temporary file", async () => {
  await using env = await setup();
  const file = await uploadFile(env.record, new Uint8Array(300_000), { fileName: "slow.bin" });
  env.server.addFault({ method: "GET", path: "/download", slowBodyBytesPerSecond: 200_000 });
  const controller = new AbortController();
  await assertRejects(
    () =>
      env.record.downloadFile(file.id, `${env.dir}/`, {
        signal: controller.signal,
        onProgress: ({ bytes }) => {
          if (bytes > 0) controller.abort(new Error("stop"));
        },
      }),
    Error,
  );
  assertEquals(controller.signal.aborted, true);
  assertEquals(await listDir(env.dir), []);
});

Deno.test("downloadFiles() flat keeps unsafe server names inside the target directory", async () => {
  await using env = await setup();
  // A control character the server keeps (it turns whitespace such as `\n` into a space).
  for (const name of ["../up.txt", "..", "a\u0001b\u007f.txt", "dir/x.txt"]) {
    await env.record.uploadString(name, name);
  }
  const target = `${env.dir}/out`;
  const paths = await env.record.downloadFiles(target, { flat: true });
  assertEquals(paths.length, 4);
  assertEquals(await listDir(target), [".._up.txt", "_", "a_b_.txt", "dir_x.txt"]);
  assertEquals(await listDir(env.dir), ["out"]);
});

Deno.test("downloadFiles() flat with force never overwrites a file it has just written", async () => {
  await using env = await setup();
  await env.record.uploadString("slash", "a/b.txt");
  await env.record.uploadString("underscore", "a_b.txt");
  const paths = await env.record.downloadFiles(env.dir, { force: true, flat: true });
  assertEquals(await listDir(env.dir), ["a_b.txt", "a_b_2.txt"]);
  const texts = await Promise.all(paths.map((path) => Deno.readTextFile(path)));
  assertEquals(texts.sort(), ["slash", "underscore"]);
});

Deno.test("downloadFile() writes a file whose name is near the length limit", async () => {
  await using env = await setup();
  const name = `${"n".repeat(246)}.txt`;
  const file = await env.record.uploadString("long", name);
  const path = await env.record.downloadFile(file.id, `${env.dir}/`);
  assertEquals(path, `${env.dir}/${name}`);
  assertEquals(await listDir(env.dir), [name]);
});

Deno.test("downloadFile() refuses the file ids '.' and '..' before any request", async () => {
  await using env = await setup();
  const before = env.server.log.length;
  for (const id of [".", ".."]) {
    await assertRejects(() => env.record.downloadFile(id, `${env.dir}/`), InputError);
    await assertRejects(() => env.record.downloadFile(id), InputError);
  }
  assertEquals(env.server.log.length, before);
});
