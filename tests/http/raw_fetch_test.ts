// Large byte bodies (upload chunks) go through the small HTTP/1.1 client of lib/http/_raw_fetch.ts
// (no copy, Content-Length), over plain HTTP and over TLS with the CA bundle.
import { assertEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError, TlsError } from "../../lib/http/errors.ts";
import { RepoRecord } from "../../lib/transfer/record.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { downloadFileStream } from "../../lib/transfer/download.ts";
import { makeCertificates, withTlsServer } from "../_tls.ts";
import { rawFetch } from "../../lib/http/_raw_fetch.ts";
import { proxyRouter } from "../../lib/http/_proxy_env.ts";
import { POSIX_TOOLS } from "../_platform.ts";
import { openResource } from "../../lib/resources/resource.ts";

// The small client serves every route it can tell (a proxy variable it may not read: fetch).
const noProxy = proxyRouter()(new URL("http://127.0.0.1")).kind === "direct";

function sample(length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(length).map((_, i) => (i * 7 + (i >> 10)) & 0xff);
}

async function roundTrip(tls: boolean): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const certs = tls ? await makeCertificates(dir) : undefined;
    await using server = await startServer(
      certs ? { tls: { cert: certs.cert, key: certs.key } } : {},
    );
    await using transport = new Transport({
      settings: { host: server.url, pat: server.pat, ...(certs ? { caBundle: certs.caPath } : {}) },
    });
    const record = await openResource(transport, RepoRecord, { identifier: "raw", create: true });
    const data = sample(3_000_001);
    const file = await uploadFile(record, data, { fileName: "data.bin" });
    assertEquals(file.size, data.byteLength);
    assertEquals(data.byteLength, 3_000_001); // the caller's bytes are untouched
    const put = server.log.find((entry) => entry.method === "PUT" && entry.status === 201);
    assertEquals(put?.bodyBytes, data.byteLength);
    assertEquals(put?.headers["content-length"], String(data.byteLength));
    assertEquals(put?.headers["transfer-encoding"], undefined);
    // Deno's fetch adds accept-encoding; the small client does not: the body went without a copy.
    if (noProxy) assertEquals(put?.headers["accept-encoding"], undefined);
    assertEquals(put?.authorization, true);
    const stream = await downloadFileStream(record, file.id);
    const back = new Uint8Array(await new Response(stream).arrayBuffer());
    assertEquals(back, data);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Transport sends a large byte body with Content-Length and no copy over HTTP", async () => {
  await roundTrip(false);
});

Deno.test(
  "Transport sends a large byte body with Content-Length and no copy over TLS with caBundle",
  POSIX_TOOLS,
  async () => {
    await roundTrip(true);
  },
);

Deno.test(
  "Transport maps failures of large byte bodies like any request: TLS and refused connections",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ server }) => {
      await using untrusted = new Transport({ settings: { host: server.url, pat: server.pat } });
      await assertRejects(
        () => untrusted.request("PUT", "/records/1/uploads/x", { body: sample(2 << 20) }),
        TlsError,
      );
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const port = listener.addr.port;
      listener.close();
      await using refused = new Transport({
        settings: { host: `http://127.0.0.1:${port}`, pat: "pat" },
        retry: { maxAttempts: 1 },
      });
      await assertRejects(
        () => refused.request("PUT", "/records/1/uploads/x", { body: sample(2 << 20) }),
        ConnectionError,
      );
    });
  },
);

Deno.test("Transport aborts a large byte body when the signal fires", async () => {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const controller = new AbortController();
  const reason = new Error("stop");
  controller.abort(reason);
  const error = await transport.request("PUT", "/records/1/uploads/x", {
    body: sample(2 << 20),
    signal: controller.signal,
  }).then(() => undefined, (caught: unknown) => caught);
  assertEquals(error, reason);
});

Deno.test("rawFetch() gives a bodiless answer for 205, as fetch does", async () => {
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      await request.body?.cancel();
      return new Response(null, { status: 205 });
    },
  );
  const response = await rawFetch()(new URL(`http://127.0.0.1:${server.addr.port}/x`), {
    method: "PUT",
    headers: {},
    body: sample(1_048_576),
    signal: new AbortController().signal,
  });
  assertEquals(response.status, 205);
  assertEquals(response.body, null);
});
