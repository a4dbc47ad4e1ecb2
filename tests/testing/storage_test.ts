// Where the local server keeps file bytes: bodies up to 1 MiB in memory, larger ones in its
// storage directory; downloads, ranges, the ZIP of all files, replacements and deletes read and
// free both the same way.
import { BlobReader, Uint8ArrayWriter, ZipReader } from "@zip.js/zip.js";
import { assertEquals } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call, createRecord, pollTask } from "./_helpers.ts";

async function storedFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const top of Deno.readDir(dir)) {
    for await (const entry of Deno.readDir(`${dir}/${top.name}`)) names.push(entry.name);
  }
  return names;
}

/** `size` bytes of the pattern `(i * 31 + seed) % 251`: one period, then doubled in place. */
function bytes(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < Math.min(size, 251); i++) out[i] = (i * 31 + seed) % 251;
  // Each copy starts at a multiple of the period, so the pattern goes on unchanged.
  for (let filled = 251; filled < size; filled *= 2) {
    out.copyWithin(filled, 0, Math.min(filled, size - filled));
  }
  return out;
}

async function upload(
  server: TestServer,
  recordId: number,
  name: string,
  data: Uint8Array<ArrayBuffer>,
) {
  const started = await call(server, "POST", `/records/${recordId}/uploads`, {
    body: { name, size: data.byteLength },
  });
  const done = await call(server, "PUT", started.body._actions.upload_data, { raw: data });
  assertEquals(done.status, 201);
  return done.body;
}

async function download(server: TestServer, url: string, range?: string) {
  const headers: Record<string, string> = { Authorization: `Bearer ${server.pat}` };
  if (range !== undefined) headers.Range = range;
  return new Uint8Array(await (await fetch(url, { headers })).arrayBuffer());
}

Deno.test("storage: small files stay in memory, large ones on disk; both read, replaced and freed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "storage-test-" });
  try {
    const server = await startServer({ storageDir: dir });
    const record = await createRecord(server, "stored");
    const small = bytes(4096, 1);
    const large = bytes(1_500_000, 2);
    const a = await upload(server, record.id, "small.bin", small);
    assertEquals(await storedFiles(dir), []);
    const b = await upload(server, record.id, "large.bin", large);
    assertEquals((await storedFiles(dir)).length, 1);
    for (const [file, data] of [[a, small], [b, large]] as const) {
      assertEquals(await download(server, file._links.download), data);
      assertEquals(await download(server, file._links.download, "bytes=10-19"), data.slice(10, 20));
      assertEquals(await download(server, file._links.download, "bytes=-5"), data.slice(-5));
    }
    const zip = await download(server, `${server.url}/api/v1/records/${record.id}/files/download`);
    const reader = new ZipReader(new BlobReader(new Blob([zip.slice()])));
    const entries = await reader.getEntries();
    const contents = [];
    for (const entry of entries) {
      if (!entry.directory) contents.push(await entry.getData(new Uint8ArrayWriter()));
    }
    await reader.close();
    assertEquals(entries.map((e) => e.filename), ["small.bin", "large.bin"]);
    assertEquals(contents, [small, large]);
    // The small file becomes large (on disk), the large one small (in memory).
    const swapA = await call(server, "PUT", a._links.self, { body: { size: large.byteLength } });
    await call(server, "PUT", swapA.body._actions.upload_data, { raw: large });
    const swapB = await call(server, "PUT", b._links.self, { body: { size: small.byteLength } });
    await call(server, "PUT", swapB.body._actions.upload_data, { raw: small });
    assertEquals(await download(server, a._links.download), large);
    assertEquals(await download(server, b._links.download), small);
    assertEquals((await storedFiles(dir)).length, 1);
    assertEquals((await call(server, "DELETE", a._links.self)).status, 204);
    assertEquals(await storedFiles(dir), []);
    assertEquals((await call(server, "GET", a._links.download)).status, 404);
    await server.close();
    assertEquals([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("storage: the magic MIME type comes from the first bytes of a large body and of a merged upload", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "magic");
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const large = bytes(1_500_000, 3);
  large.set(png);
  assertEquals((await upload(server, record.id, "large.png", large)).magic_mimetype, "image/png");
  // More than the direct-upload maximum: chunks, then the merge.
  const chunked = bytes(50_000_001, 4);
  chunked.set([0x25, 0x50, 0x44, 0x46, 0x2d]); // %PDF-
  const started = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "merged.pdf", size: chunked.byteLength },
  });
  assertEquals(started.body.upload_type, "chunked");
  const chunkSize = started.body._meta.chunk_size;
  for (let index = 0; index * chunkSize < chunked.byteLength; index++) {
    const data = chunked.slice(index * chunkSize, (index + 1) * chunkSize);
    const sent = await call(server, "PUT", started.body._actions.upload_data, {
      raw: data,
      headers: { "Kadi-Chunk-Index": String(index), "Kadi-Chunk-Size": String(data.byteLength) },
    });
    assertEquals(sent.status, 200);
  }
  const finished = await call(server, "POST", started.body._actions.finish);
  assertEquals(finished.status, 202);
  const task = await pollTask(server, started.body._links.self);
  assertEquals(task._meta.task.file.magic_mimetype, "application/pdf");
});
