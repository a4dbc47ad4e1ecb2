// A minimal HTTP/1.1 client for bulk transfers, over Deno.connect / Deno.connectTls: large
// in-memory request bodies (upload chunks) and large answers (file downloads). Deno's fetch
// copies every Uint8Array body into a fresh buffer that the garbage collector frees late
// (hundreds of MiB for a big upload), and hands answers over in small fresh pieces; this client
// writes the caller's buffer as it is, with a Content-Length, and reads the answer's body from
// the socket straight into the reader's buffer (_raw_answer.ts). One connection per request
// (`Connection: close`), closed when the answer's body ended or was cancelled. TLS uses Deno's
// root store plus the configured CA bundle, as fetch does; no proxy support (the transport keeps
// fetch when a proxy is configured).
import type { FetchFn } from "./_node_fetch.ts";
import { envGranted } from "./_env.ts";
import { socketHostname, WRITE_PIECE } from "./_connect.ts";
import { answerBody, ConnReader, readHead } from "./_raw_answer.ts";

/** Options of {@linkcode rawFetch}. */
export interface RawFetchOptions {
  /** Extra trusted CA certificates (PEM), as for `Deno.createHttpClient`. */
  caCerts?: string[] | undefined;
}

/** The proxy variables Deno's fetch reads. */
const PROXY_VARIABLES = [
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "ALL_PROXY",
  "all_proxy",
] as const;

/**
 * Whether a proxy may be configured: a proxy variable is set, or the process may not read one
 * (Deno's fetch reads them without a permission, so unknown counts as set). This client does not
 * use proxies, so the transport keeps Deno's fetch then.
 *
 * @returns True when a proxy may be set.
 */
export function proxyMayBeSet(): boolean {
  return PROXY_VARIABLES.some((variable) =>
    !envGranted(variable) ||
    (Deno.env.get(variable) ?? "") !== ""
  );
}

/**
 * Creates a fetch for requests whose body is a `Uint8Array` (or none), sent without a copy; the
 * answer's body is a byte stream read from the socket into the reader's buffers.
 *
 * @param options Extra CA certificates.
 * @returns The fetch function.
 */
export function rawFetch(options: RawFetchOptions = {}): FetchFn {
  return async (url, init) => {
    if (init.signal.aborted) throw init.signal.reason;
    const body = init.body;
    if (body !== null && !(body instanceof Uint8Array)) {
      throw new TypeError("rawFetch sends only byte bodies");
    }
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const hostname = socketHostname(url);
    const conn = url.protocol === "https:"
      ? await Deno.connectTls({
        hostname,
        port,
        ...(options.caCerts ? { caCerts: options.caCerts } : {}),
      })
      : await Deno.connect({ hostname, port });
    const close = () => {
      init.signal.removeEventListener("abort", close);
      try {
        conn.close();
      } catch { /* already closed */ }
    };
    init.signal.addEventListener("abort", close, { once: true });
    let answered = false;
    try {
      const lines = [`${init.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
      init.headers.forEach((value, name) => {
        if (!/^(host|content-length|connection|transfer-encoding)$/i.test(name)) {
          lines.push(`${name}: ${value}`);
        }
      });
      if (body !== null || !/^(GET|HEAD)$/.test(init.method)) {
        lines.push(`content-length: ${body?.byteLength ?? 0}`);
      }
      lines.push("connection: close", "", "");
      const reader = new ConnReader(conn);
      const answer = async () => {
        const head = await readHead(reader);
        const response = new Response(answerBody(reader, init.method, head, close), head);
        answered = true;
        return response;
      };
      try {
        await writeAll(conn, new TextEncoder().encode(lines.join("\r\n")));
        if (body) await writeAll(conn, body, init.activity);
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
