// The one wire path (Deno's fetch, and the large-PUT sender of lib/http/_put_sender.ts) against
// servers that write exact bytes: no request is sent twice once its bytes went out, a host's
// second address is tried, answer headers with Latin-1 bytes are read, a connection whose answer
// had both Transfer-Encoding and Content-Length is not reused, a stalled body times out.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError, TimeoutError } from "../../lib/http/errors.ts";
import { largePutSender } from "../../lib/http/_put_sender.ts";
import { saveResponse } from "../../lib/transfer/_save.ts";
import { scripted } from "./_scripted.ts";

const encode = (text: string) => new TextEncoder().encode(text);
/** Latin-1 text as bytes (one byte per code unit up to 0xFF). */
const bytes = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

/** One request as a raw server read it. */
interface RawRequest {
  method: string;
  connection: number;
  body: Uint8Array;
}

/**
 * A server that reads whole requests (head and Content-Length body) on every connection and
 * lets `answer` write the bytes back; `answer` returning null closes the connection unanswered.
 */
function rawServer(answer: (request: RawRequest) => Uint8Array | null) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const requests: RawRequest[] = [];
  let connections = 0;
  const serveConn = async (conn: Deno.Conn, connection: number) => {
    let data = new Uint8Array(0);
    const read = async () => {
      const piece = new Uint8Array(65_536);
      const count = await conn.read(piece).catch(() => null);
      if (count === null) return false;
      const joined = new Uint8Array(data.byteLength + count);
      joined.set(data);
      joined.set(piece.subarray(0, count), data.byteLength);
      data = joined;
      return true;
    };
    try {
      for (;;) {
        let end: number;
        while ((end = new TextDecoder().decode(data).indexOf("\r\n\r\n")) < 0) {
          if (!await read()) return;
        }
        const head = new TextDecoder().decode(data.subarray(0, end));
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        while (data.byteLength < end + 4 + length) if (!await read()) return;
        const request = {
          method: head.split(" ")[0]!,
          connection,
          body: data.slice(end + 4, end + 4 + length),
        };
        data = data.slice(end + 4 + length);
        requests.push(request);
        const reply = answer(request);
        if (reply === null) return;
        await conn.write(reply);
      }
    } finally {
      try {
        conn.close();
      } catch { /* closed */ }
    }
  };
  (async () => {
    for await (const conn of listener) serveConn(conn, ++connections);
  })().catch(() => {});
  return {
    origin: `http://127.0.0.1:${listener.addr.port}`,
    requests,
    [Symbol.dispose]: () => listener.close(),
  };
}

const OK = encode(
  "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
);

Deno.test("wire: a POST whose bytes reached the server is never sent again", async () => {
  // GETs are answered on a kept-alive connection; the POST that follows on it is read whole,
  // and the connection closes without an answer.
  using server = rawServer((request) => request.method === "POST" ? null : OK);
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  await transport.json("GET", "/info");
  await assertRejects(
    () => transport.json("POST", "/records", { json: { identifier: "x" } }),
    ConnectionError,
  );
  const posts = server.requests.filter((request) => request.method === "POST");
  assertEquals(posts.length, 1);
  assertEquals(new TextDecoder().decode(posts[0]!.body), '{"identifier":"x"}');
});

Deno.test("wire: a large PUT whose answer is lost is sent once unless marked idempotent", async () => {
  using server = rawServer((request) => request.method === "PUT" ? null : OK);
  await using transport = new Transport({
    settings: { host: server.origin, pat: "pat_x" },
    retry: { minDelayMs: 1, maxDelayMs: 1 },
  });
  const body = new Uint8Array(2_000_000).fill(7);
  await assertRejects(() => transport.request("PUT", "/data", { body }), ConnectionError);
  assertEquals(server.requests.filter((request) => request.method === "PUT").length, 1);
  assertEquals(server.requests[0]!.body.byteLength, body.byteLength);
});

Deno.test("wire: a Latin-1 byte in an answer header fails no request (fetch and the PUT sender)", async () => {
  const answer = new Uint8Array([
    ...bytes("HTTP/1.1 200 OK\r\nX-Name: caf\xE9\r\ncontent-type: application/json\r\n"),
    ...bytes('content-length: 11\r\n\r\n{"ok":true}'),
  ]);
  using server = rawServer(() => answer);
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  assertEquals(await transport.json("GET", "/info"), { ok: true });
  const response = await transport.request("PUT", "/data", { body: new Uint8Array(2_000_000) });
  assertEquals(response.headers.get("x-name"), "caf\xE9");
  assertEquals(await response.json(), { ok: true });
});

Deno.test("wire: the PUT sender reads chunked answers after an interim 100", async () => {
  const answer = encode(
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ntransfer-encoding: chunked\r\n\r\n" +
      '4\r\n{"id\r\n5\r\n":12}\r\n0\r\n\r\n',
  );
  using server = rawServer(() => answer);
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  const response = await transport.request("PUT", "/data", { body: new Uint8Array(1 << 20) });
  assertEquals(response.status, 201);
  assertEquals(await response.json(), { id: 12 });
});

