// The copy-free client's keep-alive pool (lib/http/_raw_fetch.ts with _conn_pool.ts) against a
// server that writes exact bytes on kept-alive connections: what goes back to the pool and what
// is closed, and when a request is sent once more.
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { rawFetch } from "../../lib/http/_raw_fetch.ts";
import { ConnPool } from "../../lib/http/_conn_pool.ts";

/** What the server writes for a request: bytes, or `silent` (close without a byte). */
type Reply = string | Uint8Array | "silent";

interface Seen {
  /** The connection's number (1-based, in accept order). */
  conn: number;
  /** The request's number on its connection (1-based). */
  nth: number;
  head: string;
  body: string;
}

/**
 * A server that reads requests (head and Content-Length body) on each connection, one after the
 * other, and writes `reply(seen)` for each; a reply that holds `connection: close` or no whole
 * head closes the connection after it.
 */
function keepAliveServer(reply: (seen: Seen) => Reply) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen: Seen[] = [];
  const conns = new Set<Deno.Conn>();
  const tasks: Promise<void>[] = [];
  let connections = 0;
  const serve = async (conn: Deno.Conn, number: number) => {
    const decoder = new TextDecoder();
    const buffer = new Uint8Array(65536);
    let text = "";
    for (let nth = 1;; nth++) {
      let end: number;
      while ((end = text.indexOf("\r\n\r\n")) < 0) {
        const read = await conn.read(buffer).catch(() => null);
        if (read === null) return;
        text += decoder.decode(buffer.subarray(0, read));
      }
      const head = text.slice(0, end);
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      text = text.slice(end + 4);
      while (text.length < length) {
        const read = await conn.read(buffer).catch(() => null);
        if (read === null) return;
        text += decoder.decode(buffer.subarray(0, read));
      }
      const entry = { conn: number, nth, head, body: text.slice(0, length) };
      text = text.slice(length);
      seen.push(entry);
      const answer = reply(entry);
      if (answer === "silent") return;
      const bytes = typeof answer === "string" ? new TextEncoder().encode(answer) : answer;
      await conn.write(bytes).catch(() => 0);
      // An answer that says so, or a broken one (no whole head), ends the connection.
      if (typeof answer === "string" && /connection: close|^(?![^]*\r\n\r\n)/i.test(answer)) return;
    }
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      tasks.push(
        serve(conn, ++connections).finally(() => {
          conns.delete(conn);
          try {
            conn.close();
          } catch { /* closed */ }
        }),
      );
    }
  })();
  return {
    url: new URL(`http://127.0.0.1:${listener.addr.port}/x`),
    seen,
    get connections() {
      return connections;
    },
    async close() {
      try {
        listener.close();
      } catch { /* closed */ }
      for (const conn of conns) {
        try {
          conn.close();
        } catch { /* closed */ }
      }
      await accepting.catch(() => {});
      await Promise.allSettled(tasks);
    },
  };
}

const OK = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok";

/** Sends a request through `fetchFn` (a GET without a body unless told), gives the answer. */
function open(
  fetchFn: ReturnType<typeof rawFetch>,
  url: URL,
  init: { method?: string; body?: string; signal?: AbortSignal } = {},
): Promise<Response> {
  return fetchFn(url, {
    method: init.method ?? "GET",
    headers: {},
    body: init.body ?? null,
    signal: init.signal ?? new AbortController().signal,
  });
}

/** Sends a request through `fetchFn`, reads the whole answer as text. */
async function send(
  fetchFn: ReturnType<typeof rawFetch>,
  url: URL,
  init: { method?: string; body?: string; signal?: AbortSignal } = {},
): Promise<string> {
  return await (await open(fetchFn, url, init)).text();
}

/** Runs `body` with a pooled client, closing the pool and the server afterwards. */
async function withPool(
  reply: (seen: Seen) => Reply,
  body: (
    fetchFn: ReturnType<typeof rawFetch>,
    server: ReturnType<typeof keepAliveServer>,
    pool: ConnPool,
  ) => Promise<void>,
): Promise<void> {
  const server = keepAliveServer(reply);
  const pool = new ConnPool();
  try {
    await body(rawFetch({ pool }), server, pool);
  } finally {
    pool.close();
    await server.close();
  }
}

Deno.test("rawFetch with a pool: sequential requests share one connection, no Connection: close", async () => {
  await withPool(() => OK, async (fetchFn, server, pool) => {
    for (let i = 0; i < 5; i++) assertEquals(await send(fetchFn, server.url), "ok");
    assertEquals(await send(fetchFn, server.url, { method: "POST", body: "{}" }), "ok");
    assertEquals(server.connections, 1);
    assertEquals(pool.idle, 1);
    assert(server.seen.every((entry) => !/^connection:/im.test(entry.head)));
    assertEquals(server.seen.at(-1)?.body, "{}");
  });
});

