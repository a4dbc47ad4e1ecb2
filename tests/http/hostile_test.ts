// The transport against a hostile server: echoed tokens, endless and odd bodies.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import {
  MAX_ERROR_BODY_BYTES,
  RequestError,
  ResponseTooLargeError,
} from "../../lib/http/errors.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";

const FAST_RETRY = { minDelayMs: 1, maxDelayMs: 5 };

function everyText(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current !== undefined && depth < 5; depth++) {
    if (!(current instanceof Error)) {
      parts.push(String(current));
      break;
    }
    parts.push(String(current), current.message, current.stack ?? "");
    if (current instanceof RequestError) {
      parts.push(JSON.stringify(current.body), String(current.body), current.description);
      current.headers.forEach((value, name) => parts.push(`${name}: ${value}`));
    }
    current = current.cause;
  }
  return parts.join("\n");
}

Deno.test("Transport redacts the token from errors when the server echoes request headers", async () => {
  await using server = await startServer({
    faults: [{ path: "/records", status: 400, echoHeaders: true }],
  });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: FAST_RETRY,
  });
  const error = await assertRejects(() => transport.json("GET", "/records"), RequestError);
  assertEquals(error.status, 400);
  assertStringIncludes(error.message, "authorization: Bearer REDACTED");
  const text = everyText(error);
  assert(!text.includes(server.pat), "the token leaked into the error");
  assertStringIncludes(JSON.stringify(error.body), "REDACTED");
});

Deno.test("Transport redacts the token from a non-JSON answer that echoes it", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  server.addFault({ path: "/info", jsonBody: undefined, status: 502, echoHeaders: true });
  const error = await assertRejects(() => transport.json("POST", "/info"), RequestError);
  assert(!everyText(error).includes(server.pat));
});

Deno.test("Transport.json() refuses an endless body with a clear error", async () => {
  await using server = await startServer({ faults: [{ path: "/records", endlessBody: true }] });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    maxJsonBytes: 1_000_000,
  });
  const error = await assertRejects(
    () => transport.json("GET", "/records"),
    ResponseTooLargeError,
  );
  assertEquals(error.limit, 1_000_000);
  assertStringIncludes(error.message, "1 MB");
  assertStringIncludes(error.message, "/api/v1/records");
});

Deno.test("Transport reads at most 1 MiB of an error answer, even an endless one", async () => {
  await using server = await startServer({
    faults: [{ path: "/records", status: 500, endlessBody: true }],
  });
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const error = await assertRejects(() => transport.json("POST", "/records"), RequestError);
  assertEquals(error.status, 500);
  assert(typeof error.body === "string" && error.body.length <= MAX_ERROR_BODY_BYTES + 1);
});

Deno.test("a record whose answer is not a JSON object gives a clear error, no request to /records/undefined", async () => {
  for (const body of [[1, 2], "text", 5, null, [{}], { title: "no id" }]) {
    await using server = await startServer();
    const manager = new RepoManager({ host: server.url, pat: server.pat, retry: FAST_RETRY });
    try {
      const created = await manager.record({ identifier: "sample", create: true });
      server.addFault({ method: "GET", path: "/records/", jsonBody: body });
      const error = await assertRejects(() => manager.record({ id: created.id }), RequestError);
      assertStringIncludes(error.message, "JSON object");
      server.clearFaults();
      server.addFault({ method: "GET", path: "/records/identifier/", jsonBody: body });
      await assertRejects(() => manager.record({ identifier: "sample" }), RequestError);
      assert(!server.log.some((entry) => entry.path.includes("undefined")));
    } finally {
      await manager.close();
    }
  }
});
