/**
 * Serves a `(Request) => Promise<Response>` handler over `node:http`/`node:https`, which (unlike
 * `Deno.serve`) lets a fault drop the TCP connection before any answer, or cut a response body.
 *
 * @module
 */
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";

/** Thrown by a handler to close the connection without answering. */
export class DropConnection extends Error {
  /**
   * Whether the connection closes without a byte (a server closing an idle kept-alive
   * connection as the request arrives); otherwise a broken status line goes first.
   */
  readonly silent: boolean;

  /**
   * Creates the signal.
   */
  constructor(silent = false) {
    super("connection dropped by fault");
    this.name = "DropConnection";
    this.silent = silent;
  }
}

/**
 * The whole body of a response built from bytes (JSON answers): written with the head in one
 * call instead of being read back from the response's stream.
 */
export const responseBytes: WeakMap<Response, Uint8Array> = new WeakMap();

/** Per-response transport instructions (set by the fault middleware). */
export const responseControl: WeakMap<
  Response,
  { dropAfterBytes?: number; closeIdleAfterMs?: number }
> = new WeakMap();

/** Live facts about one request, updated while its body streams in. */
export interface RequestMeta {
  /** Request body bytes read so far. */
  bodyBytes: number;
  /** The request's address, parsed (the same as `request.url`). */
  url?: URL;
  /** Called once when the request body ended or broke. */
  onBodyEnd?: (bytes: number) => void;
}

/** A request handler. */
export type Handler = (request: Request, meta: RequestMeta) => Promise<Response>;