Deno.test("wire: a connection whose answer had Transfer-Encoding and Content-Length is not reused", async () => {
  const both = encode(
    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n" +
      "content-length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
  );
  using server = rawServer((request) => request.connection === 1 ? both : OK);
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  assertEquals(await transport.json("GET", "/first"), {});
  assertEquals(await transport.json("GET", "/second"), {});
  assertEquals(server.requests.map((request) => request.connection), [1, 2]);
});

Deno.test("wire: the PUT sender leaves a request it could not connect for to fetch", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const url = new URL(`http://127.0.0.1:${closed.addr.port}/data`);
  closed.close();
  const handed: URL[] = [];
  const send = largePutSender(undefined, (target) => {
    handed.push(target);
    return Promise.resolve(new Response("{}"));
  });
  const response = await send(url, {
    method: "PUT",
    headers: {},
    body: new Uint8Array(1 << 20),
    idempotent: true,
    signal: new AbortController().signal,
  });
  assertEquals(await response.json(), {});
  assertEquals(handed, [url]);
});

// A host name with two addresses whose first refuses: `localhost` resolving to ::1 first, with
// nothing listening there, and 127.0.0.1 serving.
const localhostOrder = await (async () => {
  try {
    const dns = await import("node:dns/promises");
    return (await dns.lookup("localhost", { all: true, verbatim: true })).map((entry) =>
      entry.address
    );
  } catch {
    return [];
  }
})();
const dualStack = localhostOrder[0] === "::1" && localhostOrder.includes("127.0.0.1");

Deno.test({
  name: dualStack
    ? "wire: a host whose first address refuses is reached at its second (GET and large PUT)"
    : `wire: a host whose first address refuses … SKIPPED: 'localhost' resolves to ` +
      `[${localhostOrder.join(", ")}] on this machine, not ::1 first and 127.0.0.1`,
  ignore: !dualStack,
  async fn() {
    using server = rawServer(() => OK);
    const port = new URL(server.origin).port;
    // Nothing may listen on ::1 at that port.
    const probe = await Deno.connect({ hostname: "::1", port: Number(port) }).catch(() => null);
    probe?.close();
    assert(probe === null, `something listens on [::1]:${port}`);
    await using transport = new Transport({
      settings: { host: `http://localhost:${port}`, pat: "pat_x" },
    });
    assertEquals(await transport.json("GET", "/info"), {});
    await (await transport.request("PUT", "/data", { body: new Uint8Array(1 << 20) })).body
      ?.cancel();
    assertEquals(server.requests.map((request) => request.method), ["GET", "PUT"]);
  },
});

Deno.test("wire: a download that stalls mid-body times out; one that breaks is a ConnectionError", async () => {
  const stalled = scripted(
    ["HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n", "some"],
    { hold: true },
  );
  const broken = scripted(["HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n", "some"]);
  try {
    for (
      const [server, expected] of [[stalled, TimeoutError], [broken, ConnectionError]] as const
    ) {
      await using transport = new Transport({
        settings: { host: server.url.origin, pat: "pat_x", timeout: 0.3 },
      });
      const response = await transport.request("GET", server.url.href);
      await assertRejects(() => response.arrayBuffer(), expected);
    }
    assertEquals(await (await stalled.seen).clientClosed, true);
  } finally {
    stalled.close();
    broken.close();
  }
});

Deno.test("wire: an encoded answer is decoded also when the caller chose Accept-Encoding", async () => {
  const content = encode('{"text":"' + "x".repeat(5000) + '"}');
  const gzip = new Uint8Array(
    await new Response(new Blob([content]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  const head = encode(
    `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${gzip.byteLength}\r\n\r\n`,
  );
  using server = rawServer(() => new Uint8Array([...head, ...gzip]));
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  for (const headers of [{}, { "accept-encoding": "identity" }]) {
    const response = await transport.request("GET", "/data", { headers });
    assertEquals(new Uint8Array(await response.arrayBuffer()), content);
  }
});

Deno.test("wire: a download with Transfer-Encoding and a wrong Content-Length is read by its chunks (issue 31)", async () => {
  const content = "hello, chunks";
  const chunked = encode(
    "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\n" +
      `content-length: 3\r\n\r\n${content.length.toString(16)}\r\n${content}\r\n0\r\n\r\n`,
  );
  using server = rawServer((request) => request.connection === 1 ? chunked : OK);
  await using transport = new Transport({ settings: { host: server.origin, pat: "pat_x" } });
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/data.bin`;
    await saveResponse(transport, "/records/1/files/x/download", path, { size: content.length });
    assertEquals(await Deno.readTextFile(path), content);
    // The connection that answered with both framings is not used again.
    assertEquals(await transport.json("GET", "/second"), {});
    assertEquals(server.requests.map((request) => request.connection), [1, 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
