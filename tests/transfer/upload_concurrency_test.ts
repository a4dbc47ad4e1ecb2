// Uploads that overlap: processes uploading different files of one name at once (direct and
// chunked, with and without force), another process writing into this upload before its finish,
// and the resume rule (only an upload holding this data's chunks is resumed).
import { assertEquals, assertRejects } from "../_assert.ts";
import { RequestError } from "../../lib/http/errors.ts";
import type { FileJson, UploadJson } from "../../lib/http/protocol.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { type Env, randomBytes, setup, sha256, sha256File, writeRandomFile } from "./_helpers.ts";

const RUNS = 8;

async function files(env: Env): Promise<FileJson[]> {
  return (await env.transport.json<{ items: FileJson[] }>("GET", `${env.record.endpoint}/files`))
    .items;
}

async function uploads(env: Env): Promise<UploadJson[]> {
  return (await env.transport.json<{ items: UploadJson[] }>(
    "GET",
    `${env.record.endpoint}/uploads`,
  ))
    .items;
}

/** SHA-256 of the record's only file of `name`. */
async function stored(env: Env, name: string): Promise<string> {
  const [file, ...more] = (await files(env)).filter((f) => f.name === name);
  assertEquals(more.length, 0);
  return await sha256(await env.record.downloadFile(file!.id));
}

async function hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return await sha256(ReadableStream.from([bytes]));
}

Deno.test(`${RUNS} overlapping direct uploads of different files of one name: one succeeds, ${RUNS - 1} say the file exists, nothing mixed or left`, async () => {
  await using env = await setup();
  const sources = Array.from({ length: RUNS }, (_, i) => randomBytes(300_000, 100 + i));
  const results = await Promise.allSettled(
    sources.map((bytes) => uploadFile(env.record, bytes, { fileName: "same.bin" })),
  );
  const won = results.flatMap((r, i) => r.status === "fulfilled" ? [i] : []);
  assertEquals(won.length, 1);
  for (const result of results) {
    if (result.status === "rejected") {
      assertEquals(result.reason instanceof RequestError && result.reason.status, 409);
    }
  }
  assertEquals(await stored(env, "same.bin"), await hex(sources[won[0]!]!));
  assertEquals(await uploads(env), []);
});

Deno.test(`${RUNS} overlapping forced direct uploads of different files of one name all succeed: the file is exactly one of them, nothing left`, async () => {
  await using env = await setup();
  const sources = Array.from({ length: RUNS }, (_, i) => randomBytes(300_000, 200 + i));
  await Promise.all(
    sources.map((bytes) => uploadFile(env.record, bytes, { fileName: "same.bin", force: true })),
  );
  const digests = await Promise.all(sources.map(hex));
  assertEquals(digests.includes(await stored(env, "same.bin")), true);
  assertEquals(await uploads(env), []);
});

Deno.test("two overlapping chunked uploads of different files of one name: one wins without force, both succeed with it; never mixed, nothing left", async () => {
  await using env = await setup();
  const sources = [`${env.dir}/a.bin`, `${env.dir}/b.bin`];
  await writeRandomFile(sources[0]!, 51_000_000, 301);
  await writeRandomFile(sources[1]!, 51_000_000, 302);
  const digests = await Promise.all(sources.map(sha256File));
  const upload = (path: string, force: boolean) =>
    env.record.uploadFile(path, { fileName: "same.bin", force, concurrency: 2 });

  const plain = await Promise.allSettled(sources.map((path) => upload(path, false)));
  const won = plain.flatMap((r, i) => r.status === "fulfilled" ? [i] : []);
  assertEquals(won.length, 1);
  const lost = plain.find((r) => r.status === "rejected") as PromiseRejectedResult;
  assertEquals(lost.reason instanceof RequestError && lost.reason.status, 409);
  assertEquals(await stored(env, "same.bin"), digests[won[0]!]);
  assertEquals(await uploads(env), []);

  await Promise.all(sources.map((path) => upload(path, true)));
  assertEquals(digests.includes(await stored(env, "same.bin")), true);
  assertEquals(await uploads(env), []);
});

Deno.test("uploadFile() never finishes an upload holding a chunk it did not verify: another process's chunk makes it start anew", async () => {
  await using env = await setup();
  const source = `${env.dir}/data.bin`;
  await writeRandomFile(source, 51_000_000, 401);
  // The check before the finish waits until another process has rewritten the last chunk.
  env.server.addFault({ method: "GET", path: /\/uploads\/[0-9a-f-]+$/, delayMs: 3000, times: 1 });
  let hostile: Promise<void> | undefined;
  const file = await env.record.uploadFile(source, {
    onProgress: ({ bytes, total }) => {
      if (bytes !== total || hostile) return;
      hostile = (async () => {
        const [upload] = await uploads(env);
        const response = await env.transport.request("PUT", upload!._actions.upload_data!, {
          body: new Uint8Array(1_000_000).fill(9),
          headers: { "kadi-chunk-index": "5", "kadi-chunk-size": "1000000" },
        });
        await response.body?.cancel();
      })();
    },
  });
  await hostile;
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
  const posts = env.server.log.filter((e) => e.method === "POST" && e.path.endsWith("/uploads"));
  assertEquals(posts.length, 2);
  assertEquals(await uploads(env), []);
});

Deno.test("an upload that cannot finish because of another process's data says so and leaves nothing (a stream: no second try)", async () => {
  await using env = await setup();
  const bytes = randomBytes(300_000, 501);
  const other = randomBytes(300_000, 502);
  await uploadFile(env.record, other, { fileName: "x.bin" });
  // A stream cannot be read twice: the name taken meanwhile is the end.
  const error = await assertRejects(
    () =>
      env.record.uploadFile(ReadableStream.from([bytes]), {
        fileName: "x.bin",
        size: bytes.byteLength,
      }),
    RequestError,
  );
  assertEquals(error.status, 409);
  assertEquals(await uploads(env), []);
  assertEquals(await stored(env, "x.bin"), await hex(other));
});
