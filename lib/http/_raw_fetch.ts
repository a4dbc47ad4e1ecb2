// A minimal HTTP/1.1 client over Deno.connect / Deno.connectTls, for every request whose body is
// bytes, text or none. Deno's fetch copies every Uint8Array body into a fresh buffer that the
// garbage collector frees late (hundreds of MiB for a big upload), hands answers over in small
// fresh pieces, and costs about three times the CPU of this client per small request; this
// client writes the caller's buffer as it is, with a Content-Length, and reads the answer's body
// from the socket straight into the reader's buffer (_raw_answer.ts). With a pool (_conn_pool.ts)
// connections are kept alive: one goes back to the pool only after its answer was read to its
// framed end; without one, one connection per request (`Connection: close`). TLS uses Deno's
// root store plus the configured CA bundle, as fetch does. An `http://` proxy from the
// environment is used as Deno's fetch uses it: a CONNECT tunnel for `https://` hosts, the
// absolute form for `http://` ones (the transport keeps fetch when the route is unknown).
import type { FetchFn, FetchInit } from "./_node_fetch.ts";
import { socketHostname, WRITE_PIECE } from "./_connect.ts";
import { answerBody, answerResponse, readHead } from "./_raw_answer.ts";
import { ConnReader } from "./_conn_reader.ts";
import { closeQuietly, type ConnPool, keepAliveTimeoutMs, type PooledConn } from "./_conn_pool.ts";
import { proxyAuthorization, type ProxyRoute } from "./_proxy_env.ts";

/** Options of {@linkcode rawFetch}. */
export interface RawFetchOptions {
  /** Extra trusted CA certificates (PEM), as for `Deno.createHttpClient`. */
  caCerts?: string[] | undefined;
  /** The proxy of a request (default: none); an unknown route is refused. */
  route?: ((url: URL) => ProxyRoute) | undefined;
  /**
   * Keeps connections alive in this pool between requests (default: none, one connection per
   * request, `Connection: close`).
   */
  pool?: ConnPool | undefined;
}

/** Request bodies up to this size are written with the request head, in one write. */
const JOINED_BODY_BYTES = 65_536;

const encoder = new TextEncoder();

/**
 * Creates a fetch for requests whose body is a `Uint8Array` (sent without a copy), a string or
 * none; the answer's body is a byte stream read from the socket into the reader's buffers, or
 * the bytes themselves when a small answer arrived whole. With a pool, connections are kept
 * alive, and a request whose reused connection turns out closed before any byte of an answer
 * arrived is sent once more on a new connection.
 *
 * @param options Extra CA certificates, proxy routes, the connection pool.
 * @returns The fetch function.
 */
export function rawFetch(options: RawFetchOptions = {}): FetchFn {
  const { pool } = options;
  return async (url, init) => {
    if (init.signal.aborted) throw init.signal.reason;
    const body = init.body;
    if (body !== null && !(body instanceof Uint8Array) && typeof body !== "string") {
      throw new TypeError("rawFetch sends only byte and text bodies");
    }
    const route = options.route?.(url) ?? { kind: "direct" };
    if (route.kind === "unknown") throw new TypeError("rawFetch cannot tell the proxy to use");
    const proxy = route.kind === "proxy" ? route.proxy : undefined;
    const key = pool ? `${url.origin} ${proxy?.href ?? ""}` : "";
    const request = requestBytes(url, init.method, init.headers, body, proxy, pool !== undefined);
    // The connection in use, closed on abort (and with it a pending read or write).
    let current: Deno.Conn | undefined;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      if (current) closeQuietly(current);
    };
    init.signal.addEventListener("abort", onAbort, { once: true });
    const opened = (conn: Deno.Conn) => {
      current = conn;
      if (aborted) {
        closeQuietly(conn);
        throw init.signal.reason;
      }
    };
    // The answer's body decides the connection's fate when it ends.
    let handedOver = false;
    const settle = (pooled: PooledConn, reusable: boolean, keepAliveMs?: number) => {
      init.signal.removeEventListener("abort", onAbort);
      if (pool && reusable && !aborted) pool.put(key, pooled, keepAliveMs);
      else closeQuietly(pooled.conn);
    };
    try {
      for (let attempt = 0;; attempt++) {
        const reused = attempt === 0 ? pool?.take(key) : undefined;
        let pooled: PooledConn;
        if (reused) {
          opened(reused.conn);
          pooled = reused;
        } else {
          const conn = await connect(url, proxy, options.caCerts, opened);
          pooled = { conn, reader: new ConnReader(conn) };
        }
        const before = pooled.reader.received;
        try {
          const response = await exchange(pooled, init, request, settle);
          handedOver = true;
          return response;
        } catch (error) {
          closeQuietly(pooled.conn);
          // A kept-alive connection the server closed while it was idle: nothing of an answer
          // came, so the server did not take the request. Once more on a new connection.
          if (reused && !aborted && pooled.reader.received === before) continue;
          throw error;
        }
      }
    } catch (error) {
      if (init.signal.aborted) throw init.signal.reason;
      throw error;
    } finally {
      if (!handedOver) init.signal.removeEventListener("abort", onAbort);
    }
  };
}

