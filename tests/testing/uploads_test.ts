// Tests of the local server's upload protocol, file endpoints, downloads and the files ZIP.
import { createHash } from "node:crypto";
import { BlobReader, Uint8ArrayWriter, ZipReader } from "@zip.js/zip.js";
import { assert, assertEquals } from "../_assert.ts";
import { UPLOAD_CHUNK_SIZE } from "../../lib/http/protocol.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call, createRecord, pollTask } from "./_helpers.ts";

const encoder = new TextEncoder();
const md5 = (data: Uint8Array | string) => createHash("md5").update(data).digest("hex");

async function directUpload(server: TestServer, recordId: number, name: string, text: string) {
  const upload = await call(server, "POST", `/records/${recordId}/uploads`, {
    body: { name, size: encoder.encode(text).byteLength },
  });
  assertEquals(upload.status, 201);
  return await call(server, "PUT", upload.body._actions.upload_data, { raw: encoder.encode(text) });
}

Deno.test("direct upload: initiate, PUT data → 201 File with MD5, download, clash and replace", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "files");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 5, description: "desc", mimetype: "text/plain", checksum: "x" },
  });
  assertEquals(upload.body.upload_type, "direct");
  assertEquals(upload.body.chunk_count, 1);
  assertEquals(upload.body._meta, { chunk_size: 5 });
  assertEquals("checksum" in upload.body, false);
  assertEquals("finish" in upload.body._actions, false);
  const file = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: encoder.encode("hello"),
    headers: { "Kadi-MD5-Checksum": md5("hello") },
  });
  assertEquals(file.status, 201);
  assertEquals([file.body.name, file.body.size, file.body.checksum], ["a.txt", 5, md5("hello")]);
  const download = await fetch(file.body._links.download, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  assertEquals(download.headers.get("content-type"), "text/plain");
  assertEquals(download.headers.get("content-length"), "5");
  assertEquals(download.headers.get("content-disposition"), "attachment; filename=a.txt");
  assertEquals(await download.text(), "hello");
  const clash = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 3 },
  });
  assertEquals([clash.status, clash.body.description], [
    409,
    "A file with that name already exists.",
  ]);
  assertEquals(clash.body.file.id, file.body.id);
  const replace = await call(server, "PUT", clash.body.file._actions.edit_data, {
    body: { size: 3 },
  });
  assertEquals(replace.status, 201);
  assertEquals(replace.body.file.id, file.body.id);
  assertEquals(replace.body.description, null); // not given: null, and the file keeps its own
  const replaced = await call(server, "PUT", replace.body._actions.upload_data, {
    raw: encoder.encode("bye"),
  });
  assertEquals([replaced.status, replaced.body.id, replaced.body.size], [201, file.body.id, 3]);
  const revisions = await call(server, "GET", `/records/${record.id}/files/revisions`);
  assertEquals(revisions.body._pagination.total_items, 2);
});

Deno.test("direct upload: size and checksum mismatches answer 400 and store nothing", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "files");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 5 },
  });
  const short = await call(server, "PUT", upload.body._actions.upload_data, { raw: "hey" });
  assertEquals(short.status, 400);
  const wrongSum = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: "hello",
    headers: { "Kadi-MD5-Checksum": md5("other") },
  });
  assertEquals(wrongSum.status, 400);
  const files = await call(server, "GET", `/records/${record.id}/files`);
  assertEquals(files.body.items, []);
});

