/**
 * Fault injection: a middleware that matches requests against {@linkcode Fault} rules and answers
 * with an error status, a redirect, a dropped connection (with or without a byte first), a delay,
 * a slow or cut body, an idle kept-alive connection closed, or a failing merge task; hostile answers (echoed headers, endless or odd JSON bodies, a self-pointing `next`),
 * slow request reading and a token-bucket rate limit.
 *
 * @module
 */
import { constants as zlibConstants, deflateRawSync } from "node:zlib";
import { HEADER } from "../http/protocol.ts";
import { errorResponse, jsonResponse } from "./_errors.ts";
import { DropConnection, responseControl } from "./_http.ts";

/** One injected fault rule. */
export interface Fault {
  /** Match method (default any). */
  method?: string;
  /** Match pathname; a string matches as substring (default any). */
  path?: string | RegExp;
  /** Match only chunk PUTs with this `Kadi-Chunk-Index`. */
  chunkIndex?: number;
  /** Fire on the nth matching request (1-based); default every matching request. */
  nth?: number;
  /** How often it fires at most (default 1 with `nth`, else unlimited). */
  times?: number;
  /** Answer with this status and an error body. */
  status?: number;
  /** With `status`: the `Retry-After` value. */
  retryAfter?: string;
  /** Close the connection without an answer; the request is not processed. */
  drop?: boolean;
  /** Process the request normally, then close the connection without an answer. */
  dropAfterProcessing?: boolean;
  /**
   * Close the connection without a byte of answer; the request is not processed (a server that
   * closed an idle kept-alive connection just as the request arrived). Clients send such a
   * request once more when the connection was a reused one; `drop` sends a broken status line
   * first, which no client sends again.
   */
  dropSilently?: boolean;
  /**
   * After the answer, close the connection once it has been idle this many milliseconds (0: at
   * once), without `Connection: close`: a server dropping idle kept-alive connections.
   */
  closeIdleAfterMs?: number;
  /**
   * For upload data (direct or chunk): store other bytes than received (the first byte
   * flipped), ignoring the `Kadi-MD5-Checksum` header, and report the stored bytes' checksum.
   */
  corruptStorage?: boolean;
  /** Process normally but cut the response body after this many bytes. */
  dropAfterBytes?: number;
  /** Stream the response body at this rate. */
  slowBodyBytesPerSecond?: number;
  /** Wait this long before processing. */
  delayMs?: number;
  /**
   * Hold the request until this promise settles, then process it: a test's gate that orders
   * events without depending on time (`delayMs` does).
   */
  waitFor?: Promise<unknown>;
  /** Answer 302 (or a 3xx `status`) with `Location` = this + original path and query. */
  redirect?: string;
  /** For an upload finish: the merge task fails with this text. */
  taskError?: string;
  /** With `status`: the error body echoes the request headers, `Authorization` included. */
  echoHeaders?: boolean;
  /** Answer `status` (default 200) with a JSON body that never ends. */
  endlessBody?: boolean;
  /** Answer 200 (or `jsonStatus`) with this JSON value instead of the real answer. */
  jsonBody?: unknown;
  /** With `jsonBody`: the answer's status. */
  jsonStatus?: number;
  /**
   * Send the answer's body gzip-compressed (`Content-Encoding: gzip`) whatever the client asked
   * for; with `endlessBody`, an endless compressed body (a decompression bomb).
   */
  gzipBody?: boolean;
  /** Paginated answers: the `next` link points back at the page itself. */
  selfNext?: boolean;
  /** Read the request body at this rate (bytes per second). */
  slowRequestBytesPerSecond?: number;
  /** Token bucket: at most this many requests per second (burst of one second); others get 429. */
  rateLimit?: number;
  /** For a file download: ignore a `Range` header and send the whole file with 200. */
  ignoreRange?: boolean;
  /**
   * Hostile data: in a JSON answer, set these fields (e.g. `identifier: "../../victim"`, `name`)
   * on the object and on each of its `items`, where the field exists.
   */
  jsonFields?: { [field: string]: unknown };
  /**
   * Hostile listings: in a paginated answer, set these fields of `_pagination` (`undefined`
   * removes one: `{ total_items: undefined, _links: {} }` is a first page that neither counts
   * the items nor links to the rest).
   */
  pagination?: { [field: string]: unknown };
}

/** Requests whose stored data a `corruptStorage` fault damages. */
export const corruptedRequests: WeakSet<Request> = new WeakSet();

/** `taskError` faults that fired, per request. */
export const taskErrors: WeakMap<Request, string> = new WeakMap();

