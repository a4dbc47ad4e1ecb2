// Tests of the local server's fault injection and request log.
import { assert, assertEquals, assertNotEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

Deno.test("faults: 429 with Retry-After once, then normal answers", async () => {
  await using server = await startServer({
    faults: [{ path: "/info", status: 429, retryAfter: "3", times: 1 }],
  });
  const limited = await call(server, "GET", "/info");
  assertEquals(limited.status, 429);
  assertEquals(limited.headers.get("retry-after"), "3");
  assertEquals(limited.body.description, "Request limit exceeded, please try again later.");
  assertEquals((await call(server, "GET", "/info")).status, 200);
});

Deno.test("faults: 503 on the nth matching request only", async () => {
  await using server = await startServer();
  server.addFault({ method: "GET", path: /\/info$/, status: 503, nth: 2 });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await call(server, "GET", "/info")).status);
  assertEquals(statuses, [200, 503, 200]);
  server.clearFaults();
});

Deno.test("faults: drop closes the connection without processing the request", async () => {
  await using server = await startServer();
  await call(server, "GET", "/info"); // warm a keep-alive connection
  server.addFault({ method: "POST", path: "/records", drop: true, times: 1 });
  await assertRejects(
    () =>
      fetch(`${server.url}/api/v1/records`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.pat}` },
        body: JSON.stringify({ identifier: "x", title: "x" }),
      }),
    TypeError,
  );
  assertEquals((await call(server, "GET", "/records")).body.items, []);
  assertEquals(server.log.at(-2)?.status, 0);
});

Deno.test("faults: dropAfterBytes breaks the response body", async () => {
  await using server = await startServer();
  server.addFault({ path: "/roles", dropAfterBytes: 10 });
  const response = await fetch(`${server.url}/api/v1/roles`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  assertEquals(response.status, 200);
  await assertRejects(() => response.arrayBuffer(), TypeError);
});

Deno.test("faults: redirect points to another host with the original path and query", async () => {
  await using server = await startServer();
  server.addFault({ path: "/records", redirect: "https://elsewhere.example", times: 1 });
  const response = await fetch(`${server.url}/api/v1/records?page=2`, {
    headers: { Authorization: `Bearer ${server.pat}` },
    redirect: "manual",
  });
  await response.body?.cancel();
  assertEquals(response.status, 302);
  assertEquals(response.headers.get("location"), "https://elsewhere.example/api/v1/records?page=2");
});

Deno.test("faults: delay and slow body still deliver the full answer", async () => {
  await using server = await startServer();
  server.addFault({ path: "/roles", delayMs: 20, slowBodyBytesPerSecond: 100_000 });
  const slow = await call(server, "GET", "/roles");
  assertEquals(slow.status, 200);
  assert(slow.body.record);
});

Deno.test("faults: taskError makes the merge task fail", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "r");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "big", size: 50_000_001 },
  });
  const url = upload.body._actions.upload_data;
  for (
    const [index, size] of [[0, 10_000_000], [1, 10_000_000], [2, 10_000_000], [3, 10_000_000], [
      4,
      10_000_000,
    ], [5, 1]]
  ) {
    const answer = await call(server, "PUT", url, {
      raw: new Uint8Array(size!),
      headers: { "Kadi-Chunk-Index": String(index), "Kadi-Chunk-Size": String(size) },
    });
    assertEquals(answer.status, 200);
  }
  server.addFault({ method: "POST", path: "/uploads/", taskError: "Disk full." });
  assertEquals((await call(server, "POST", upload.body._actions.finish)).status, 202);
  let task;
  for (let i = 0; i < 100 && task?.state !== "failure"; i++) {
    task = (await call(server, "GET", upload.body._links.self)).body._meta.task;
    await new Promise((r) => setTimeout(r, 10));
  }
  assertEquals(task, { state: "failure", error: "Disk full." });
});

Deno.test("faults: a broken chunk body stores no chunk; chunkIndex faults match headers", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "r");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "big", size: 60_000_000 },
  });
  const url = upload.body._actions.upload_data;
  let pulls = 0;
  const broken = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (++pulls > 3) {
        // Give the server a moment to read bytes of this body (bounded), then break it.
        for (let i = 0; i < 100 && !server.log.some((e) => e.method === "PUT"); i++) {
          await new Promise((r) => setTimeout(r, 5));
        }
        return controller.error(new Error("client gave up"));
      }
      controller.enqueue(new Uint8Array(1_000_000));
    },
  });
  await fetch(url, {
    method: "PUT",
    headers: {
      Authorization: `Bearer ${server.pat}`,
      "Kadi-Chunk-Index": "0",
      "Kadi-Chunk-Size": "10000000",
    },
    body: broken,
  }).then((r) => r.body?.cancel(), () => {});
  server.addFault({ chunkIndex: 1, status: 500 });
  const faulted = await call(server, "PUT", url, {
    raw: new Uint8Array(10_000_000),
    headers: { "Kadi-Chunk-Index": "1", "Kadi-Chunk-Size": "10000000" },
  });
  assertEquals(faulted.status, 500);
  const brokenEntry = server.log.find((e) => e.chunkIndex === 0);
  assert(brokenEntry, "the broken chunk's PUT is in the request log");
  assertNotEquals(brokenEntry.status, 200);
  const listing = await call(server, "GET", `/records/${record.id}/uploads`);
  assertEquals(listing.body.items[0].chunks, []);
});

Deno.test("request log records method, path, status, chunk index and redacts Authorization", async () => {
  await using server = await startServer();
  await call(server, "GET", "/info?x=1", { headers: { "User-Agent": "repo-apy-test" } });
  const entry = server.log[0]!;
  assertEquals([entry.method, entry.path, entry.query, entry.status], [
    "GET",
    "/api/v1/info",
    "x=1",
    200,
  ]);
  assertEquals(entry.authorization, true);
  assertEquals(entry.userAgent, "repo-apy-test");
  assertEquals(entry.headers.authorization, "<redacted>");
  assertEquals(JSON.stringify(server.log).includes(server.pat), false);
});
