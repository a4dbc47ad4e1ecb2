// Bulk answers (downloads) read by the small HTTP/1.1 client (lib/http/_raw_answer.ts): every
// framing (Content-Length, chunked, end of connection), interim answers, gzip, and every way an
// answer can be broken or hostile, from a server that writes exact bytes.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { rawFetch } from "../../lib/http/_raw_fetch.ts";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError, TimeoutError } from "../../lib/http/errors.ts";

import { scripted } from "./_scripted.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function get(url: URL, signal = new AbortController().signal): Promise<Response> {
  return await rawFetch()(url, {
    method: "GET",
    headers: { authorization: "Bearer pat_x" },
    body: null,
    signal,
    bulk: true,
  });
}

async function bytesOf(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

Deno.test("raw answer: a Content-Length body is read into the reader's own buffer", async () => {
  const data = new Uint8Array(200_000).map((_, i) => (i * 31 + (i >> 9)) & 0xff);
  const server = scripted([
    `HTTP/1.1 200 OK\r\ncontent-length: ${data.byteLength}\r\n\r\n`,
    data.subarray(0, 1000),
    data.subarray(1000),
  ]);
  try {
    const response = await get(server.url);
    assertEquals(response.status, 200);
    const reader = response.body!.getReader({ mode: "byob" });
    const got = new Uint8Array(data.byteLength);
    let buffer = new ArrayBuffer(65536);
    for (let offset = 0;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done) break;
      assert(value.byteLength > 0);
      got.set(value, offset);
      offset += value.byteLength;
      buffer = value.buffer as ArrayBuffer; // the same memory, handed back
    }
    assertEquals(got, data);
    const { head } = await server.seen;
    assert(head.startsWith("GET /file HTTP/1.1\r\n"), head);
    assert(!/content-length/i.test(head), "a GET without a body sends no Content-Length");
    assert(!/accept-encoding/i.test(head), "no compression is asked for");
  } finally {
    server.close();
  }
});

Deno.test("raw answer: chunked bodies with split size lines and trailers", async () => {
  const server = scripted([
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n",
    "5\r\nhel",
    "lo\r\n",
    "1",
    "0;ext=1\r\n0123456789abcdef\r\n",
    "0\r\nx-trailer: 1\r\n\r\n",
  ]);
  try {
    const response = await get(server.url);
    assertEquals(new TextDecoder().decode(await bytesOf(response)), "hello0123456789abcdef");
  } finally {
    server.close();
  }
});

Deno.test("raw answer: a body without length ends with the connection", async () => {
  const server = scripted(["HTTP/1.1 200 OK\r\n\r\n", "first ", "second"]);
  try {
    assertEquals(new TextDecoder().decode(await bytesOf(await get(server.url))), "first second");
  } finally {
    server.close();
  }
});

Deno.test("raw answer: interim 1xx answers are skipped; 204 and HEAD have no body", async () => {
  const interim = scripted([
    "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
  ]);
  const empty = scripted(["HTTP/1.1 204 No Content\r\n\r\n"], { hold: true });
  try {
    assertEquals(new TextDecoder().decode(await bytesOf(await get(interim.url))), "ok");
    const response = await get(empty.url);
    assertEquals([response.status, response.body], [204, null]);
    assertEquals(await (await empty.seen).clientClosed, true, "the connection is closed at once");
  } finally {
    interim.close();
    empty.close();
  }
});

Deno.test("raw answer: a gzip-encoded body is decoded", async () => {
  const packed = new Uint8Array(
    await new Response(
      new Blob([encode("squeezed ".repeat(100))]).stream().pipeThrough(
        new CompressionStream("gzip"),
      ),
    ).arrayBuffer(),
  );
  const server = scripted([
    `HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${packed.byteLength}\r\n\r\n`,
    packed,
  ]);
  try {
    const text = new TextDecoder().decode(await bytesOf(await get(server.url)));
    assertEquals(text, "squeezed ".repeat(100));
  } finally {
    server.close();
  }
});