/** Sends the request on the connection and reads the answer's head. */
async function exchange(
  pooled: PooledConn,
  init: FetchInit,
  request: RequestBytes,
  settle: (pooled: PooledConn, reusable: boolean, keepAliveMs?: number) => void,
): Promise<Response> {
  const { conn, reader } = pooled;
  // After a failed write the server may still wait for the rest of the body: never reused.
  let written = false;
  const answer = async () => {
    const head = await readHead(reader);
    // A body that ended before the Response exists (bodiless, or handed over whole) settles the
    // connection only once the head's fields passed their checks; a failure before that closes
    // it (the caller's catch).
    let ended: boolean | undefined;
    let built = false;
    const release = (clean: boolean) =>
      settle(pooled, written && clean && head.persistent, keepAliveTimeoutMs(head));
    const done = (clean: boolean) => built ? release(clean) : void (ended ??= clean);
    const content = answerBody(reader, init.method, head, done, init.activity);
    const response = answerResponse(head, content);
    built = true;
    if (ended !== undefined) release(ended);
    return response;
  };
  try {
    await writeAll(conn, request.head);
    if (request.body) await writeAll(conn, request.body, init.activity);
    written = true;
  } catch (error) {
    // A server may answer (413, 401) and close before it read the whole body: prefer its
    // answer to the broken pipe.
    if (init.signal.aborted) throw error;
    return await answer().catch(() => Promise.reject(error));
  }
  return await answer();
}

/** A request as written: the head (with a small body joined), then a larger body if any. */
interface RequestBytes {
  head: Uint8Array;
  body?: Uint8Array | undefined;
}

/**
 * The request head, followed by the body when that is small (one write); a larger body is
 * written after it as it is, without a copy.
 */
function requestBytes(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | string | null,
  proxy: URL | undefined,
  keepAlive: boolean,
): RequestBytes {
  const target = proxy && url.protocol === "http:"
    ? `${url.origin}${url.pathname}${url.search}`
    : `${url.pathname}${url.search}`;
  let head = `${method} ${target} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name in headers) {
    if (!SKIPPED_HEADERS.test(name)) head += `${name}: ${headers[name]}\r\n`;
  }
  // What Deno's fetch would add when the caller did not.
  if (headers.accept === undefined) head += "accept: */*\r\n";
  if (typeof body === "string" && headers["content-type"] === undefined) {
    head += "content-type: text/plain;charset=UTF-8\r\n";
  }
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  if (bytes !== null || !/^(GET|HEAD)$/.test(method)) {
    head += `content-length: ${bytes?.byteLength ?? 0}\r\n`;
  }
  if (proxy && url.protocol === "http:") {
    for (const line of authorizationLines(proxy)) head += `${line}\r\n`;
  }
  head += keepAlive ? "\r\n" : "connection: close\r\n\r\n";
  if (bytes === null) return { head: encoder.encode(head) };
  if (bytes.byteLength > JOINED_BODY_BYTES) return { head: encoder.encode(head), body: bytes };
  const joined = new Uint8Array(head.length * 3 + bytes.byteLength);
  const { written } = encoder.encodeInto(head, joined);
  joined.set(bytes, written);
  return { head: joined.subarray(0, written + bytes.byteLength) };
}

const SKIPPED_HEADERS = /^(host|content-length|connection|transfer-encoding)$/i;

/**
 * Opens the connection to the URL's host: straight, or through an `http://` proxy (a CONNECT
 * tunnel for `https://`). `opened` sees every connection as soon as it exists (to close it on
 * abort) and may throw to stop.
 */
async function connect(
  url: URL,
  proxy: URL | undefined,
  caCerts: string[] | undefined,
  opened: (conn: Deno.Conn) => void,
): Promise<Deno.Conn> {
  const tls = url.protocol === "https:";
  const port = Number(url.port || (tls ? 443 : 80));
  const ca = caCerts ? { caCerts } : {};
  if (!proxy) {
    const conn = tls
      ? await Deno.connectTls({ hostname: socketHostname(url), port, ...ca })
      : await Deno.connect({ hostname: socketHostname(url), port });
    opened(conn);
    return conn;
  }
  const tcp = await Deno.connect({
    hostname: socketHostname(proxy),
    port: Number(proxy.port || 80),
  });
  opened(tcp);
  if (!tls) return tcp;
  const authority = `${url.hostname}:${port}`;
  const request = [`CONNECT ${authority} HTTP/1.1`, `host: ${authority}`];
  request.push(...authorizationLines(proxy), "", "");
  await writeAll(tcp, new TextEncoder().encode(request.join("\r\n")));
  const reader = new ConnReader(tcp);
  const head = await readHead(reader);
  if (head.status !== 200 || reader.buffered > 0) {
    throw new TypeError(
      `proxy tunnel failed: the proxy ${proxy.host} answered CONNECT with ${head.status}`,
    );
  }
  const conn = await Deno.startTls(tcp, { hostname: url.hostname.replace(/^\[|\]$/g, ""), ...ca });
  opened(conn);
  return conn;
}

/** The Proxy-Authorization header line for a proxy URL with credentials (none without). */
function authorizationLines(proxy: URL): string[] {
  const value = proxyAuthorization(proxy);
  return value === undefined ? [] : [`proxy-authorization: ${value}`];
}

async function writeAll(
  conn: Deno.Conn,
  data: Uint8Array,
  activity?: () => void,
): Promise<void> {
  for (let offset = 0; offset < data.byteLength;) {
    offset += await conn.write(data.subarray(offset, offset + WRITE_PIECE));
    activity?.();
  }
}
