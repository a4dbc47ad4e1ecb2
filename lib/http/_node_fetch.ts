// A fetch over node:https, used only when TLS verification is switched off (`verify = false`):
// Deno's fetch has no per-client switch for that, node:https's `rejectUnauthorized` does.
// The node modules are imported on first use: only `verify = false` needs them, and loading
// them would cost every other command start-up time.
import type http from "node:http";
import type https from "node:https";
import type net from "node:net";
import type tls from "node:tls";
import type { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { grantedEnv } from "./_env.ts";

interface NodeModules {
  https: typeof https;
  net: typeof net;
  tls: typeof tls;
  Readable: typeof Readable;
}

let loaded: Promise<NodeModules> | undefined;

function nodeModules(): Promise<NodeModules> {
  loaded ??= Promise.all([
    import("node:https"),
    import("node:net"),
    import("node:tls"),
    import("node:stream"),
  ]).then(([https, net, tls, stream]) => ({
    https: https.default,
    net: net.default,
    tls: tls.default,
    Readable: stream.Readable,
  }));
  return loaded;
}

/** What the transport passes to a fetch implementation. */
export interface FetchInit {
  method: string;
  /** Header names in lower case (see `headerRecord` in `_header_record.ts`). */
  headers: Record<string, string>;
  body: BodyInit | null;
  signal: AbortSignal;
  /** Whether the request may be sent again (a reused connection may carry it). */
  idempotent: boolean;
  /** Called whenever a piece of the body was handed on (the transport's idle timer). */
  activity?: () => void;
}

/** A fetch function as the transport uses it. */
export type FetchFn = (url: URL, init: FetchInit) => Promise<Response>;

/**
 * Creates a fetch that skips certificate verification, with one keep-alive agent (one pool).
 * With a `proxy` (an `http://` proxy URL), every request goes through a CONNECT tunnel instead.
 */
export function insecureFetch(options: { proxy?: URL | undefined } = {}): {
  fetch: FetchFn;
  close(): void;
} {
  let agent: https.Agent | undefined;
  const fetchFn: FetchFn = async (url, init) => {
    const { https, net, tls, Readable } = await nodeModules();
    // `ca: []` keeps node:tls from loading the system roots (which needs --allow-sys=ca); with
    // verification off they are not used anyway.
    const pool = agent ??= new https.Agent({ rejectUnauthorized: false, keepAlive: true, ca: [] });
    const proxy = options.proxy && !noProxyBypasses(url) ? options.proxy : undefined;
    const socket = proxy ? await tunnel(net, proxy, url, init.signal) : undefined;
    return await new Promise<Response>((resolve, reject) => {
      if (init.signal.aborted) return reject(init.signal.reason);
      const headers: Record<string, string> = { ...init.headers };
      const fixed = fixedBody(init.body);
      if (fixed) headers["content-length"] = String(fixed.byteLength);
      const secure = socket &&
        tls.connect({
          socket,
          rejectUnauthorized: false,
          ca: [],
          ...(net.isIP(url.hostname) ? {} : { servername: url.hostname }),
        });
      const request = https.request({
        hostname: socketHostname(url),
        port: url.port === "" ? 443 : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: init.method,
        headers,
        ...(secure
          ? { agent: false, createConnection: () => secure, rejectUnauthorized: false, ca: [] }
          : { agent: pool }),
      });
      const onAbort = () => request.destroy(init.signal.reason);
      init.signal.addEventListener("abort", onAbort, { once: true });
      request.on("close", () => init.signal.removeEventListener("abort", onAbort));
      request.on("error", (error: Error) => reject(new TypeError(error.message, { cause: error })));
      request.on("response", (message: IncomingMessage) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(message.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value]) {
            responseHeaders.append(name, item);
          }
        }
        const status = message.statusCode ?? 500;
        const nullBody = bodilessAnswer(init.method, status);
        // A tunnel serves one request: it closes with the answer.
        if (secure) message.once("close", () => secure.destroy());
        const body = nullBody ? null : Readable.toWeb(message) as ReadableStream<Uint8Array>;
        if (nullBody) message.resume();
        resolve(new Response(body, { status, headers: responseHeaders }));
      });
      writeBody(request, fixed ?? init.body, init.activity).catch((error) =>
        request.destroy(error)
      );
    });
  };
  return { fetch: fetchFn, close: () => agent?.destroy() };
}