Deno.test("raw answer: broken and hostile answers fail clearly", async (t) => {
  const cases: [string, (string | Uint8Array)[], RegExp, "head" | "body"][] = [
    [
      "a body shorter than its Content-Length",
      ["HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n", "only this"],
      /closed 991 bytes before the answer's end/,
      "body",
    ],
    [
      "a connection closed within a chunk",
      ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", "ff\r\nabc"],
      /closed within a chunk/,
      "body",
    ],
    [
      "an invalid chunk size",
      ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n", "zz\r\nabc"],
      /Invalid chunk size/,
      "body",
    ],
    [
      "an invalid Content-Length",
      ["HTTP/1.1 200 OK\r\ncontent-length: -5\r\n\r\n"],
      /Invalid Content-Length/,
      "head",
    ],
    [
      "an unsupported Content-Encoding",
      ["HTTP/1.1 200 OK\r\ncontent-encoding: zstd\r\ncontent-length: 3\r\n\r\nabc"],
      /Unsupported Content-Encoding zstd/,
      "head",
    ],
    ["no HTTP at all", ["SSH-2.0-OpenSSH_9.6\r\n\r\n"], /Invalid HTTP answer: SSH-2\.0/, "head"],
    ["a status out of range", ["HTTP/1.1 999 Odd\r\n\r\n"], /Invalid HTTP answer/, "head"],
    [
      "an endless head",
      ["HTTP/1.1 200 OK\r\n", `x-long: ${"a".repeat(70_000)}`],
      /too long/,
      "head",
    ],
    ["a connection closed before the head", ["HTTP/1.1 200 OK\r\n"], /closed within/, "head"],
  ];
  for (const [name, pieces, message, where] of cases) {
    await t.step(name, async () => {
      const server = scripted(pieces);
      try {
        const error = where === "head"
          ? await get(server.url).catch((caught: unknown) => caught)
          : await bytesOf(await get(server.url)).catch((caught: unknown) => caught);
        assert(error instanceof TypeError && message.test(error.message), String(error));
      } finally {
        server.close();
      }
    });
  }
});

Deno.test("raw answer: the error of a broken head names what is wrong", async () => {
  const server = scripted(["HTTP/1.1 200 OK\r\ncontent-length: 12x\r\n\r\n"]);
  try {
    const error = await get(server.url).catch((caught: unknown) => caught);
    assert(error instanceof TypeError && /Invalid Content-Length 12x/.test(error.message));
  } finally {
    server.close();
  }
});

Deno.test("raw answer: cancelling the body or aborting closes the connection", async () => {
  const cancelled = scripted(
    ["HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n", "some"],
    { hold: true },
  );
  const aborted = scripted(
    ["HTTP/1.1 200 OK\r\ncontent-length: 1000000\r\n\r\n", "some"],
    { hold: true },
  );
  try {
    const response = await get(cancelled.url);
    await response.body!.cancel();
    assertEquals(await (await cancelled.seen).clientClosed, true);
    const controller = new AbortController();
    const second = await get(aborted.url, controller.signal);
    const reader = second.body!.getReader();
    await reader.read(); // "some"
    const pending = reader.read();
    controller.abort(new Error("stop"));
    assert((await pending.catch((caught: unknown) => caught)) instanceof Error);
    assertEquals(await (await aborted.seen).clientClosed, true);
  } finally {
    cancelled.close();
    aborted.close();
  }
});

Deno.test("Transport: a bulk answer that stalls mid-body times out; one that breaks is a ConnectionError", async () => {
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
      const response = await transport.request("GET", server.url.href, { bulk: true });
      await assertRejects(() => response.arrayBuffer(), expected);
    }
    assertEquals(await (await stalled.seen).clientClosed, true);
  } finally {
    stalled.close();
    broken.close();
  }
});