/** Requests whose `Range` header an `ignoreRange` fault made the server ignore. */
export const rangeIgnored: WeakSet<Request> = new WeakSet();

const counters: WeakMap<Fault, { seen: number; fired: number }> = new WeakMap();
const buckets: WeakMap<Fault, { tokens: number; at: number }> = new WeakMap();

// Takes a token of the fault's bucket; returns the seconds to wait when there is none.
function rateLimited(fault: Fault, rate: number): number | undefined {
  const now = performance.now();
  const bucket = buckets.get(fault) ?? { tokens: Math.max(1, rate), at: now };
  buckets.set(fault, bucket);
  bucket.tokens = Math.min(Math.max(1, rate), bucket.tokens + (now - bucket.at) / 1000 * rate);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return undefined;
  }
  return Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
}

function endlessBody(): ReadableStream<Uint8Array> {
  const filler = new TextEncoder().encode(`"${"x".repeat(65_530)}",`);
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(started ? filler : new TextEncoder().encode('{"items":['));
      started = true;
    },
  });
}

async function pointNextAtSelf(response: Response, url: URL): Promise<Response> {
  if (!response.ok || !response.headers.get("content-type")?.includes("json")) return response;
  const body = await response.json();
  const links = body?._pagination?._links;
  if (links) links.next = url.href;
  return jsonResponse(body, response.status);
}

async function withPagination(
  response: Response,
  fields: { [field: string]: unknown },
): Promise<Response> {
  if (!response.ok || !response.headers.get("content-type")?.includes("json")) return response;
  const body = await response.json();
  const pagination = body?._pagination;
  if (pagination !== null && typeof pagination === "object") {
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) delete pagination[field];
      else pagination[field] = value;
    }
  }
  return jsonResponse(body, response.status);
}

function matches(fault: Fault, request: Request, url: URL): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== request.method) return false;
  if (fault.path !== undefined) {
    const ok = typeof fault.path === "string"
      ? url.pathname.includes(fault.path)
      : fault.path.test(url.pathname);
    if (!ok) return false;
  }
  if (fault.chunkIndex !== undefined) {
    const raw = request.headers.get(HEADER.chunkIndex)?.trim();
    if (raw === undefined || Number(raw) !== fault.chunkIndex) return false;
  }
  return true;
}

function fires(fault: Fault): boolean {
  const counter = counters.get(fault) ?? { seen: 0, fired: 0 };
  counters.set(fault, counter);
  counter.seen++;
  const times = fault.times ?? (fault.nth !== undefined ? 1 : Infinity);
  if (fault.nth !== undefined && counter.seen < fault.nth) return false;
  if (counter.fired >= times) return false;
  counter.fired++;
  return true;
}

function slowBody(body: ReadableStream<Uint8Array>, bytesPerSecond: number) {
  const step = Math.max(1, Math.floor(bytesPerSecond / 20));
  const reader = body.getReader();
  let pending: Uint8Array | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pending === null || pending.byteLength === 0) {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        pending = value;
      }
      const part = pending.subarray(0, step);
      pending = pending.subarray(part.byteLength);
      await new Promise((r) => setTimeout(r, (part.byteLength / bytesPerSecond) * 1000));
      controller.enqueue(part);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function requestWithSlowBody(request: Request, bytesPerSecond: number): Request {
  if (request.body === null) return request;
  const init: RequestInit & { duplex: string } = {
    body: slowBody(request.body, bytesPerSecond),
    duplex: "half",
  };
  return new Request(request, init);
}

/** The JSON answer with `fields` set on the object and its `items` (where present). */
async function withFields(
  response: Response,
  fields: { [field: string]: unknown },
): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("json")) return response;
  const body = await response.json() as unknown;
  const set = (value: unknown) => {
    if (typeof value !== "object" || value === null) return;
    const object = value as { [field: string]: unknown };
    for (const [field, hostile] of Object.entries(fields)) {
      if (field in object) object[field] = hostile;
    }
  };
  set(body);
  const items = typeof body === "object" && body !== null
    ? (body as { items?: unknown }).items
    : undefined;
  if (Array.isArray(items)) items.forEach(set);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify(body), { status: response.status, headers });
}

/**
 * Runs `next` under the faults that fire for this request.
 *
 * @param faults The fault rules (in order).
 * @param parsed The request's address, parsed (parsed here when not given).
 * @returns The (possibly faulted) response.
 */