// Opens a CONNECT tunnel through an http:// proxy to the target's host and port.
function tunnel(
  net: NodeModules["net"],
  proxy: URL,
  target: URL,
  signal: AbortSignal,
): Promise<net.Socket> {
  const authority = `${target.hostname}:${target.port === "" ? 443 : target.port}`;
  const credentials = proxyAuthorization(proxy);
  const auth = credentials === undefined ? "" : `Proxy-Authorization: ${credentials}\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(
      proxy.port === "" ? 80 : Number(proxy.port),
      socketHostname(proxy),
      () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`),
    );
    const onAbort = () => socket.destroy(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    let head = "";
    const onData = (data: Uint8Array) => {
      head += new TextDecoder().decode(data);
      if (head.length > 16_384) return fail(new Error("the proxy's answer to CONNECT is too long"));
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      signal.removeEventListener("abort", onAbort);
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
      if (status === "200") resolve(socket);
      else fail(new Error(`the proxy ${proxy.host} answered CONNECT with ${status ?? "garbage"}`));
    };
    const fail = (error: Error) => {
      socket.destroy();
      signal.removeEventListener("abort", onAbort);
      reject(new TypeError(`proxy tunnel failed: ${error.message}`, { cause: error }));
    };
    socket.on("data", onData);
    socket.on("error", fail);
  });
}

/** A body of known length, sent as it is with a `Content-Length` (no copy, no chunked framing). */
function fixedBody(body: BodyInit | null): Uint8Array | undefined {
  if (body instanceof Uint8Array) return body;
  if (typeof body === "string") return new TextEncoder().encode(body);
  return undefined;
}

// Writes the body piece by piece, waiting for `drain`, and reports each piece as activity.
async function writeBody(
  request: http.ClientRequest,
  body: BodyInit | Uint8Array | null,
  activity: (() => void) | undefined,
) {
  if (body === null) return void request.end();
  const write = async (piece: Uint8Array) => {
    if (!request.write(piece)) await new Promise((resolve) => request.once("drain", resolve));
    activity?.();
  };
  if (body instanceof Uint8Array) {
    for (let at = 0; at < body.byteLength; at += WRITE_PIECE) {
      await write(body.subarray(at, at + WRITE_PIECE));
    }
    return void request.end();
  }
  const stream = new Response(body).body;
  if (!stream) return void request.end();
  for await (const chunk of stream) await write(chunk);
  request.end();
}

/** Bytes written to a socket at a time, so each piece counts as activity for the idle timeout. */
const WRITE_PIECE = 262_144;

/** The host name to open a socket to: an IPv6 literal without its URL brackets. */
function socketHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** Whether an answer to `method` with `status` has no body (a `Response` must not get one). */
function bodilessAnswer(method: string, status: number): boolean {
  return method === "HEAD" || [101, 204, 205, 304].includes(status);
}

/** A proxy variable's value (either case) where Deno may read it; unset otherwise. */
function proxyVariable(names: readonly string[]): string | undefined {
  return names.map((name) => grantedEnv(name)?.trim()).find((value) => value);
}

/**
 * The proxy of the `verify = false` path's `https://` requests: `HTTPS_PROXY` (either case)
 * where Deno may read it (an unreadable or invalid value counts as unset there); `host:port`
 * means `http://host:port`.
 *
 * @returns The proxy, or undefined for none.
 */
export function httpsProxyFromEnv(): URL | undefined {
  const value = proxyVariable(["HTTPS_PROXY", "https_proxy"]);
  if (!value) return undefined;
  return URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`) ??
    undefined;
}

/**
 * Whether the readable NO_PROXY exempts the URL: comma-separated host names (a leading dot or
 * `*.` matches subdomains), `host:port`, or `*`.
 */
function noProxyBypasses(url: URL): boolean {
  const list = proxyVariable(["NO_PROXY", "no_proxy"]) ?? "";
  if (list === "") return false;
  const host = url.hostname.toLowerCase();
  return list.split(",").map((entry) => entry.trim().toLowerCase().replace(/^\*?\./, ".")).some(
    (entry) =>
      entry === "*" || entry === host || entry === url.host ||
      (entry.startsWith(".") && (host.endsWith(entry) || host === entry.slice(1))),
  );
}

/** The `Proxy-Authorization` value for a proxy URL with credentials (UTF-8, Basic). */
function proxyAuthorization(proxy: URL): string | undefined {
  if (proxy.username === "") return undefined;
  const user = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
  return `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(user)))}`;
}
