// JSON answers of a small declared length are read in one call (lib/http/_body.ts
// readAnswerText): still under the idle timeout, still bounded, still an error when broken.
import { assertEquals, assertRejects } from "../_assert.ts";
import { gzipSync } from "node:zlib";
import { Transport } from "../../lib/http/transport.ts";
import { ConnectionError, ResponseTooLargeError, TimeoutError } from "../../lib/http/errors.ts";
import { scripted } from "./_scripted.ts";

const HEAD = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n";

Deno.test("Transport.json(): a small answer is read whole", async () => {
  const server = scripted([`${HEAD}content-length: 8\r\n\r\n{"a": 1}`]);
  try {
    await using transport = new Transport({ settings: { host: server.url.origin, pat: "pat_x" } });
    assertEquals(await transport.json("GET", server.url.href), { a: 1 });
  } finally {
    server.close();
  }
});

Deno.test("Transport.json(): a small answer that stalls mid-body times out; one that breaks is a ConnectionError", async () => {
  const stalled = scripted([`${HEAD}content-length: 100\r\n\r\n`, '{"a": '], { hold: true });
  const broken = scripted([`${HEAD}content-length: 100\r\n\r\n`, '{"a": ']);
  try {
    for (
      const [server, expected] of [[stalled, TimeoutError], [broken, ConnectionError]] as const
    ) {
      await using transport = new Transport({
        settings: { host: server.url.origin, pat: "pat_x", timeout: 0.3 },
        retry: { maxAttempts: 1 },
      });
      await assertRejects(() => transport.json("GET", server.url.href), expected);
    }
    assertEquals(await (await stalled.seen).clientClosed, true);
  } finally {
    stalled.close();
    broken.close();
  }
});

/** Asks a server that writes `pieces` for JSON with a bound of 100 kB: it must be refused. */
async function assertTooLarge(pieces: (string | Uint8Array)[]): Promise<void> {
  const server = scripted(pieces);
  try {
    await using transport = new Transport({
      settings: { host: server.url.origin, pat: "pat_x" },
      maxJsonBytes: 100_000,
    });
    await assertRejects(() => transport.json("GET", server.url.href), ResponseTooLargeError);
  } finally {
    server.close();
  }
}

Deno.test("Transport.json(): a small compressed answer that inflates beyond the bound is refused", async () => {
  const body = gzipSync(new TextEncoder().encode(`[${"0,".repeat(1_000_000)}0]`));
  await assertTooLarge([
    `${HEAD}content-encoding: gzip\r\ncontent-length: ${body.byteLength}\r\n\r\n`,
    new Uint8Array(body),
  ]);
});

Deno.test("Transport.json(): a small declared length beside a chunked body does not bound the read, the bound does", async () => {
  const json = `[${"0,".repeat(500_000)}0]`;
  await assertTooLarge([
    `${HEAD}content-length: 8\r\ntransfer-encoding: chunked\r\n\r\n`,
    `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
  ]);
});
