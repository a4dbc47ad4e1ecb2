import { assertEquals, assertRejects, assertStringIncludes, assertTrue } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { RequestError } from "../../lib/http/errors.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { UploadError } from "../../lib/transfer/errors.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { chunkPuts, setup, sha256, sha256File, stopAfter, writeRandomFile } from "./_helpers.ts";

const MiB = 1024 * 1024;

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return await new Response(stream).text();
}

Deno.test("uploadFile() sends a 120 MiB file in chunks and downloadFile() returns identical bytes", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 120 * MiB);
  const progress: number[] = [];
  const file = await env.record.uploadFile(source, {
    onProgress: ({ bytes }) => progress.push(bytes),
  });
  assertEquals(file.name, "big.bin");
  assertEquals(file.size, 120 * MiB);
  assertTrue(file.checksum?.endsWith("-13"), `composite checksum expected, got ${file.checksum}`);
  assertEquals(chunkPuts(env.server).sort((a, b) => a - b), [...Array(13).keys()]);
  assertEquals(progress.at(-1), 120 * MiB);

  const target = `${env.dir}/out`;
  await Deno.mkdir(target);
  const path = await env.record.downloadFile(file.id, target);
  assertEquals(path, `${target}/big.bin`);
  assertEquals(await sha256File(path), await sha256File(source));
});

Deno.test("uploadFile() uploads a small file directly with one PUT", async () => {
  await using env = await setup();
  const source = `${env.dir}/small.bin`;
  await writeRandomFile(source, 300_000, 7);
  const file = await env.record.uploadFile(source, { fileDescription: "small one" });
  assertEquals([file.name, file.size, file.description], ["small.bin", 300_000, "small one"]);
  const puts = env.server.log.filter((entry) => entry.method === "PUT");
  assertEquals(puts.length, 1);
  assertEquals(puts[0]?.chunkIndex, undefined);
  assertEquals(puts[0]?.headers["content-length"], "300000");
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() uploads a stream source when given its size", async () => {
  await using env = await setup();
  const source = `${env.dir}/stream.bin`;
  await writeRandomFile(source, 55_000_000, 3);
  const stream = (await Deno.open(source)).readable;
  const file = await env.record.uploadFile(stream, { fileName: "s.bin", size: 55_000_000 });
  assertEquals(file.size, 55_000_000);
  assertEquals(chunkPuts(env.server).sort(), [0, 1, 2, 3, 4, 5]);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() rejects a stream without size and a missing file", async () => {
  await using env = await setup();
  await assertRejects(
    () => env.record.uploadFile(ReadableStream.from([new Uint8Array(1)]), { fileName: "x" }),
    InputError,
  );
  await assertRejects(() => env.record.uploadFile(`${env.dir}/missing.bin`), InputError);
  assertEquals(env.server.log.filter((entry) => entry.path.includes("/uploads")).length, 0);
});

Deno.test("uploadString() stores the text as a file", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("héllo wörld", "greeting.txt", {
    fileDescription: "greeting",
  });
  assertEquals([file.name, file.size, file.description], ["greeting.txt", 13, "greeting"]);
  assertEquals(await text(await env.record.downloadFile(file.id)), "héllo wörld");
});

Deno.test("uploadFile() without force rejects an existing name with a 409 and changes nothing", async () => {
  await using env = await setup();
  const first = await env.record.uploadString("first", "a.txt");
  const error = await assertRejects(
    () => env.record.uploadString("second!", "a.txt"),
    RequestError,
  );
  assertEquals(error.status, 409);
  const files = await env.transport.json<{ items: FileJson[] }>(
    "GET",
    `${env.record.endpoint}/files`,
  );
  assertEquals(files.items.map((f) => [f.id, f.size]), [[first.id, 5]]);
  assertEquals(await text(await env.record.downloadFile(first.id)), "first");
});

Deno.test("uploadFile() with force replaces the data and keeps the description when none is given", async () => {
  await using env = await setup();
  const first = await env.record.uploadString("first", "a.txt", { fileDescription: "keep me" });
  const replaced = await env.record.uploadString("second!", "a.txt", { force: true });
  assertEquals([replaced.id, replaced.size, replaced.description], [first.id, 7, "keep me"]);
  assertEquals(await text(await env.record.downloadFile(first.id)), "second!");
  const described = await env.record.uploadString("third", "a.txt", {
    force: true,
    fileDescription: "new text",
  });
  assertEquals(described.description, "new text");
});

Deno.test("uploadFile() with force replaces a large file through chunks", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 52_000_000, 5);
  const first = await env.record.uploadString("tiny", "big.bin", { fileDescription: "big" });
  const replaced = await env.record.uploadFile(source, { force: true });
  assertEquals([replaced.id, replaced.size, replaced.description], [first.id, 52_000_000, "big"]);
  assertEquals(await sha256(await env.record.downloadFile(first.id)), await sha256File(source));
});

