// The transport keeps connections alive through the copy-free client (lib/http/_raw_fetch.ts,
// _conn_pool.ts), against the local server: reuse counted by the server's accepted connections,
// idle connections the server closes, and the one quiet retry of a request whose reused
// connection closed before any answer byte (never on a fresh connection, never after a byte).
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError } from "../../lib/http/errors.ts";
import { proxyRouter } from "../../lib/http/_proxy_env.ts";
import { fileDownloadPath } from "../../lib/http/paths.ts";
import { RepoRecord } from "../../lib/transfer/record.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { withTlsServer } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";
import { openResource } from "../../lib/resources/resource.ts";

// With a proxy variable set (or unreadable), small requests stay with Deno's fetch.
const direct = proxyRouter()(new URL("http://127.0.0.1")).kind === "direct";

function transportOf(server: TestServer): Transport {
  return new Transport({ settings: { host: server.url, pat: server.pat } });
}

/** Records on the server with this identifier (each create POST that was processed). */
async function recordsNamed(transport: Transport, identifier: string): Promise<number> {
  const page = await transport.json<{ items: { identifier: string }[] }>("GET", "/records", {
    query: { filter: identifier },
  });
  return page.items.filter((item) => item.identifier === identifier).length;
}

Deno.test({
  name: "Transport reuses one connection for sequential requests of every kind",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    await using transport = transportOf(server);
    const record = await transport.json<{ id: number }>("POST", "/records", {
      json: { identifier: "kept", title: "kept" },
    });
    for (let i = 0; i < 5; i++) await transport.json("GET", `/records/${record.id}`);
    await transport.json("PATCH", `/records/${record.id}`, { json: { title: "again" } });
    // An answer the server sends chunked (a JSON answer rewritten by a fault has no length).
    server.addFault({ path: "/info", jsonFields: { version: "9.9.9" } });
    const info = await transport.request("GET", "/info");
    assertEquals(info.headers.get("transfer-encoding"), "chunked");
    assertEquals((await info.json()).version, "9.9.9");
    await transport.json("GET", "/info");
    assertEquals(server.log.length, 9);
    assertEquals(server.connections, 1);
    // The copy-free client asks for no compression; Deno's fetch would.
    assert(server.log.every((entry) => entry.headers["accept-encoding"] === undefined));
  },
});

Deno.test({
  name: "Transport requests succeed when the server closes every connection after its answer",
  ignore: !direct,
  async fn() {
    await using server = await startServer({ faults: [{ closeIdleAfterMs: 0 }] });
    await using transport = transportOf(server);
    for (let i = 0; i < 4; i++) await transport.json("GET", "/info");
    const record = await transport.json<{ id: number }>("POST", "/records", {
      json: { identifier: "closing", title: "closing" },
    });
    await transport.json("GET", `/records/${record.id}`);
    assertEquals(server.log.map((entry) => entry.status), [200, 200, 200, 200, 201, 200]);
    assertEquals(server.connections, 6);
  },
});

Deno.test({
  name: "Transport sends a POST once more when its reused connection closes before any answer byte",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    await using transport = transportOf(server);
    await transport.json("GET", "/info");
    server.addFault({ method: "POST", path: "/records", dropSilently: true, times: 1 });
    await transport.json("POST", "/records", { json: { identifier: "once", title: "once" } });
    const posts = server.log.filter((entry) => entry.method === "POST");
    assertEquals(posts.map((entry) => entry.status), [0, 201]);
    assertEquals(server.connections, 2);
    assertEquals(await recordsNamed(transport, "once"), 1);
  },
});

Deno.test({
  name: "Transport does not send a POST again when a fresh connection closes before any answer",
  ignore: !direct,
  async fn() {
    await using server = await startServer({
      faults: [{ method: "POST", path: "/records", dropSilently: true, times: 1 }],
    });
    await using transport = transportOf(server);
    await assertRejects(
      () => transport.json("POST", "/records", { json: { identifier: "fresh", title: "x" } }),
      ConnectionError,
    );
    assertEquals(server.log.filter((entry) => entry.method === "POST").length, 1);
    assertEquals(await recordsNamed(transport, "fresh"), 0);
  },
});

Deno.test({
  name: "Transport does not send a POST again on a reused connection once an answer byte came",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    await using transport = transportOf(server);
    await transport.json("GET", "/info");
    // `drop` writes a broken status line before it closes: the server may have acted.
    server.addFault({ method: "POST", path: "/records", drop: true, times: 1 });
    await assertRejects(
      () => transport.json("POST", "/records", { json: { identifier: "begun", title: "x" } }),
      ConnectionError,
    );
    assertEquals(server.log.filter((entry) => entry.method === "POST").length, 1);
    assertEquals(server.connections, 1);
  },
});

Deno.test({
  name: "Transport closes the connection of a cancelled answer body instead of reusing it",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    await using transport = transportOf(server);
    const record = await openResource(transport, RepoRecord, {
      identifier: "cancel",
      create: true,
    });
    const data = new Uint8Array(300_000).fill(7);
    const file = await uploadFile(record, data, { fileName: "big.bin" });
    const before = server.connections;
    const response = await transport.request(
      "GET",
      fileDownloadPath(record.id, file.id),
    );
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await transport.json("GET", "/info");
    assertEquals(server.connections, before + 1);
    // Read to its end, the same download leaves the connection for the next request.
    const again = await transport.request(
      "GET",
      fileDownloadPath(record.id, file.id),
    );
    assertEquals((await again.bytes()).byteLength, data.byteLength);
    await transport.json("GET", "/info");
    assertEquals(server.connections, before + 1);
  },
});

Deno.test({
  name: "Transport.close() leaves no idle connection behind and a closed transport opens anew",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    const transport = transportOf(server);
    await Promise.all([1, 2, 3].map(() => transport.json("GET", "/info")));
    await transport.close();
    // The test's sanitizers fail it if a connection or a read of an idle one is left open.
    await transport.json("GET", "/info");
    await transport.close();
    assert(server.connections >= 2);
  },
});

Deno.test({
  name: "An idle kept-alive connection does not keep a process alive",
  ignore: !direct,
  async fn() {
    await using server = await startServer();
    const script = `
      import { Transport } from "${new URL("../../lib/http/transport.ts", import.meta.url)}";
      const transport = new Transport({ settings: { host: "${server.url}", pat: "${server.pat}" } });
      await transport.json("GET", "/info");
      console.log("done");
      // Fires only if something else keeps the process alive (the server closes idle
      // connections after 5 s).
      Deno.unrefTimer(setTimeout(() => Deno.exit(3), 2000));
    `;
    const output = await new Deno.Command("deno", {
      args: ["eval", "--quiet", "--no-config", script],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(30_000),
    }).output();
    assertEquals(new TextDecoder().decode(output.stderr), "");
    assertEquals(new TextDecoder().decode(output.stdout).trim(), "done");
    assertEquals(output.code, 0);
  },
});

Deno.test({
  name: "Transport reuses TLS connections (with the CA bundle) across requests",
  ignore: !direct || POSIX_TOOLS.ignore,
  async fn() {
    await withTlsServer(async ({ server, certs }) => {
      await using transport = new Transport({
        settings: { host: server.url, pat: server.pat, caBundle: certs.caPath },
      });
      for (let i = 0; i < 4; i++) await transport.json("GET", "/info");
      assertEquals(server.connections, 1);
    });
  },
});
