// A minimal HTTP/1.1 client for requests with a large in-memory body (upload chunks), over
// Deno.connect / Deno.connectTls. Deno's fetch copies every Uint8Array body into a fresh buffer
// that the garbage collector frees late (hundreds of MiB for a big upload); this client writes
// the caller's buffer as it is, with a Content-Length. One connection per request
// (`Connection: close`), so the answer ends with the connection; answers are small (JSON) and
// read whole, up to a bound. TLS uses Deno's root store plus the configured CA bundle, as fetch
// does; no proxy support (the transport keeps fetch when a proxy is configured).
import type { FetchFn } from "./_node_fetch.ts";
import { envGranted } from "./_env.ts";
import { bodilessAnswer, socketHostname, WRITE_PIECE } from "./_connect.ts";

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

/** The longest answer head (status line and headers) read. */
const MAX_HEAD_BYTES = 64 * 1024;
/** The longest answer body read (answers to uploads are small JSON documents). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Creates a fetch for requests whose body is a `Uint8Array` (or none), sent without a copy.
 *
 * @param options Extra CA certificates.
 * @returns The fetch function.
 */
export function rawFetch(options: RawFetchOptions = {}): FetchFn {
  return async (url, init) => {
    if (init.signal.aborted) throw init.signal.reason;
    const body = init.body === null ? new Uint8Array(0) : init.body;
    if (!(body instanceof Uint8Array)) throw new TypeError("rawFetch sends only byte bodies");
    const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    const hostname = socketHostname(url);
    const conn = url.protocol === "https:"
      ? await Deno.connectTls({
        hostname,
        port,
        ...(options.caCerts ? { caCerts: options.caCerts } : {}),
      })
      : await Deno.connect({ hostname, port });
    const onAbort = () => {
      try {
        conn.close();
      } catch { /* already closed */ }
    };
    init.signal.addEventListener("abort", onAbort, { once: true });
    try {
      const lines = [`${init.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
      init.headers.forEach((value, name) => {
        if (!/^(host|content-length|connection|transfer-encoding)$/i.test(name)) {
          lines.push(`${name}: ${value}`);
        }
      });
      lines.push(`content-length: ${body.byteLength}`, "connection: close", "", "");
      try {
        await writeAll(conn, new TextEncoder().encode(lines.join("\r\n")));
        await writeAll(conn, body, init.activity);
      } catch (error) {
        // A server may answer (413, 401) and close before it read the whole body: prefer its
        // answer to the broken pipe.
        if (init.signal.aborted) throw error;
        return await readResponse(conn, init.method).catch(() => Promise.reject(error));
      }
      return await readResponse(conn, init.method);
    } catch (error) {
      if (init.signal.aborted) throw init.signal.reason;
      throw error;
    } finally {
      init.signal.removeEventListener("abort", onAbort);
      onAbort();
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

/** Reads the whole answer (skipping 1xx interim answers) into a Response. */
async function readResponse(conn: Deno.Conn, method: string): Promise<Response> {
  const reader = new ConnReader(conn);
  for (;;) {
    const head = await reader.readHead();
    const [statusLine = "", ...headerLines] = head.split("\r\n");
    const match = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
    if (!match) throw new TypeError(`Invalid HTTP answer: ${statusLine.slice(0, 80)}`);
    const status = Number(match[1]);
    const headers = new Headers();
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    if (status < 200) continue;
    if (bodilessAnswer(method, status)) {
      return new Response(null, { status, statusText: match[2] ?? "", headers });
    }
    const length = headers.get("content-length");
    const chunked = /chunked/i.test(headers.get("transfer-encoding") ?? "");
    const body = chunked
      ? await reader.readChunked()
      : length !== null
      ? await reader.readExactly(Number(length))
      : await reader.readToEnd();
    return new Response(body, { status, statusText: match[2] ?? "", headers });
  }
}

/** Buffered reads from a connection. */
class ConnReader {
  #conn: Deno.Conn;
  #buffer = new Uint8Array(0);
  #ended = false;

  constructor(conn: Deno.Conn) {
    this.#conn = conn;
  }

  async #fill(): Promise<boolean> {
    if (this.#ended) return false;
    const piece = new Uint8Array(64 * 1024);
    const read = await this.#conn.read(piece);
    if (read === null) {
      this.#ended = true;
      return false;
    }
    const joined = new Uint8Array(this.#buffer.byteLength + read);
    joined.set(this.#buffer);
    joined.set(piece.subarray(0, read), this.#buffer.byteLength);
    this.#buffer = joined;
    if (this.#buffer.byteLength > MAX_BODY_BYTES + MAX_HEAD_BYTES) {
      throw new TypeError("The answer is too large for an upload answer");
    }
    return true;
  }

  #take(length: number): Uint8Array<ArrayBuffer> {
    const taken = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.slice(length);
    return taken;
  }

  async #line(): Promise<string> {
    for (;;) {
      const end = indexOfCrlf(this.#buffer, 0);
      if (end >= 0) {
        const line = new TextDecoder().decode(this.#take(end));
        this.#take(2);
        return line;
      }
      if (this.#buffer.byteLength > MAX_HEAD_BYTES) throw new TypeError("Answer line too long");
      if (!(await this.#fill())) throw new TypeError("The connection closed mid-answer");
    }
  }

  async readHead(): Promise<string> {
    for (;;) {
      const end = indexOfHeadEnd(this.#buffer);
      if (end >= 0) {
        const head = new TextDecoder().decode(this.#take(end));
        this.#take(4);
        return head;
      }
      if (this.#buffer.byteLength > MAX_HEAD_BYTES) throw new TypeError("Answer head too long");
      if (!(await this.#fill())) throw new TypeError("The connection closed before an answer");
    }
  }

  async readExactly(length: number): Promise<Uint8Array<ArrayBuffer>> {
    if (!Number.isSafeInteger(length) || length < 0 || length > MAX_BODY_BYTES) {
      throw new TypeError(`Invalid or too large Content-Length ${length}`);
    }
    while (this.#buffer.byteLength < length) {
      if (!(await this.#fill())) throw new TypeError("The connection closed mid-answer");
    }
    return this.#take(length);
  }

  async readToEnd(): Promise<Uint8Array<ArrayBuffer>> {
    while (await this.#fill());
    return this.#take(this.#buffer.byteLength);
  }

  async readChunked(): Promise<Uint8Array<ArrayBuffer>> {
    const parts: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const size = parseInt((await this.#line()).split(";")[0] ?? "", 16);
      if (!Number.isSafeInteger(size) || size < 0) throw new TypeError("Invalid chunk size");
      if (size === 0) break;
      total += size;
      parts.push(await this.readExactly(size));
      if (total > MAX_BODY_BYTES) throw new TypeError("The answer is too large");
      await this.#line();
    }
    const body = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      body.set(part, offset);
      offset += part.byteLength;
    }
    return body;
  }
}

function indexOfCrlf(data: Uint8Array, from: number): number {
  for (let i = from; i + 1 < data.byteLength; i++) {
    if (data[i] === 13 && data[i + 1] === 10) return i;
  }
  return -1;
}

function indexOfHeadEnd(data: Uint8Array): number {
  for (let i = 0; i + 3 < data.byteLength; i++) {
    if (data[i] === 13 && data[i + 1] === 10 && data[i + 2] === 13 && data[i + 3] === 10) return i;
  }
  return -1;
}
