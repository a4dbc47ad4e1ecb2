// The local server's per-user quota across the life of uploads and files: pending uploads count
// until they end or are cancelled, active files count until deleted or purged, a replacement
// counts its new size, each user has their own quota, and the limit itself is allowed.
import { assertEquals } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

/** Status of an initiated upload of `size` bytes; a 201 upload is cancelled again when asked. */
async function tryInitiate(
  server: TestServer,
  recordId: number,
  size: number,
  options: { cancel?: boolean; token?: string } = {},
) {
  const token = options.token ?? server.pat;
  const name = `probe-${crypto.randomUUID()}`;
  const answer = await call(server, "POST", `/records/${recordId}/uploads`, {
    body: { name, size },
    token,
  });
  if (answer.status === 201 && options.cancel !== false) {
    assertEquals((await call(server, "DELETE", answer.body._links.self, { token })).status, 204);
  }
  return answer;
}

/** The largest size still accepted, found by trying the two sides of `expected`. */
async function assertFree(server: TestServer, recordId: number, expected: number, token?: string) {
  const opts = token === undefined ? {} : { token };
  assertEquals((await tryInitiate(server, recordId, expected, opts)).status, 201, `${expected}`);
  assertEquals((await tryInitiate(server, recordId, expected + 1, opts)).status, 413);
}

async function send(server: TestServer, upload: { _actions: { upload_data: string } }, n: number) {
  return await call(server, "PUT", upload._actions.upload_data, { raw: new Uint8Array(n) });
}

Deno.test("quota: pending uploads, files, mismatches, replacements, deletes and purges", async () => {
  await using server = await startServer({ quota: 100 });
  const record = await createRecord(server, "quota");
  await assertFree(server, record.id, 100);
  const a = (await tryInitiate(server, record.id, 60, { cancel: false })).body;
  await assertFree(server, record.id, 40);
  assertEquals((await send(server, a, 60)).status, 201);
  await assertFree(server, record.id, 40);
  const fileA = (await call(server, "GET", `/records/${record.id}/files`)).body.items[0];
  // A size mismatch keeps the upload pending (counted) until it is cancelled.
  const b = (await tryInitiate(server, record.id, 30, { cancel: false })).body;
  assertEquals((await send(server, b, 29)).status, 400);
  await assertFree(server, record.id, 10);
  assertEquals((await call(server, "DELETE", b._links.self)).status, 204);
  await assertFree(server, record.id, 40);
  // A replacement counts its new size while pending, then the file's new size.
  const replace = await call(server, "PUT", fileA._links.self, { body: { size: 10 } });
  assertEquals(replace.status, 201);
  await assertFree(server, record.id, 30);
  assertEquals((await send(server, replace.body, 10)).status, 201);
  await assertFree(server, record.id, 90);
  const c = (await tryInitiate(server, record.id, 50, { cancel: false })).body;
  assertEquals((await send(server, c, 50)).status, 201);
  await assertFree(server, record.id, 40);
  assertEquals((await call(server, "DELETE", fileA._links.self)).status, 204);
  await assertFree(server, record.id, 50);
  // Another user has a quota of their own.
  const bob = server.createUser({ username: "bob" });
  const bobToken = server.createToken({ userId: bob.id });
  const bobRecord = await createRecord(server, "bob-rec", {}, bobToken);
  await assertFree(server, bobRecord.id, 100, bobToken);
  // Files of a deleted record count until it is purged.
  const other = await createRecord(server, "other");
  const d = (await tryInitiate(server, other.id, 20, { cancel: false })).body;
  assertEquals((await send(server, d, 20)).status, 201);
  const pending = (await tryInitiate(server, other.id, 5, { cancel: false })).body;
  await assertFree(server, record.id, 25);
  assertEquals((await call(server, "DELETE", `/records/${other.id}`)).status, 204);
  await assertFree(server, record.id, 25);
  assertEquals((await call(server, "POST", `/records/${other.id}/purge`)).status, 202);
  await assertFree(server, record.id, 50);
  assertEquals((await call(server, "GET", pending._links.self)).status, 404);
});