Deno.test("chunked upload: header validation, resume listing, finish, merge task and checksum", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "big");
  const size = 55_000_000;
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "big.bin", size },
  });
  assertEquals(upload.body.upload_type, "chunked");
  assertEquals(upload.body.chunk_count, 6);
  assertEquals(upload.body._meta, { chunk_size: UPLOAD_CHUNK_SIZE });
  const url = upload.body._actions.upload_data;
  const tooFar = await call(server, "PUT", url, {
    raw: "x",
    headers: { "Kadi-Chunk-Index": "6", "Kadi-Chunk-Size": "1" },
  });
  assertEquals(tooFar.body.errors, { index: ["Must be less than 6."] });
  const small = await call(server, "PUT", url, {
    raw: "x",
    headers: { "Kadi-Chunk-Index": "0", "Kadi-Chunk-Size": "1" },
  });
  assertEquals(small.body.errors.size, [
    "Only the last chunk may be smaller than the chunk size (10 MB).",
  ]);
  const missing = await call(server, "PUT", url, { raw: "x" });
  assertEquals(Object.keys(missing.body.errors).sort(), ["index", "size"]);
  const digests = createHash("md5");
  const whole = createHash("md5");
  for (let index = 0; index < 6; index++) {
    const length = Math.min(UPLOAD_CHUNK_SIZE, size - index * UPLOAD_CHUNK_SIZE);
    const data = new Uint8Array(length).fill(index + 1);
    digests.update(createHash("md5").update(data).digest());
    whole.update(data);
    if (index === 3) {
      const early = await call(server, "POST", upload.body._actions.finish);
      assertEquals(
        early.body.description,
        "Number of uploaded chunks does not match the expected chunk count.",
      );
      const listing = await call(server, "GET", `/records/${record.id}/uploads`);
      assertEquals(listing.body.items.length, 1);
      assertEquals(listing.body.items[0].chunks.map((c: { index: number }) => c.index), [0, 1, 2]);
      assertEquals("_pagination" in listing.body, false);
    }
    const stream = new Blob([data]).stream();
    const answer = await call(server, "PUT", url, {
      raw: stream,
      headers: {
        "Kadi-Chunk-Index": String(index),
        "Kadi-Chunk-Size": String(length),
        "Kadi-MD5-Checksum": md5(data),
      },
    });
    assertEquals(answer.status, 200);
  }
  const finished = await call(server, "POST", upload.body._actions.finish);
  assertEquals([finished.status, finished.body.state], [202, "processing"]);
  const done = await pollTask(server, upload.body._links.self);
  assertEquals(done._meta.task.state, "success");
  assertEquals(done._meta.task.file.checksum, `${digests.digest("hex")}-6`);
  assertEquals(done._meta.task.file.size, size);
  assertEquals((await call(server, "GET", `/records/${record.id}/uploads`)).body.items, []);
  const download = await fetch(done._meta.task.file._links.download, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  const check = createHash("md5");
  for await (const part of download.body!) check.update(part);
  assertEquals(check.digest("hex"), whole.digest("hex"));
  assertEquals(
    server.log.filter((e) => e.chunkIndex === 5 && e.status === 200)[0]?.bodyBytes,
    5_000_000,
  );
});

Deno.test("uploads: quota, body limit and cancel", async () => {
  await using server = await startServer({ quota: 1000 });
  const record = await createRecord(server, "q");
  const over = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "x", size: 1001 },
  });
  assertEquals([over.status, over.body.description], [
    413,
    "Maximum upload quota exceeded (1.0 KB).",
  ]);
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "x", size: 10 },
  });
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent > 51_000_000) return controller.close();
      sent += 1_000_000;
      controller.enqueue(new Uint8Array(1_000_000));
    },
  });
  const tooBig = await fetch(upload.body._actions.upload_data, {
    method: "PUT",
    headers: { Authorization: `Bearer ${server.pat}` },
    body,
  }).catch(() => null);
  await tooBig?.body?.cancel();
  assertEquals(server.log.at(-1)?.status, 413);
  assertEquals((await call(server, "DELETE", upload.body._links.self)).status, 204);
  assertEquals((await call(server, "GET", upload.body._links.self)).status, 404);
});

Deno.test("files: list, by name with slash, global lookup, edit, delete and ZIP of all files", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "many");
  const a = await directUpload(server, record.id, "dir/a.txt", "aaa");
  await directUpload(server, record.id, "b.txt", "bbbb");
  const list = await call(server, "GET", `/records/${record.id}/files?sort=name`);
  assertEquals(list.body.items.map((f: { name: string }) => f.name), ["b.txt", "dir/a.txt"]);
  const byName = await call(server, "GET", `/records/${record.id}/files/name/dir/a.txt`);
  assertEquals(byName.body.id, a.body.id);
  assertEquals((await call(server, "GET", `/records/files/${a.body.id}`)).body.name, "dir/a.txt");
  const clash = await call(server, "PATCH", a.body._links.self, { body: { name: "b.txt" } });
  assertEquals(clash.body.errors, { name: ["Name is already in use."] });
  const renamed = await call(server, "PATCH", a.body._links.self, {
    body: { name: "c.txt", mimetype: "text/plain" },
  });
  assertEquals([renamed.body.name, renamed.body.mimetype], ["c.txt", "text/plain"]);
  const zip = await fetch(`${server.url}/api/v1/records/${record.id}/files/download`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  assertEquals(zip.headers.get("content-type"), "application/zip");
  const blob = await zip.blob();
  assertEquals(String(blob.size), zip.headers.get("content-length"));
  const reader = new ZipReader(new BlobReader(blob));
  const contents: Record<string, string> = {};
  for (const entry of await reader.getEntries()) {
    if (entry.directory) continue;
    contents[entry.filename] = new TextDecoder().decode(
      await entry.getData(new Uint8ArrayWriter()),
    );
  }
  await reader.close();
  assertEquals(contents, { "c.txt": "aaa", "b.txt": "bbbb" });
  assertEquals((await call(server, "DELETE", a.body._links.self)).status, 204);
  assertEquals((await call(server, "GET", a.body._links.self)).status, 404);
  assert((await call(server, "GET", `/records/${record.id}/files`)).body.items.length === 1);
});
