// End-to-end integrity of uploads: damaged storage, lost answers, reruns of finished uploads,
// several processes resuming one upload, and what an aborted upload leaves.
import {
  assertEquals,
  assertNotEquals,
  assertRejects,
  assertStringIncludes,
  assertTrue,
} from "../_assert.ts";
import { RequestError } from "../../lib/http/errors.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { Transport } from "../../lib/http/transport.ts";
import { UploadError } from "../../lib/transfer/errors.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import {
  chunkPuts,
  type Env,
  FAST_RETRY,
  setup,
  sha256,
  sha256File,
  stopAfter,
  writeRandomFile,
} from "./_helpers.ts";
import { openResource } from "../../lib/resources/resource.ts";

function uploadPosts(env: Env, from = 0): number {
  return env.server.log.slice(from).filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
}

async function files(env: Env): Promise<FileJson[]> {
  return (await env.transport.json<{ items: FileJson[] }>("GET", `${env.record.endpoint}/files`))
    .items;
}

Deno.test("uploadFile() fails with UploadError when the server stores other bytes (direct)", async () => {
  await using env = await setup({ faults: [{ method: "PUT", corruptStorage: true }] });
  const error = await assertRejects(
    () => env.record.uploadString("precious data", "data.txt"),
    UploadError,
  );
  assertStringIncludes(error.message, "stored other data for 'data.txt'");
  assertEquals(error.mismatch?.file.name, "data.txt");
  assertEquals(error.mismatch?.expectedSize, 13);
  assertNotEquals(error.mismatch?.file.checksum, error.mismatch?.expectedChecksums[0]);
});

Deno.test("uploadFile() fails with UploadError when the server stores other bytes (chunked)", async () => {
  await using env = await setup({
    faults: [{ method: "PUT", chunkIndex: 2, corruptStorage: true }],
  });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 61);
  const error = await assertRejects(() => env.record.uploadFile(source), UploadError);
  // Seen in the chunk list before the finish: never merged into a damaged file.
  assertStringIncludes(error.message, "stored other data than was sent for chunk 2 of 'big.bin'");
  assertEquals(error.resumable, false);
  assertEquals(await files(env), []);
  const uploads = await env.transport.json<{ items: unknown[] }>(
    "GET",
    `${env.record.endpoint}/uploads`,
  );
  assertEquals(uploads.items, []);
});

Deno.test("uploadFile() succeeds when the answer to finish is lost after the server took it", async () => {
  await using env = await setup({
    faults: [{ method: "POST", path: "/uploads/", dropAfterProcessing: true, times: 1 }],
  });
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 67);
  const file = await env.record.uploadFile(source);
  assertEquals(file.size, 51_000_000);
  assertEquals((await files(env)).map((f) => f.id), [file.id]);
  assertEquals(await sha256(await env.record.downloadFile(file.id)), await sha256File(source));
});

Deno.test("uploadFile() succeeds when the answer to a direct upload is lost", async () => {
  await using env = await setup({
    faults: [{ method: "PUT", path: "/uploads/", dropAfterProcessing: true, times: 1 }],
  });
  const file = await env.record.uploadString("hello", "hello.txt");
  assertEquals(file.name, "hello.txt");
  assertEquals((await files(env)).length, 1);
});

Deno.test("uploadFile() run again after a lost answer finds the identical file; other content is a 409", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 51_000_000, 71);
  const first = await env.record.uploadFile(source);
  const before = env.server.log.length;
  const again = await env.record.uploadFile(source);
  assertEquals(again.id, first.id);
  assertEquals(chunkPuts(env.server, before), []);
  const small = await env.record.uploadString("same", "small.txt");
  assertEquals((await env.record.uploadString("same", "small.txt")).id, small.id);
  const error = await assertRejects(
    () => env.record.uploadString("different", "small.txt"),
    RequestError,
  );
  assertEquals(error.status, 409);
});

Deno.test("uploadFile() by 4 concurrent resumers of one upload: 4 succeed, no chunk sent twice by one, no new upload", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 55_000_000, 73);
  env.server.addFault({ method: "PUT", chunkIndex: 3, drop: true });
  await assertRejects(() => env.record.uploadFile(source, { concurrency: 1 }), UploadError);
  env.server.clearFaults();
  const before = env.server.log.length;
  const transports = Array.from({ length: 4 }, () =>
    new Transport({
      settings: { host: env.server.url, pat: env.server.pat, timeout: 20 },
      retry: FAST_RETRY,
    }));
  try {
    const results = await Promise.allSettled(transports.map(async (transport) => {
      const record = await openResource(transport, RepoRecord, { id: env.record.id });
      return await uploadFile(record, source);
    }));
    const ids = results.map((r) => r.status === "fulfilled" ? r.value.id : String(r.reason));
    assertEquals(new Set(ids).size, 1, ids.join("\n"));
    assertEquals(uploadPosts(env, before), 0);
    // Chunks 3, 4 and 5 were missing: each resumer sends each of them at most once.
    const puts = chunkPuts(env.server, before);
    assertTrue(puts.every((index) => index >= 3), `sent ${puts}`);
    assertTrue(puts.length <= 12, `sent ${puts.length} chunks`);
    assertEquals((await files(env)).length, 1);
    assertEquals(await sha256(await env.record.downloadFile(ids[0]!)), await sha256File(source));
  } finally {
    for (const transport of transports) await transport.close();
  }
});

Deno.test("uploadFile() aborted leaves an UploadError telling what the server keeps", async () => {
  await using env = await setup();
  const source = `${env.dir}/big.bin`;
  await writeRandomFile(source, 55_000_000, 79);
  const error = await assertRejects(
    () => uploadFile(env.record, source, stopAfter(20_000_000)),
    UploadError,
  );
  assertEquals([error.aborted, error.resumable], [true, true]);
  assertEquals(error.left?.chunks, 2);
  assertEquals(error.left?.chunkCount, 6);
  assertEquals(error.left?.bytes, 20_000_000);
  assertEquals(error.left?.uploadId, error.upload?.id);
  assertStringIncludes(error.message, "keeps 2 of 6 chunks");

  // The rerun reports what was already there.
  const reports: { bytes: number; resumed: number | undefined }[] = [];
  await uploadFile(env.record, source, {
    onProgress: ({ bytes, resumed }) => reports.push({ bytes, resumed }),
  });
  assertEquals(reports[0], { bytes: 20_000_000, resumed: 20_000_000 });
  assertEquals(reports.at(-1), { bytes: 55_000_000, resumed: 20_000_000 });
});
