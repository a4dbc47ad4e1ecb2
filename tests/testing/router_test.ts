// The local server's routing table and request conversion: the per-first-segment table finds the
// same route as trying every route in order, and a Host header that is more than a host still
// resolves the request target the way the URL standard does.
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { matchRoute, type Route } from "../../lib/testing/_router.ts";
import { routes } from "../../lib/testing/_routes.ts";
import { createRecord } from "./_helpers.ts";

/** The route the original router found: the first match over every route, in order. */
function firstMatch(singles: readonly Route[][], method: string, path: string) {
  let mismatch = false;
  for (const single of singles) {
    const found = matchRoute(single, method, path);
    if (found === "method") mismatch = true;
    else if (found !== null) return found;
  }
  return mismatch ? "method" : null;
}

/** Request paths made from every pattern, with integer, text and odd values. */
function samplePaths(): string[] {
  const paths = new Set(["", "/", "/records", "/records/abc", "/nothing", "//records", "/x/1"]);
  paths.add("/records/%zz").add("/records/1/files/name/a%2Fb/c").add("/records/1/files/name");
  for (const r of routes) {
    for (const value of ["7", "abc-1", ""]) {
      const parts = r.segments.map((s) =>
        s.kind === "literal" ? s.text : s.kind === "rest" ? `a/${value}.txt` : value
      );
      paths.add(`/${parts.join("/")}`);
      paths.add(`/${parts.join("/")}/extra`);
    }
  }
  return [...paths];
}

Deno.test("matchRoute() finds the route and parameters the ordered scan of every route finds", () => {
  const paths = samplePaths();
  const singles = routes.map((r) => [r]);
  for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
    for (const path of paths) {
      const fast = matchRoute(routes, method, path);
      const slow = firstMatch(singles, method, path);
      const shown = (m: typeof fast) =>
        m === null || m === "method" ? m : { route: routes.indexOf(m.route), params: m.params };
      assertEquals(shown(fast), shown(slow), `${method} ${path}`);
    }
  }
});

/** Sends one raw HTTP/1.1 request and returns the answer's body. */
async function rawGet(port: number, target: string, host: string, pat: string): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${pat}\r\n` +
    "Connection: close\r\n\r\n";
  await conn.write(new TextEncoder().encode(head));
  const text = await new Response(conn.readable).text();
  return text.slice(text.indexOf("\r\n\r\n") + 4);
}

Deno.test("the request target resolves against the Host as the URL standard says (links follow)", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "host-rec");
  const port = Number(new URL(server.url).port);
  const path = `/api/v1/records/${record.id}`;
  const plain = JSON.parse(await rawGet(port, path, "example.org:81", server.pat));
  assertEquals(plain._links.self, `http://example.org:81${path}`);
  const odd = JSON.parse(await rawGet(port, path, "example.org/base", server.pat));
  assertEquals(odd._links.self, `http://example.org${path}`);
  // A backslash after the first slash makes the target scheme-relative, as `//host/path` does.
  const other = JSON.parse(await rawGet(port, `/\\other.org${path}`, "example.org", server.pat));
  assertEquals(other._links.self, `http://other.org${path}`);
});
