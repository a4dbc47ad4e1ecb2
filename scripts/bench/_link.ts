/**
 * Links like the users' own, for the benchmark: a TCP proxy in front of the local server that
 * imposes a bandwidth cap shared by all connections and a delay, in each direction (`netem` is
 * not available on these machines), and a front that makes the server handle one request at a
 * time, as a small deployment does.
 *
 * @module
 */

/** A link: rate in bits per second, round-trip delay in milliseconds. */
export interface Link {
  bitsPerSecond: number;
  rttMs: number;
  /** As written on the command line (`1gbit/2ms`). */
  name: string;
}

/**
 * Parses `1gbit/2ms`, `100mbit/30ms` (k, m, g; bit).
 *
 * @param text The link.
 * @returns The link.
 */
export function parseLink(text: string): Link {
  const match = /^(\d+(?:\.\d+)?)([kmg])bit\/(\d+(?:\.\d+)?)ms$/i.exec(text);
  if (!match) throw new Error(`--link ${text}: write it like 1gbit/2ms or 100mbit/30ms`);
  const scale = { k: 1e3, m: 1e6, g: 1e9 }[match[2]!.toLowerCase() as "k" | "m" | "g"];
  return { bitsPerSecond: Number(match[1]) * scale, rttMs: Number(match[3]), name: text };
}

/** One direction of the link: a queue that sends at the rate, then delays by half the RTT. */
class Direction {
  #freeAt = 0;
  constructor(readonly link: Link) {}

  /** When `bytes` leave the bottleneck, and when they arrive. */
  schedule(bytes: number): { departs: number; arrives: number } {
    const now = performance.now();
    const departs = Math.max(now, this.#freeAt) + bytes * 8 / this.link.bitsPerSecond * 1000;
    this.#freeAt = departs;
    return { departs, arrives: departs + this.link.rttMs / 2 };
  }
}

const sleepUntil = (at: number) => {
  const wait = at - performance.now();
  return wait > 1 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
};

/**
 * How far (ms of the link's time) a sender may run ahead of the bottleneck, as its socket buffer
 * lets it: a timer per piece would oversleep and leave the link idle.
 */
const AHEAD_MS = 20;

/** Copies `from` to `to` through one direction of the link, in order. */
async function pump(from: Deno.Conn, to: Deno.Conn, direction: Direction): Promise<void> {
  let delivered = Promise.resolve();
  try {
    for (;;) {
      const buffer = new Uint8Array(262_144);
      const read = await from.read(buffer);
      if (read === null) break;
      const { departs, arrives } = direction.schedule(read);
      const piece = buffer.subarray(0, read);
      delivered = delivered.then(async () => {
        await sleepUntil(arrives);
        for (let at = 0; at < piece.byteLength;) at += await to.write(piece.subarray(at));
      });
      // The sender waits while the bottleneck is busy (its socket buffer fills).
      await sleepUntil(departs - AHEAD_MS);
    }
    await delivered;
  } catch { /* a side closed */ }
  try {
    await delivered;
    to.closeWrite();
  } catch { /* closed */ }
}

/**
 * Starts the link proxy on 127.0.0.1 in front of `target`.
 *
 * @param target The server's origin (`http://127.0.0.1:<port>`).
 * @param link The link.
 * @returns The proxy's origin, and how to stop it.
 */
export function startLink(target: string, link: Link): { url: string; close(): void } {
  const { hostname, port } = new URL(target);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const up = new Direction(link);
  const down = new Direction(link);
  (async () => {
    for await (const client of listener) {
      (async () => {
        // The connection's handshake crosses the link once there and back.
        await new Promise((resolve) => setTimeout(resolve, link.rttMs));
        const server = await Deno.connect({ hostname, port: Number(port) });
        await Promise.all([pump(client, server, up), pump(server, client, down)]);
        for (const conn of [client, server]) {
          try {
            conn.close();
          } catch { /* closed */ }
        }
      })().catch(() => {});
    }
  })().catch(() => {});
  return { url: `http://127.0.0.1:${listener.addr.port}`, close: () => listener.close() };
}

/**
 * Starts a front on 127.0.0.1 that passes requests to `target` one at a time: the next request
 * waits until the previous answer was read whole, as a server with one worker handles them.
 *
 * @param target The server's origin.
 * @returns The front's origin, and how to stop it.
 */
export function startSerialFront(target: string): { url: string; close(): Promise<void> } {
  let queue = Promise.resolve();
  const client = Deno.createHttpClient({});
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    const turn = queue.then(async () => {
      const answer = await fetch(`${target}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body ? await request.arrayBuffer() : null,
        redirect: "manual",
        client,
      });
      const body = await answer.arrayBuffer();
      return new Response(answer.status === 204 || answer.status === 304 ? null : body, {
        status: answer.status,
        headers: answer.headers,
      });
    });
    queue = turn.then(() => {}, () => {});
    return turn;
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    close: async () => {
      await server.shutdown();
      client.close();
    },
  };
}
