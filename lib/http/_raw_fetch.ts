// A minimal HTTP/1.1 client for bulk transfers, over Deno.connect / Deno.connectTls: large
// in-memory request bodies (upload chunks) and large answers (file downloads). Deno's fetch
// copies every Uint8Array body into a fresh buffer that the garbage collector frees late
// (hundreds of MiB for a big upload), and hands answers over in small fresh pieces; this client
// writes the caller's buffer as it is, with a Content-Length, and reads the answer's body from
// the socket straight into the reader's buffer (_raw_answer.ts). One connection per request
// (`Connection: close`), closed when the answer's body ended or was cancelled. TLS uses Deno's
// root store plus the configured CA bundle, as fetch does. An `http://` proxy from the
// environment is used as Deno's fetch uses it: a CONNECT tunnel for `https://` hosts, the
// absolute form for `http://` ones (the transport keeps fetch when the route is unknown).
import type { FetchFn } from "./_node_fetch.ts";
import { socketHostname, WRITE_PIECE } from "./_connect.ts";
import { answerBody, ConnReader, readHead } from "./_raw_answer.ts";
import { proxyAuthorization, type ProxyRoute } from "./_proxy_env.ts";

/** Options of {@linkcode rawFetch}. */
export interface RawFetchOptions {
  /** Extra trusted CA certificates (PEM), as for `Deno.createHttpClient`. */
  caCerts?: string[] | undefined;
  /** The proxy of a request (default: none); an unknown route is refused. */
  route?: ((url: URL) => ProxyRoute) | undefined;
}

/**
 * Creates a fetch for requests whose body is a `Uint8Array` (or none), sent without a copy; the
 * answer's body is a byte stream read from the socket into the reader's buffers.
 *
 * @param options Extra CA certificates, proxy routes.
 * @returns The fetch function.
 */
export function rawFetch(options: RawFetchOptions = {}): FetchFn {
  return async (url, init) => {
    if (init.signal.aborted) throw init.signal.reason;
    const body = init.body;
    if (body !== null && !(body instanceof Uint8Array)) {
      throw new TypeError("rawFetch sends only byte bodies");
    }
    const route = options.route?.(url) ?? { kind: "direct" };
    if (route.kind === "unknown") throw new TypeError("rawFetch cannot tell the proxy to use");
    const proxy = route.kind === "proxy" ? route.proxy : undefined;
    let conn: Deno.Conn | undefined;
    let closed = false;
    const close = () => {
      closed = true;
      init.signal.removeEventListener("abort", close);
      try {
        conn?.close();
      } catch { /* already closed */ }
    };
    init.signal.addEventListener("abort", close, { once: true });
    let answered = false;
    try {
      conn = await connect(url, proxy, options.caCerts, (opened) => {
        conn = opened;
        if (closed) {
          close();
          throw init.signal.reason;
        }
      });
      const target = proxy && url.protocol === "http:"
        ? `${url.origin}${url.pathname}${url.search}`
        : `${url.pathname}${url.search}`;
      const lines = [`${init.method} ${target} HTTP/1.1`, `host: ${url.host}`];
      for (const [name, value] of Object.entries(init.headers)) {
        if (!/^(host|content-length|connection|transfer-encoding)$/i.test(name)) {
          lines.push(`${name}: ${value}`);
        }
      }
      if (body !== null || !/^(GET|HEAD)$/.test(init.method)) {
        lines.push(`content-length: ${body?.byteLength ?? 0}`);
      }
      if (proxy && url.protocol === "http:") lines.push(...authorizationLines(proxy));
      lines.push("connection: close", "", "");
      const open = conn;
      const reader = new ConnReader(open);
      const answer = async () => {
        const head = await readHead(reader);
        const stream = answerBody(reader, init.method, head, close, init.activity);
        const response = new Response(stream, head);
        answered = true;
        return response;
      };
      try {
        await writeAll(open, new TextEncoder().encode(lines.join("\r\n")));
        if (body) await writeAll(open, body, init.activity);
      } catch (error) {
        // A server may answer (413, 401) and close before it read the whole body: prefer its
        // answer to the broken pipe.
        if (init.signal.aborted) throw error;
        return await answer().catch(() => Promise.reject(error));
      }
      return await answer();
    } catch (error) {
      if (init.signal.aborted) throw init.signal.reason;
      throw error;
    } finally {
      // The body closes the connection when it ends; without an answer, nothing will.
      if (!answered) close();
    }
  };
}

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
