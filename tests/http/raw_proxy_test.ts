// Uploads and downloads through an http:// proxy from the environment take the copy-free client
// too (lib/http/_raw_fetch.ts): a CONNECT tunnel for https:// hosts, the absolute form for
// http:// ones, credentials as Proxy-Authorization, NO_PROXY honoured, and a route the client
// cannot tell (a proxy kind it does not speak) left to Deno's fetch.
import { assert, assertEquals } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError } from "../../lib/http/errors.ts";
import { proxyRouter } from "../../lib/http/_proxy_env.ts";
import { RepoRecord } from "../../lib/transfer/record.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { downloadFileStream } from "../../lib/transfer/download.ts";
import { withTlsServer } from "../_tls.ts";
import { POSIX_TOOLS } from "../_platform.ts";
import { openResource } from "../../lib/resources/resource.ts";

const VARIABLES = [
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "ALL_PROXY",
  "all_proxy",
  "NO_PROXY",
  "no_proxy",
];

/** Runs `body` with the proxy variables set to `values` (the others unset), then restores them. */
async function withEnv(values: Record<string, string>, body: () => Promise<void>): Promise<void> {
  const saved = new Map(VARIABLES.map((name) => [name, Deno.env.get(name)]));
  try {
    for (const name of VARIABLES) {
      if (values[name] === undefined) Deno.env.delete(name);
      else Deno.env.set(name, values[name]);
    }
    await body();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  }
}

/** A proxy on 127.0.0.1: CONNECT tunnels and absolute-form requests, each request line kept. */
function startProxy(options: { refuse?: number } = {}) {
  const lines: string[] = [];
  const authorizations: (string | null)[] = [];
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const serve = async (client: Deno.Conn) => {
    conns.add(client);
    const buffer = new Uint8Array(65536);
    let head = new Uint8Array(0);
    let end = -1;
    while (end < 0) {
      const read = await client.read(buffer);
      if (read === null) return client.close();
      const joined = new Uint8Array(head.byteLength + read);
      joined.set(head);
      joined.set(buffer.subarray(0, read), head.byteLength);
      head = joined;
      end = new TextDecoder("latin1").decode(head).indexOf("\r\n\r\n");
    }
    const text = new TextDecoder("latin1").decode(head.subarray(0, end));
    const [requestLine = "", ...headers] = text.split("\r\n");
    lines.push(requestLine);
    authorizations.push(
      headers.find((line) => /^proxy-authorization:/i.test(line))?.replace(/^[^:]*:\s*/, "") ??
        null,
    );
    const [method = "", target = ""] = requestLine.split(" ");
    if (options.refuse) {
      await client.write(new TextEncoder().encode(`HTTP/1.1 ${options.refuse} No\r\n\r\n`));
      return client.close();
    }
    const url = method === "CONNECT" ? new URL(`http://${target}`) : new URL(target);
    const upstream = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
    conns.add(upstream);
    if (method === "CONNECT") {
      await client.write(new TextEncoder().encode("HTTP/1.1 200 Connection Established\r\n\r\n"));
      await upstream.write(head.subarray(end + 4));
    } else {
      // The request goes on in origin form (what the local server expects); the rest is piped.
      const origin = [`${method} ${url.pathname}${url.search} HTTP/1.1`, ...headers].join("\r\n");
      await upstream.write(new TextEncoder().encode(`${origin}\r\n\r\n`));
      await upstream.write(head.subarray(end + 4));
    }
    await Promise.all([
      client.readable.pipeTo(upstream.writable).catch(() => {}),
      upstream.readable.pipeTo(client.writable).catch(() => {}),
    ]);
  };
  (async () => {
    for await (const conn of listener) serve(conn).catch(() => {});
  })().catch(() => {});
  return {
    port: listener.addr.port,
    lines,
    authorizations,
    close() {
      listener.close();
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
    },
  };
}

function sample(length: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(length).map((_, i) => (i * 13 + (i >> 11)) & 0xff);
}

