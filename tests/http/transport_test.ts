import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport, type TransportSettings } from "../../lib/http/transport.ts";
import { MissingSchemaError } from "../../lib/errors.ts";
import {
  ConnectionError,
  RedirectError,
  RequestError,
  TimeoutError,
} from "../../lib/http/errors.ts";
import { USER_AGENT } from "../../lib/http/version.ts";
import { paginateItems } from "../../lib/http/paginate.ts";
import { Pacer } from "../../lib/http/pacer.ts";

const FAST_RETRY = { minDelayMs: 1, maxDelayMs: 5 };

function transportFor(settings: TransportSettings): Transport {
  return new Transport({ settings, retry: FAST_RETRY });
}

Deno.test("Transport sends the bearer token and the repo-apy User-Agent under /api/v1", async () => {
  await using server = await startServer();
  await using transport = transportFor({ host: server.url, pat: server.pat });
  const info = await transport.json<{ version: string }>("GET", "/info");
  assertEquals(typeof info.version, "string");
  const entry = server.log.at(-1);
  assertEquals(entry?.path, "/api/v1/info");
  assertEquals(entry?.authorization, true);
  assertEquals(entry?.userAgent, USER_AGENT);
  assert(/^repo-apy\/\d+\.\d+\.\d+$/.test(USER_AGENT));
});

Deno.test("Transport serves a basePath by prefixing it to /api/v1", async () => {
  await using server = await startServer();
  await using transport = transportFor({ host: server.url, pat: server.pat, basePath: "/sub" });
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 404);
  assertEquals(server.log.at(-1)?.path, "/sub/api/v1/info");
});

Deno.test("Transport turns error answers into RequestError with status and description", async () => {
  await using server = await startServer();
  await using transport = transportFor({ host: server.url, pat: server.pat });
  const error = await assertRejects(() => transport.json("GET", "/records/999999"), RequestError);
  assertEquals(error.status, 404);
  assertEquals(typeof error.description, "string");
  assertEquals((error.body as { code: number }).code, 404);
  assert(!error.message.includes(server.pat));
  assert(!JSON.stringify(error.body).includes(server.pat));
});

Deno.test("Transport refuses a redirect to a host outside the whitelist and names the setting", async () => {
  await using other = await startServer();
  await using server = await startServer({ faults: [{ path: "/info", redirect: other.url }] });
  await using transport = transportFor({ host: server.url, pat: server.pat });
  const error = await assertRejects(() => transport.json("GET", "/info"), RedirectError);
  assertStringIncludes(error.message, "whitelist");
  assertStringIncludes(error.message, other.url);
  assertEquals(other.log.length, 0);
});

Deno.test("Transport replays a whitelisted redirect without the Authorization header", async () => {
  await using other = await startServer();
  await using server = await startServer({ faults: [{ path: "/info", redirect: other.url }] });
  await using transport = transportFor({
    host: server.url,
    pat: server.pat,
    whitelist: [other.url],
  });
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 401);
  assertEquals(other.log.length, 1);
  assertEquals(other.log[0]?.authorization, false);
  assertEquals(other.log[0]?.path, "/api/v1/info");
});

/** A pacer and a transport sleep on one injected clock: the waits are recorded, none is real. */
function injectedClock() {
  let now = 0;
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    now += ms;
    return Promise.resolve();
  };
  const pacer = new Pacer({ now: () => now, sleep, random: () => 0 });
  return { waits, pacer, sleep };
}