Deno.test("uploadFile() survives a dropped connection at chunk 3 and a 503 at chunk 5", async () => {
  await using env = await setup({
    faults: [
      { method: "PUT", chunkIndex: 3, drop: true, times: 1 },
      { method: "PUT", chunkIndex: 5, status: 503, times: 1 },
    ],
  });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 55_000_000, 11);
  const file = await env.record.uploadFile(source);
  const sent = chunkPuts(env.server);
  assertEquals(sent.filter((index) => index === 3).length, 2);
  assertEquals(sent.filter((index) => index === 5).length, 2);
  assertEquals([...new Set(sent)].sort(), [0, 1, 2, 3, 4, 5]);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() resumes a failed upload and sends only the missing chunks", async () => {
  // Chunk 3 fails for good: every attempt loses its connection, the retries give up.
  await using env = await setup({ faults: [{ method: "PUT", chunkIndex: 3, drop: true }] });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 55_000_000, 13);
  const error = await assertRejects(
    () => env.record.uploadFile(source, { concurrency: 1 }),
    UploadError,
  );
  assertTrue(error.resumable);
  assertStringIncludes(error.message, "run the same upload again to resume");
  assertEquals(chunkPuts(env.server), [0, 1, 2, 3, 3, 3, 3, 3]);

  env.server.clearFaults();
  const before = env.server.log.length;
  const file = await env.record.uploadFile(source, { concurrency: 2 });
  assertEquals(chunkPuts(env.server, before).sort(), [3, 4, 5]);
  const posts = env.server.log.slice(before).filter((e) =>
    e.method === "POST" && e.path.endsWith("/uploads")
  );
  assertEquals(posts.length, 0);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() aborted after two chunks resumes with the remaining ones", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 55_000_000, 17);
  const stop = stopAfter(20_000_000);
  await assertRejects(
    () => uploadFile(env.record, source, stop),
    Error,
  );
  assertEquals(stop.signal.aborted, true);
  assertEquals(chunkPuts(env.server), [0, 1]);

  const before = env.server.log.length;
  const progress: number[] = [];
  const file = await uploadFile(env.record, source, {
    onProgress: ({ bytes }) => progress.push(bytes),
  });
  assertEquals(chunkPuts(env.server, before).sort(), [2, 3, 4, 5]);
  assertEquals([progress[0], progress.at(-1)], [20_000_000, 55_000_000]);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() of a direct upload aborted mid-body stores nothing, drops the upload, and the same call again stores the file once", async () => {
  await using env = await setup({
    faults: [{ method: "PUT", path: "/uploads/", slowRequestBytesPerSecond: 100_000 }],
  });
  const source = `${env.dir}/small.bin`;
  await writeRandomFile(source, 1_000_000, 29);
  const controller = new AbortController();
  const upload = uploadFile(env.record, source, { signal: controller.signal });
  // The PUT's headers have arrived; its body (10 s at this rate) is still on its way.
  for (let poll = 0; poll < 1200; poll++) {
    if (env.server.log.some((entry) => entry.method === "PUT")) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort(new Error("stop here"));
  const error = await assertRejects(() => upload, Error);
  assertStringIncludes(String(error), "stop here");
  env.server.clearFaults();
  assertEquals(await Array.fromAsync(env.record.files()), []);
  const deleted = env.server.log.filter((entry) =>
    entry.method === "DELETE" && /\/uploads\//.test(entry.path)
  );
  assertEquals(deleted.length, 1);

  const file = await uploadFile(env.record, source);
  assertEquals((await Array.fromAsync(env.record.files())).map((f) => f.name), ["small.bin"]);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() with resume off starts a new upload", async () => {
  await using env = await setup({ faults: [{ method: "PUT", chunkIndex: 1, drop: true }] });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 19);
  await assertRejects(() => env.record.uploadFile(source, { concurrency: 1 }), UploadError);
  env.server.clearFaults();
  const before = env.server.log.length;
  await env.record.uploadFile(source, { resume: false });
  assertEquals(chunkPuts(env.server, before).sort(), [0, 1, 2, 3, 4, 5]);
});

Deno.test("uploadFile() throws UploadError when the server cannot merge the chunks", async () => {
  await using env = await setup({
    faults: [{ method: "POST", path: "/uploads/", taskError: "Disk quota exceeded." }],
  });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 23);
  const error = await assertRejects(() => env.record.uploadFile(source), UploadError);
  assertEquals(error.task?.error, "Disk quota exceeded.");
  assertEquals(error.resumable, false);
  assertStringIncludes(error.message, "Disk quota exceeded.");
  const files = await env.transport.json<{ items: FileJson[] }>(
    "GET",
    `${env.record.endpoint}/files`,
  );
  assertEquals(files.items.length, 0);
});
