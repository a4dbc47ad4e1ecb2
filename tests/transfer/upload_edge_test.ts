// Edge cases of uploadFile(): boundaries, bad input, changing files, resuming against a different
// file or a vanished upload.
import { assertEquals, assertRejects, assertStringIncludes, assertTrue } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { UploadError } from "../../lib/transfer/errors.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { chunkPuts, type Env, setup, sha256, sha256File, writeRandomFile } from "./_helpers.ts";

function uploadPosts(env: Env, from = 0): number {
  return env.server.log.slice(from).filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
}

async function fileCount(env: Env): Promise<number> {
  const page = await env.transport.json<{ items: FileJson[] }>(
    "GET",
    `${env.record.endpoint}/files`,
  );
  return page.items.length;
}

/** Leaves an upload of `path` on the server with chunks 0 to 2 stored. */
async function failAtChunk3(env: Env, path: string): Promise<void> {
  env.server.addFault({ method: "PUT", chunkIndex: 3, drop: true });
  await assertRejects(() => env.record.uploadFile(path, { concurrency: 1 }), UploadError);
  env.server.clearFaults();
}

Deno.test("uploadFile() sends an empty file as a direct upload", async () => {
  await using env = await setup();
  const source = `${env.dir}/empty.bin`;
  await Deno.writeFile(source, new Uint8Array(0));
  const file = await env.record.uploadFile(source);
  assertEquals([file.name, file.size], ["empty.bin", 0]);
  assertEquals(chunkPuts(env.server), []);
  assertEquals(await new Response(await env.record.downloadFile(file.id)).text(), "");
});

Deno.test("uploadFile() sends exactly 50,000,000 bytes directly and one byte more in 6 chunks", async () => {
  await using env = await setup();
  const direct = `${env.dir}/direct.bin`;
  const chunked = `${env.dir}/chunked.bin`;
  // Sparse files: cheap to create, read as zeros.
  for (const [path, size] of [[direct, 50_000_000], [chunked, 50_000_001]] as const) {
    using file = await Deno.open(path, { write: true, create: true });
    await file.truncate(size);
  }
  const first = await env.record.uploadFile(direct);
  assertEquals(first.size, 50_000_000);
  assertEquals(chunkPuts(env.server), []);
  const second = await env.record.uploadFile(chunked);
  assertEquals(second.size, 50_000_001);
  assertTrue(
    second.checksum?.endsWith("-6"),
    `composite checksum expected, got ${second.checksum}`,
  );
  assertEquals(chunkPuts(env.server).sort(), [0, 1, 2, 3, 4, 5]);
  const last = env.server.log.find((entry) => entry.chunkIndex === 5);
  assertEquals(last?.headers["kadi-chunk-size"], "1");
});

Deno.test("uploadFile() of a directory is an InputError and sends nothing", async () => {
  await using env = await setup();
  const before = env.server.log.length;
  const error = await assertRejects(() => env.record.uploadFile(env.dir), InputError);
  assertStringIncludes(error.message, "is not a regular file");
  assertEquals(env.server.log.length, before);
});

Deno.test("uploadFile() checks the concurrency bounds before any request", async () => {
  await using env = await setup();
  const before = env.server.log.length;
  for (const concurrency of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN]) {
    await assertRejects(
      () => uploadFile(env.record, new Uint8Array(1), { fileName: "x", concurrency }),
      InputError,
    );
  }
  assertEquals(env.server.log.length, before);
  // More workers than chunks is fine: the pool is cut to the chunk count.
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 41);
  const file = await env.record.uploadFile(source, { concurrency: 1_000_000_000 });
  assertEquals(file.size, 51_000_000);
});

Deno.test("uploadFile() retries a direct upload from a stream after a 503", async () => {
  await using env = await setup({ faults: [{ method: "PUT", status: 503, times: 1 }] });
  const bytes = new TextEncoder().encode("streamed once");
  const file = await env.record.uploadFile(ReadableStream.from([bytes]), {
    fileName: "s.txt",
    size: bytes.byteLength,
  });
  assertEquals(file.size, bytes.byteLength);
  assertEquals(await new Response(await env.record.downloadFile(file.id)).text(), "streamed once");
});

Deno.test("uploadFile() refuses a file that grows while it is uploaded and creates no file", async () => {
  await using env = await setup();
  const source = `${env.dir}/growing.bin`;
  await writeRandomFile(source, 51_000_000, 43);
  let grown = false;
  const error = await assertRejects(
    () =>
      env.record.uploadFile(source, {
        concurrency: 1,
        onProgress: ({ bytes }) => {
          if (bytes > 0 && !grown) {
            grown = true;
            Deno.writeFileSync(source, new Uint8Array(10), { append: true });
          }
        },
      }),
    InputError,
  );
  assertStringIncludes(error.message, "changed while it was uploaded");
  assertEquals(await fileCount(env), 0);
});

Deno.test("uploadFile() never resumes an upload whose stored chunks are other data of the same name and size", async () => {
  await using env = await setup();
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 55_000_000, 47);
  await failAtChunk3(env, source);
  // The local file changes in chunk 1 only (same name, same size) before the upload is resumed.
  using file = await Deno.open(source, { write: true });
  await file.seek(12_345_678, Deno.SeekMode.Start);
  await file.write(new Uint8Array([1, 2, 3, 4]));
  file.close();

  const before = env.server.log.length;
  const progress: number[] = [];
  const uploaded = await env.record.uploadFile(source, {
    onProgress: ({ bytes }) => progress.push(bytes),
  });
  assertEquals(chunkPuts(env.server, before).sort(), [0, 1, 2, 3, 4, 5]);
  assertEquals(uploadPosts(env, before), 1);
  assertEquals(progress.at(-1), 55_000_000);
  assertEquals(await sha256(await env.record.downloadFile(uploaded.id)), await sha256File(source));
});

Deno.test("uploadFile() starts a new upload when the resumed one is gone (404 on a chunk)", async () => {
  await using env = await setup();
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 55_000_000, 53);
  await failAtChunk3(env, source);
  // The listed upload expires before its next chunk arrives.
  env.server.addFault({ method: "PUT", chunkIndex: 3, status: 404, times: 1 });
  const before = env.server.log.length;
  const file = await env.record.uploadFile(source, { concurrency: 1 });
  assertEquals(uploadPosts(env, before), 1);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() fails clearly, without looping, when a new upload answers 404", async () => {
  await using env = await setup({ faults: [{ method: "PUT", chunkIndex: 2, status: 404 }] });
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 51_000_000, 59);
  const error = await assertRejects(
    () => env.record.uploadFile(source, { concurrency: 1 }),
    UploadError,
  );
  assertEquals(error.resumable, false);
  assertStringIncludes(error.message, "no longer has this upload");
  assertEquals(uploadPosts(env), 1);

  // A resumed upload that keeps answering 404 is replaced once, then the error is reported.
  const before = env.server.log.length;
  await assertRejects(() => env.record.uploadFile(source, { concurrency: 1 }), UploadError);
  assertEquals(uploadPosts(env, before), 1);
});
