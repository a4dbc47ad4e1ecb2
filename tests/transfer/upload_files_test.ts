// uploadFiles(): folders and lists of files, clashes, skipExisting, failures and cancelling.
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { FilesExistError, UploadFilesError } from "../../lib/transfer/errors.ts";
import { uploadFiles } from "../../lib/transfer/upload_files.ts";
import { type Env, setup } from "./_helpers.ts";

async function names(env: Env): Promise<string[]> {
  return (await Array.fromAsync(env.record.files())).map((file) => file.name).sort();
}

async function writeFiles(dir: string, files: string[]): Promise<void> {
  for (const name of files) await Deno.writeTextFile(`${dir}/${name}`, `content of ${name}`);
}

Deno.test("uploadFiles() uploads a folder by pattern, or a list of files, and reports each", async () => {
  await using env = await setup();
  await writeFiles(env.dir, ["a.csv", "b.csv", "c.txt"]);
  await Deno.mkdir(`${env.dir}/sub`);
  await writeFiles(`${env.dir}/sub`, ["d.csv"]);
  const seen: string[] = [];
  const done = await env.record.uploadFiles(env.dir, {
    pattern: "*.csv",
    onFile: ({ file, skipped }) => seen.push(`${file.name}:${skipped}`),
  });
  assertEquals(done.uploaded.map((file) => file.name).sort(), ["a.csv", "b.csv"]);
  assertEquals(seen.sort(), ["a.csv:false", "b.csv:false"]);
  const listed = await uploadFiles(env.record, [`${env.dir}/c.txt`, `${env.dir}/sub/d.csv`]);
  assertEquals(listed.uploaded.map((file) => file.name).sort(), ["c.txt", "d.csv"]);
  assertEquals(await names(env), ["a.csv", "b.csv", "c.txt", "d.csv"]);
  await assertRejects(() => uploadFiles(env.record, [env.dir]), InputError);
  await assertRejects(() => uploadFiles(env.record, env.dir, { concurrency: 0 }), InputError);
});

Deno.test("uploadFiles() refuses clashes before sending anything; the same content is skipped", async () => {
  await using env = await setup();
  await writeFiles(env.dir, ["a.txt", "b.txt", "c.txt"]);
  await uploadFiles(env.record, [`${env.dir}/a.txt`, `${env.dir}/b.txt`]);
  await Deno.writeTextFile(`${env.dir}/a.txt`, "other");
  const before = env.server.log.length;
  const clash = await assertRejects(() => uploadFiles(env.record, env.dir), FilesExistError);
  assertEquals(clash.names, ["a.txt"]);
  assertStringIncludes(clash.message, "with other content");
  assertEquals(env.server.log.slice(before).filter((e) => e.path.includes("/uploads")).length, 0);
  await writeFiles(env.dir, ["a.txt"]);

  // A folder upload run again skips what the record has with the same content (no option).
  const done = await uploadFiles(env.record, env.dir);
  assertEquals(done.skipped.map((file) => file.name), ["a.txt", "b.txt"]);
  assertEquals(done.uploaded.map((file) => file.name), ["c.txt"]);

  // Changed content is not skipped: a clash, or a replacement with force.
  await Deno.writeTextFile(`${env.dir}/b.txt`, "changed");
  const changed = await assertRejects(
    () => uploadFiles(env.record, env.dir, { skipExisting: true }),
    FilesExistError,
  );
  assertEquals(changed.names, ["b.txt"]);
  const forced = await uploadFiles(env.record, env.dir, { skipExisting: true, force: true });
  assertEquals(forced.uploaded.map((file) => file.name), ["b.txt"]);
  assertEquals(forced.skipped.length, 2);

  // A single file with the same content is a success (a rerun), without skipExisting.
  const single = await uploadFiles(env.record, `${env.dir}/a.txt`);
  assertEquals([single.uploaded.length, single.skipped.length], [0, 1]);
});

Deno.test("uploadFiles() stops at a failure with UploadFilesError listing what was done", async () => {
  await using env = await setup({
    faults: [{ method: "POST", path: "/uploads", status: 500, nth: 2 }],
  });
  await writeFiles(env.dir, ["a.txt", "b.txt", "c.txt"]);
  const error = await assertRejects(
    () => uploadFiles(env.record, env.dir, { concurrency: 1 }),
    UploadFilesError,
  );
  assertEquals(error.path, `${env.dir}/b.txt`);
  assertEquals(error.done.uploaded.map((file) => file.name), ["a.txt"]);
  assertStringIncludes(error.message, "run the upload again to continue");
  assertEquals(await names(env), ["a.txt"]);
});

Deno.test("uploadFiles() cancelled stops with UploadFilesError; the rerun with skipExisting continues", async () => {
  await using env = await setup();
  await writeFiles(env.dir, ["a.txt", "b.txt", "c.txt"]);
  const controller = new AbortController();
  const error = await assertRejects(
    () =>
      uploadFiles(env.record, env.dir, {
        concurrency: 1,
        signal: controller.signal,
        onFile: () => controller.abort(new Error("stop")),
      }),
    UploadFilesError,
  );
  assertEquals(error.path, undefined);
  assertEquals(error.done.uploaded.map((file) => file.name), ["a.txt"]);
  assertEquals((error.cause as Error).message, "stop");
  assertStringIncludes(error.message, "cancelled after 1 of 3 files");
  const rerun = await uploadFiles(env.record, env.dir, { skipExisting: true });
  assertEquals([rerun.uploaded.length, rerun.skipped.length], [2, 1]);
});

Deno.test("uploadFiles(): a clash of many names names five and counts the rest; the error lists all", async () => {
  await using env = await setup();
  const names = Array.from({ length: 8 }, (_, index) => `f${index}.txt`);
  await writeFiles(env.dir, names);
  await uploadFiles(env.record, env.dir);
  for (const name of names) await Deno.writeTextFile(`${env.dir}/${name}`, "changed");
  const clash = await assertRejects(() => uploadFiles(env.record, env.dir), FilesExistError);
  assertEquals(clash.names, names);
  assertStringIncludes(
    clash.message,
    "8 files named 'f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt' and 3 more with other content",
  );
});