Deno.test("Transport waits for Retry-After (seconds and HTTP date) on 429, for any method", async () => {
  await using server = await startServer({
    faults: [
      { path: "/info", status: 429, retryAfter: "7", nth: 1 },
      { method: "POST", path: "/records", status: 429, nth: 1, retryAfter: "2" },
    ],
  });
  const clock = injectedClock();
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    pacer: clock.pacer,
    sleep: clock.sleep,
  });
  // Besides the Retry-After pauses, the pacer spaces the next starts by a few ms.
  const pauses = () => clock.waits.filter((ms) => ms >= 1000);
  await transport.json("GET", "/info");
  assertEquals(pauses(), [7000]);
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 2);
  const record = await transport.json<{ id: number }>("POST", "/records", {
    json: { identifier: "rate-limited", title: "Rate limited" },
  });
  assert(record.id > 0);
  assertEquals(pauses(), [7000, 2000]);
  assertEquals(server.log.filter((entry) => entry.method === "POST").length, 2);
  // An HTTP date 30 s ahead (whole seconds: the wait is 29-30 s).
  server.addFault({
    path: "/info",
    status: 429,
    nth: 1,
    retryAfter: new Date(Date.now() + 30_000).toUTCString(),
  });
  await transport.json("GET", "/info");
  const waited = pauses()[2] ?? 0;
  assert(waited > 28_000 && waited <= 30_000, `waited ${waited} ms for the HTTP date`);
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 4);
});

Deno.test("Transport gives up when Retry-After exceeds the total wait limit", async () => {
  await using server = await startServer({
    faults: [{ path: "/info", status: 429, retryAfter: "3600" }],
  });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { maxTotalWaitMs: 1000 },
  });
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 429);
  assertEquals(error.retryAfterMs, 3_600_000);
});

Deno.test("Transport retries GET on 503 but never retries POST blindly", async () => {
  await using server = await startServer({
    faults: [
      { method: "GET", path: "/info", status: 503, times: 2 },
      { method: "POST", path: "/records", status: 503, times: 1 },
    ],
  });
  await using transport = transportFor({ host: server.url, pat: server.pat });
  await transport.json("GET", "/info");
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 3);
  const error = await assertRejects(
    () => transport.json("POST", "/records", { json: { identifier: "x", title: "x" } }),
    RequestError,
  );
  assertEquals(error.status, 503);
  assertEquals(server.log.filter((entry) => entry.method === "POST").length, 1);
});

Deno.test("Transport retries a GET whose connection drops", async () => {
  await using server = await startServer({ faults: [{ path: "/info", drop: true, times: 1 }] });
  const clock = injectedClock();
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    sleep: clock.sleep,
  });
  const info = await transport.json<{ version: string }>("GET", "/info");
  assertEquals(typeof info.version, "string");
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/info")).length, 2);
  assertEquals(clock.waits.length, 1);
});

Deno.test("Transport stops after maxAttempts and reports the last failure", async () => {
  await using server = await startServer({ faults: [{ path: "/info", status: 502 }] });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { ...FAST_RETRY, maxAttempts: 3 },
  });
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 502);
  assertEquals(server.log.length, 3);
});

Deno.test("Transport raises TimeoutError when no answer comes within the timeout", async () => {
  await using server = await startServer({ faults: [{ path: "/info", delayMs: 2000 }] });
  await using transport = transportFor({ host: server.url, pat: server.pat, timeout: 0.3 });
  const error = await assertRejects(() => transport.json("GET", "/info"), TimeoutError);
  assertStringIncludes(error.message, "timeout");
});

Deno.test("Transport raises ConnectionError naming the host when the connection is refused", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await using transport = transportFor({ host: `http://127.0.0.1:${port}`, pat: "pat_secret" });
  const error = await assertRejects(() => transport.json("GET", "/info"), ConnectionError);
  assertEquals(error.host, `http://127.0.0.1:${port}`);
  assertStringIncludes(error.message, `127.0.0.1:${port}`);
  assert(!error.message.includes("pat_secret"));
});

Deno.test("Transport raises MissingSchemaError before sending anything", async () => {
  await using transport = transportFor({ host: "127.0.0.1:5000", pat: "pat_x" });
  await assertRejects(() => transport.json("GET", "/info"), MissingSchemaError);
});

Deno.test("paginateItems() follows next links across all pages", async () => {
  await using server = await startServer();
  await using transport = transportFor({ host: server.url, pat: server.pat });
  for (let i = 0; i < 5; i++) {
    await transport.json("POST", "/records", { json: { identifier: `page-${i}`, title: `P${i}` } });
  }
  const records = await Array.fromAsync(paginateItems<{ id: number }>(transport, "/records", {
    per_page: 2,
  }));
  assertEquals(records.length, 5);
  assertEquals(new Set(records.map((record) => record.id)).size, 5);
});