/** A running listener. */
export interface Listener {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Options of {@linkcode listen}. */
export interface ListenOptions {
  hostname: string;
  port: number;
  tls?: { cert: string; key: string } | undefined;
}

function requestBody(req: http.IncomingMessage, meta: RequestMeta): ReadableStream<Uint8Array> {
  let done = false;
  const finish = () => {
    if (!done) {
      done = true;
      meta.onBodyEnd?.(meta.bodyBytes);
    }
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      req.on("data", (chunk: Uint8Array) => {
        meta.bodyBytes += chunk.byteLength;
        if (done) return;
        controller.enqueue(chunk);
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.on("end", () => {
        if (done) return;
        finish();
        controller.close();
      });
      const broken = () => {
        if (done) return;
        finish();
        controller.error(new TypeError("request body broken: the client closed the connection"));
      };
      req.on("error", broken);
      req.on("aborted", broken);
      req.on("close", () => {
        if (!req.complete) broken();
      });
    },
    pull() {
      req.resume();
    },
    cancel() {
      done = true;
      req.resume();
    },
  }, { highWaterMark: 8 });
}

/** A `Host` header that can only name a host and port (no path, query, user or fragment). */
const PLAIN_HOST = /^[A-Za-z0-9.\-]+(?::\d+)?$|^\[[0-9A-Fa-f:.]+\](?::\d+)?$/;

const TAB_OR_NEWLINE = /[\t\n\r]/;

/**
 * The request's headers for `new Request()`: node's header object as it is (a record converts
 * several times faster than a `Headers` object), unless a header came as a list.
 */
function requestHeaders(req: http.IncomingMessage): HeadersInit {
  const record = req.headers;
  for (const name in record) {
    if (typeof record[name] === "string") continue;
    const headers = new Headers();
    for (const [name, value] of Object.entries(record)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    return headers;
  }
  return record as Record<string, string>;
}

function toRequest(req: http.IncomingMessage, origin: string, meta: RequestMeta): Request {
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const host = req.headers.host ?? new URL(origin).host;
  const base = `${origin.slice(0, origin.indexOf("://"))}://${host}`;
  const init: RequestInit & { duplex?: string } = { method, headers: requestHeaders(req) };
  if (hasBody) {
    init.body = requestBody(req, meta);
    init.duplex = "half";
  } else {
    req.resume();
    meta.onBodyEnd?.(0);
  }
  const target = req.url ?? "/";
  // One string to parse is cheaper than a path and a base, and means the same for an origin-form
  // target (`/path?query`) below a plain host; `//x` and `/\x` are scheme-relative instead (also
  // once the parser has dropped tabs and line breaks, which it does anywhere).
  const second = target[1];
  const plain = target[0] === "/" && second !== "/" && second !== "\\" &&
    !TAB_OR_NEWLINE.test(target);
  const url = plain && PLAIN_HOST.test(host) ? new URL(base + target) : new URL(target, base);
  meta.url = url;
  return new Request(url.href, init);
}

/** Largest unread request body that is drained (instead of closing the connection). */
const DRAIN_LIMIT = 64_000_000;

/**
 * Discards the unread rest of a request body before answering, so the connection can be reused
 * (clients may otherwise send the next request into the unread body). Returns false when the
 * connection must close instead.
 */
async function settleBody(
  req: http.IncomingMessage,
  request: Request,
  meta: RequestMeta,
): Promise<boolean> {
  if (req.complete || request.body === null) return true;
  const length = Number(req.headers["content-length"] ?? Number.NaN);
  if (request.body.locked || length > DRAIN_LIMIT) return false;
  const start = meta.bodyBytes;
  await request.body.cancel().catch(() => {});
  return await new Promise<boolean>((resolve) => {
    const check = () => {
      if (req.complete) return finish(true);
      if (req.destroyed || meta.bodyBytes - start > DRAIN_LIMIT) return finish(false);
    };
    const finish = (ok: boolean) => {
      req.off("data", check);
      req.off("end", check);
      req.off("close", check);
      resolve(ok);
    };
    req.on("data", check);
    req.on("end", check);
    req.on("close", check);
    check();
  });
}

async function writeResponse(
  response: Response,
  res: http.ServerResponse,
  socket: Socket,
): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  const dropAfter = responseControl.get(response)?.dropAfterBytes;
  if (response.body === null) {
    if (dropAfter !== undefined) {
      socket.destroy();
      return;
    }
    res.end();
    return;
  }
  const whole = responseBytes.get(response);
  if (whole !== undefined && dropAfter === undefined && !response.body.locked) {
    res.end(whole);
    return;
  }
  const reader = response.body.getReader();
  let closed = false;
  res.on("close", () => {
    if (!res.writableFinished) {
      closed = true;
      reader.cancel().catch(() => {});
    }
  });
  let written = 0;
  try {
    while (!closed) {
      const { value, done } = await reader.read();
      if (done) break;
      if (dropAfter !== undefined && written + value.byteLength >= dropAfter) {
        const part = value.subarray(0, Math.max(0, dropAfter - written));
        if (part.byteLength > 0) res.write(part);
        await new Promise((r) => setTimeout(r, 20));
        reader.cancel().catch(() => {});
        socket.destroy();
        return;
      }
      written += value.byteLength;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
  } catch {
    socket.destroy();
    return;
  }
  if (dropAfter !== undefined) {
    await new Promise((r) => setTimeout(r, 20));
    socket.destroy();
    return;
  }
  if (!closed) res.end();
}

/**
 * Closes a kept-alive connection once no request has been in progress on it for `ms`, without
 * announcing it (no `Connection: close`), as servers drop idle connections.
 */
function closeWhenIdle(socket: Socket, ms: number, inProgress: () => number): void {
  const check = () => {
    if (inProgress() === 0) socket.destroy();
  };
  if (ms <= 0) return check();
  const timer = setTimeout(check, ms);
  socket.once("close", () => clearTimeout(timer));
}

/**
 * Serves `handler` on `hostname:port` (HTTPS when `tls` is given).
 */
export async function listen(handler: Handler, options: ListenOptions): Promise<Listener> {
  const scheme = options.tls ? "https" : "http";
  let origin = "";
  // Requests in progress per connection (an idle close waits for none).
  const busy = new WeakMap<Socket, number>();
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    res.once("close", () => busy.set(socket, (busy.get(socket) ?? 1) - 1));
    const meta: RequestMeta = { bodyBytes: 0 };
    const request = toRequest(req, origin, meta);
    handler(request, meta).then(
      async (response) => {
        if (!(await settleBody(req, request, meta))) res.setHeader("connection", "close");
        const idleClose = responseControl.get(response)?.closeIdleAfterMs;
        if (idleClose !== undefined) {
          // After the "close" that counts this request done (listeners run in order).
          res.once("close", () => closeWhenIdle(socket, idleClose, () => busy.get(socket) ?? 0));
        }
        await writeResponse(response, res, socket);
        if (!req.complete) {
          req.resume();
          res.once("finish", () => socket.destroySoon());
        }
      },
      (error) => {
        // Deno's fetch and the copy-free client send a request once more when a reused
        // connection closes before any answer (a silent drop), so a plain close would go
        // unnoticed. An invalid status line followed by a close is never sent again: the client
        // sees a network error (TypeError) every time.
        if (error instanceof DropConnection && !error.silent && socket.writable) {
          socket.write("DROPPED\r\n\r\n", () => socket.destroy());
        } else socket.destroy();
      },
    );
  };
  const server = options.tls
    ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, onRequest)
    : http.createServer(onRequest);
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.hostname.includes(":") ? `[${options.hostname}]` : options.hostname;
  origin = `${scheme}://${host}:${port}`;
  return {
    url: origin,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