Deno.test("rawFetch with a pool: chunked answers and bodiless ones leave the connection reusable", async () => {
  const chunked = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n";
  const empty = "HTTP/1.1 204 No Content\r\n\r\n";
  await withPool(({ nth }) => nth % 2 ? chunked : empty, async (fetchFn, server) => {
    for (let i = 0; i < 4; i++) await send(fetchFn, server.url);
    assertEquals(server.connections, 1);
  });
});

Deno.test("rawFetch with a pool: Connection: close, HTTP/1.0 and close-delimited answers are not reused", async () => {
  const answers = [
    "HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok",
    "HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok",
    "HTTP/1.1 200 OK\r\n\r\nok",
  ];
  for (const answer of answers) {
    await withPool(() => answer, async (fetchFn, server, pool) => {
      for (let i = 0; i < 2; i++) {
        const response = await open(fetchFn, server.url);
        // A close-delimited body has no end while the server keeps the connection.
        const reader = response.body!.getReader();
        assertEquals(new TextDecoder().decode((await reader.read()).value), "ok");
        await reader.cancel();
        assertEquals(pool.idle, 0);
      }
      assertEquals(server.connections, 2);
    });
  }
});

Deno.test("rawFetch with a pool: bytes after the answer's end close the connection", async () => {
  await withPool(() => `${OK}HTTP/1.1 200 OK\r\n`, async (fetchFn, server, pool) => {
    assertEquals(await send(fetchFn, server.url), "ok");
    assertEquals(pool.idle, 0);
  });
});

Deno.test("rawFetch with a pool: a cancelled or aborted answer closes its connection", async () => {
  const big = "x".repeat(200_000);
  await withPool(
    () => `HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n${big}`,
    async (fetchFn, server, pool) => {
      const response = await open(fetchFn, server.url);
      await response.body!.cancel();
      assertEquals(pool.idle, 0);
      const controller = new AbortController();
      const aborted = await open(fetchFn, server.url, { signal: controller.signal });
      const reader = aborted.body!.getReader();
      await reader.read();
      controller.abort();
      await assertRejects(async () => {
        while (!(await reader.read()).done);
      }, Error);
      assertEquals(pool.idle, 0);
      assertEquals((await send(fetchFn, server.url)).length, big.length);
      assertEquals(server.connections, 3);
      assertEquals(pool.idle, 1);
    },
  );
});

Deno.test("rawFetch with a pool: a POST is sent once more only when its reused connection closed before any answer byte", async () => {
  await withPool(
    ({ conn, nth }) => conn === 1 && nth === 2 ? "silent" : OK,
    async (fetchFn, server) => {
      await send(fetchFn, server.url);
      assertEquals(await send(fetchFn, server.url, { method: "POST", body: "{}" }), "ok");
      assertEquals(server.seen.map(({ conn, nth }) => `${conn}.${nth}`), ["1.1", "1.2", "2.1"]);
    },
  );
  // A byte of the answer came: the server may have acted, so the error is the caller's.
  await withPool(
    ({ conn, nth }) => conn === 1 && nth === 2 ? "HTTP/1.1 5" : OK,
    async (fetchFn, server) => {
      await send(fetchFn, server.url);
      await assertRejects(
        () => send(fetchFn, server.url, { method: "POST", body: "{}" }),
        TypeError,
      );
      assertEquals(server.seen.length, 2);
      assertEquals(server.connections, 1);
    },
  );
  // A fresh connection that closes is a real failure, not a stale one.
  await withPool(
    () => "silent",
    async (fetchFn, server) => {
      await assertRejects(
        () => send(fetchFn, server.url, { method: "POST", body: "{}" }),
        TypeError,
      );
      assertEquals(server.seen.length, 1);
    },
  );
});

Deno.test("rawFetch with a pool: idle connections the server closed are dropped, not used", async () => {
  await withPool(
    () => OK,
    async (fetchFn, server, pool) => {
      await Promise.all([send(fetchFn, server.url), send(fetchFn, server.url)]);
      assertEquals(pool.idle, 2);
      await server.close();
      // The idle read of each connection sees the end: both leave the pool.
      for (let i = 0; pool.idle > 0 && i < 100; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assertEquals(pool.idle, 0);
    },
  );
});

Deno.test("rawFetch with a pool: a closed pool closes connections released later", async () => {
  const big = "y".repeat(100_000);
  await withPool(
    () => `HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n${big}`,
    async (fetchFn, server, pool) => {
      const response = await open(fetchFn, server.url);
      pool.close();
      assertEquals((await response.text()).length, big.length);
      assertEquals(pool.idle, 0);
    },
  );
});

Deno.test("rawFetch with a pool: an answer with an invalid header fails and its connection is closed", async () => {
  await withPool(
    ({ conn }) => conn === 1 ? "HTTP/1.1 200 OK\r\nbad name: x\r\ncontent-length: 2\r\n\r\nok" : OK,
    async (fetchFn, server, pool) => {
      await assertRejects(() => send(fetchFn, server.url), TypeError);
      assertEquals(pool.idle, 0);
      assertEquals(await send(fetchFn, server.url), "ok");
      assertEquals(server.connections, 2);
    },
  );
});