export async function withFaults(
  faults: readonly Fault[],
  request: Request,
  next: (request: Request) => Promise<Response>,
  parsed?: URL,
): Promise<Response> {
  if (faults.length === 0) return await next(request);
  const url = parsed ?? new URL(request.url);
  const firing = faults.filter((f) => matches(f, request, url)).filter(fires);
  for (const fault of firing) {
    if (fault.delayMs !== undefined) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault.waitFor !== undefined) await fault.waitFor.catch(() => {});
  }
  for (const fault of firing) {
    const wait = fault.rateLimit === undefined ? undefined : rateLimited(fault, fault.rateLimit);
    if (wait !== undefined) return errorResponse(429, undefined, {}, { "retry-after": `${wait}` });
    if (fault.drop) throw new DropConnection();
    if (fault.dropSilently) throw new DropConnection(true);
    if (fault.redirect !== undefined) {
      const status = fault.status !== undefined && fault.status >= 300 && fault.status < 400
        ? fault.status
        : 302;
      const location = fault.redirect.replace(/\/$/, "") + url.pathname + url.search;
      return jsonResponse({}, status, { [HEADER.location.toLowerCase()]: location });
    }
    if (fault.endlessBody) {
      if (!firing.some((f) => f.gzipBody)) {
        return new Response(endlessBody(), { status: fault.status ?? 200 });
      }
      return new Response(endlessGzip(), {
        status: fault.status ?? 200,
        headers: { "content-encoding": "gzip" },
      });
    }
    if (fault.status !== undefined) {
      const headers: Record<string, string> = {};
      if (fault.retryAfter !== undefined) headers["retry-after"] = fault.retryAfter;
      if (!fault.echoHeaders) return errorResponse(fault.status, undefined, {}, headers);
      const echoed = Object.fromEntries(request.headers);
      const lines = Object.entries(echoed).map(([name, value]) => `${name}: ${value}`);
      return errorResponse(fault.status, `Bad request headers: ${lines.join("; ")}`, {
        headers: echoed,
      }, headers);
    }
    if (fault.jsonBody !== undefined) return jsonResponse(fault.jsonBody, fault.jsonStatus);
  }
  const slowRead = firing.find((f) => f.slowRequestBytesPerSecond !== undefined);
  const faulted = slowRead
    ? requestWithSlowBody(request, slowRead.slowRequestBytesPerSecond!)
    : request;
  // The marks go on the request the handler sees (the wrapped one, for a slow read).
  if (firing.some((f) => f.corruptStorage)) corruptedRequests.add(faulted);
  const taskError = firing.find((f) => f.taskError !== undefined)?.taskError;
  if (taskError !== undefined) taskErrors.set(faulted, taskError);
  if (firing.some((f) => f.ignoreRange)) rangeIgnored.add(faulted);
  let response = await next(faulted);
  if (firing.some((f) => f.selfNext)) response = await pointNextAtSelf(response, url);
  for (const fault of firing) {
    if (fault.jsonFields !== undefined) response = await withFields(response, fault.jsonFields);
    if (fault.pagination !== undefined) {
      response = await withPagination(response, fault.pagination);
    }
  }
  const slow = firing.find((f) => f.slowBodyBytesPerSecond !== undefined);
  if (slow && response.body !== null) {
    response = new Response(slowBody(response.body, slow.slowBodyBytesPerSecond!), response);
  }
  const cut = firing.find((f) => f.dropAfterBytes !== undefined);
  const idle = firing.find((f) => f.closeIdleAfterMs !== undefined);
  if (cut || idle) {
    responseControl.set(response, {
      ...(cut ? { dropAfterBytes: cut.dropAfterBytes! } : {}),
      ...(idle ? { closeIdleAfterMs: idle.closeIdleAfterMs! } : {}),
    });
  }
  if (firing.some((f) => f.dropAfterProcessing)) {
    await response.body?.cancel();
    throw new DropConnection();
  }
  if (firing.some((f) => f.gzipBody)) response = gzipped(response);
  return response;
}

/**
 * An endless gzip body of `x` bytes, each 64 KiB compressed alone and flushed at once (a
 * compression stream would hold its output back for megabytes of such input).
 */
function endlessGzip(): ReadableStream<Uint8Array> {
  const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  const piece = new Uint8Array(
    deflateRawSync(new Uint8Array(65_536).fill(0x78), { finishFlush: zlibConstants.Z_SYNC_FLUSH }),
  );
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(started ? piece : header);
      started = true;
    },
  });
}

/** The response with its body gzip-compressed. */
function gzipped(response: Response): Response {
  if (response.body === null) return response;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-encoding", "gzip");
  const body = response.body.pipeThrough(new CompressionStream("gzip"));
  return new Response(body, { status: response.status, headers });
}