/** Uploads 3 MB and downloads it again as a stream; returns the server's PUT of the data. */
async function roundTrip(server: TestServer, caBundle?: string) {
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat, ...(caBundle ? { caBundle } : {}) },
  });
  const record = await openResource(transport, RepoRecord, { identifier: "proxied", create: true });
  const data = sample(3_000_000);
  const file = await uploadFile(record, data, { fileName: "data.bin" });
  const back = new Uint8Array(
    await new Response(await downloadFileStream(record, file.id)).arrayBuffer(),
  );
  assertEquals(back, data);
  return server.log.find((entry) => entry.method === "PUT" && entry.status === 201);
}

Deno.test("proxyRouter() reads the variables as Deno's fetch does", async () => {
  const https = new URL("https://repo.example/api");
  const http = new URL("http://repo.example/api");
  await withEnv({ HTTPS_PROXY: "proxy.example:3128" }, () => {
    const route = proxyRouter();
    assertEquals(route(https), { kind: "proxy", proxy: new URL("http://proxy.example:3128") });
    assertEquals(route(http), { kind: "direct" });
    return Promise.resolve();
  });
  await withEnv({ all_proxy: "http://all.example:8080", no_proxy: ".example" }, () => {
    const route = proxyRouter();
    assertEquals(route(https), { kind: "direct" });
    assertEquals(route(new URL("http://other.org/")).kind, "proxy");
    return Promise.resolve();
  });
  await withEnv({ HTTPS_PROXY: "socks5://127.0.0.1:1080" }, () => {
    assertEquals(proxyRouter()(https), { kind: "unknown" });
    return Promise.resolve();
  });
});

Deno.test("uploads and downloads to an http:// host go through HTTP_PROXY in absolute form", async () => {
  await using server = await startServer();
  const proxy = startProxy();
  try {
    await withEnv({ HTTP_PROXY: `http://user:s3cret@127.0.0.1:${proxy.port}` }, async () => {
      const put = await roundTrip(server);
      // The data went through the copy-free client: Deno's fetch would add accept-encoding.
      assertEquals(put?.headers["accept-encoding"], undefined);
      assertEquals(put?.bodyBytes, 3_000_000);
    });
    const origin = new URL(server.url).origin;
    assert(proxy.lines.some((line) => line.startsWith(`PUT ${origin}/api/`)), proxy.lines.join());
    assert(
      proxy.lines.some((line) => /^GET \S+\/download HTTP/.test(line) && line.includes(origin)),
    );
    assert(proxy.authorizations.every((value) => value === `Basic ${btoa("user:s3cret")}`));
  } finally {
    proxy.close();
  }
});

Deno.test(
  "uploads and downloads to an https:// host go through a CONNECT tunnel of HTTPS_PROXY",
  POSIX_TOOLS,
  async () => {
    await withTlsServer(async ({ server, certs }) => {
      const proxy = startProxy();
      try {
        await withEnv({ HTTPS_PROXY: `127.0.0.1:${proxy.port}` }, async () => {
          const put = await roundTrip(server, certs.caPath);
          assertEquals(put?.headers["accept-encoding"], undefined);
        });
        const authority = new URL(server.url).host;
        assert(proxy.lines.length >= 3, proxy.lines.join());
        assert(proxy.lines.every((line) => line === `CONNECT ${authority} HTTP/1.1`));
      } finally {
        proxy.close();
      }
    });
  },
);

Deno.test("NO_PROXY sends the data straight to the host", async () => {
  await using server = await startServer();
  const proxy = startProxy();
  try {
    await withEnv(
      { HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: "localhost,127.0.0.1" },
      async () => void await roundTrip(server),
    );
    assertEquals(proxy.lines, []);
  } finally {
    proxy.close();
  }
});

Deno.test("a proxy that refuses the tunnel is a ConnectionError without its credentials", async () => {
  const proxy = startProxy({ refuse: 407 });
  try {
    await withEnv({ HTTPS_PROXY: `http://user:s3cret@127.0.0.1:${proxy.port}` }, async () => {
      await using transport = new Transport({
        settings: { host: "https://repo.invalid", pat: "pat_x" },
        retry: { maxAttempts: 1 },
      });
      const error = await transport.request("PUT", "/records/1/uploads/x", {
        body: sample(2 << 20),
      }).catch((caught: unknown) => caught);
      assert(error instanceof ConnectionError, String(error));
      assert(/407/.test(error.message), error.message);
      assert(!error.message.includes("s3cret"), error.message);
    });
  } finally {
    proxy.close();
  }
});
