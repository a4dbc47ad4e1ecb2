// Transport against answers the emulator does not give: proxy HTML, empty 204, 3xx without
// Location, redirect loops, foreign absolute endpoints, custom fetch and a bad CA bundle. Each
// test runs a small real HTTP server on 127.0.0.1 (no fetch mocks).
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConfigurationError, InputError } from "../../lib/errors.ts";
import { RedirectError, RequestError } from "../../lib/http/errors.ts";

const PAT = "pat_edge_secret_token";
const PROXY_PAGE = `<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body>${
  "<p>nginx</p>".repeat(500)
}</body></html>`;

interface Hit {
  path: string;
  authorization: string | null;
}

/** A real HTTP server answering with `handler`, recording every request. */
function serve(handler: (url: URL) => Response | Promise<Response>) {
  const hits: Hit[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    hits.push({ path: url.pathname, authorization: request.headers.get("authorization") });
    return handler(url);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    hits,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

function transportFor(host: string, extra: Partial<{ whitelist: string[] }> = {}): Transport {
  return new Transport({
    settings: { host, pat: PAT, ...extra },
    retry: { maxAttempts: 1 },
  });
}

Deno.test("Transport.json() turns a proxy's HTML error page into a one-line RequestError", async () => {
  await using server = serve(() =>
    new Response(PROXY_PAGE, { status: 502, headers: { "content-type": "text/html" } })
  );
  await using transport = transportFor(server.url);
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 502);
  assertStringIncludes(error.message, "502 Bad Gateway");
  assertStringIncludes(error.message, "HTML");
  assert(error.message.length < 300, `short message: ${error.message.length} characters`);
  assert(!error.message.includes("\n"));
  assertEquals(error.body, PROXY_PAGE, "the full payload stays available");
});

Deno.test("RequestError shortens a long plain-text body in its message only", () => {
  const text = "x".repeat(5000);
  const error = new RequestError({ status: 500, method: "GET", url: "http://h/api", body: text });
  assert(error.message.length < 400);
  assertEquals(error.body, text);
});

Deno.test("Transport.json() raises RequestError for a 200 answer that is not JSON", async () => {
  await using server = serve(() => new Response(PROXY_PAGE, { status: 200 }));
  await using transport = transportFor(server.url);
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 200);
  assertStringIncludes(error.message, "not JSON");
  assertStringIncludes(error.message, "/api/v1/info");
  assertEquals(error.body, PROXY_PAGE);
});

Deno.test("Transport.json() returns {} for a 204 without body", async () => {
  await using server = serve(() => new Response(null, { status: 204 }));
  await using transport = transportFor(server.url);
  assertEquals(await transport.json("DELETE", "/records/1"), {});
});

Deno.test("Transport reports a redirect without Location as RequestError naming host and base_path", async () => {
  await using server = serve(() => new Response(null, { status: 302 }));
  await using transport = transportFor(server.url);
  const error = await assertRejects(() => transport.json("GET", "/info"), RequestError);
  assertEquals(error.status, 302);
  assertStringIncludes(error.message, "Location");
  assertStringIncludes(error.message, "base_path");
});

Deno.test("Transport stops a whitelisted redirect loop after a few hops without the token", async () => {
  let origin = "";
  await using server = serve((url) =>
    new Response(null, { status: 302, headers: { location: `${origin}${url.pathname}` } })
  );
  origin = server.url;
  await using transport = transportFor(server.url, { whitelist: [server.url] });
  const error = await assertRejects(() => transport.json("GET", "/info"), RedirectError);
  assertStringIncludes(error.message, "Too many redirects");
  assert(server.hits.length <= 6, `stopped after ${server.hits.length} requests`);
  assertEquals(server.hits[0]?.authorization, `Bearer ${PAT}`);
  assert(server.hits.slice(1).every((hit) => hit.authorization === null));
});

Deno.test("Transport refuses a redirect to an invalid address with RedirectError", async () => {
  await using server = serve(() =>
    new Response(null, { status: 302, headers: { location: "http://[broken" } })
  );
  await using transport = transportFor(server.url);
  const error = await assertRejects(() => transport.json("GET", "/info"), RedirectError);
  assertStringIncludes(error.message, "invalid address");
});

Deno.test("Transport never sends the token to an absolute non-API endpoint on another host", async () => {
  await using other = serve(() => Response.json({}));
  await using server = serve(() => Response.json({}));
  await using transport = transportFor(server.url);
  const foreign = other.url.replace("127.0.0.1", "localhost");
  const error = await assertRejects(
    () => transport.json("GET", `${foreign}/elsewhere`),
    InputError,
  );
  assertStringIncludes(error.message, "/records/1");
  assertEquals(other.hits.length, 0);
  await transport.json("GET", `${server.url}/same-host`);
  assertEquals(server.hits.at(-1)?.path, "/same-host");
});

Deno.test("Transport with a custom fetch still refuses redirects instead of following them", async () => {
  await using other = serve(() => Response.json({}));
  await using server = serve((url) =>
    new Response(null, { status: 302, headers: { location: `${other.url}${url.pathname}` } })
  );
  await using transport = new Transport({
    settings: { host: server.url, pat: PAT },
    fetch: (input, init) => fetch(input, init),
    retry: { maxAttempts: 1 },
  });
  await assertRejects(() => transport.json("GET", "/info"), RedirectError);
  assertEquals(other.hits.length, 0, "the redirect target was never contacted");
});

Deno.test("Transport explains a missing or invalid caBundle as ConfigurationError", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await using server = serve(() => Response.json({}));
    await using missing = new Transport({
      settings: { host: server.url, pat: PAT, caBundle: `${dir}/missing.pem` },
    });
    const error = await assertRejects(() => missing.json("GET", "/info"), ConfigurationError);
    assertStringIncludes(error.message, "ca_bundle");
    assertStringIncludes(error.message, `${dir}/missing.pem`);
    await Deno.writeTextFile(`${dir}/bad.pem`, "not a certificate");
    await using invalid = new Transport({
      settings: { host: server.url, pat: PAT, caBundle: `${dir}/bad.pem` },
    });
    const bad = await assertRejects(() => invalid.json("GET", "/info"), ConfigurationError);
    assertStringIncludes(bad.message, "PEM");
    assertEquals(server.hits.length, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Transport treats a lower-case get as GET and retries it on 503", async () => {
  let calls = 0;
  await using server = serve(() =>
    ++calls === 1 ? new Response("busy", { status: 503 }) : Response.json({ ok: true })
  );
  await using transport = new Transport({
    settings: { host: server.url, pat: PAT },
    retry: { maxAttempts: 2, minDelayMs: 1, maxDelayMs: 2 },
  });
  assertEquals(await transport.json("get", "/info"), { ok: true });
  assertEquals(calls, 2);
});
