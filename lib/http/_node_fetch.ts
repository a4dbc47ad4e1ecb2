// A fetch over node:https, used only when TLS verification is switched off (`verify = false`):
// Deno's fetch has no per-client switch for that, node:https's `rejectUnauthorized` does.
import type http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";

/** What the transport passes to a fetch implementation. */
export interface FetchInit {
  method: string;
  headers: Headers;
  body: BodyInit | null;
  signal: AbortSignal;
}

/** A fetch function as the transport uses it. */
export type FetchFn = (url: URL, init: FetchInit) => Promise<Response>;

/** Creates a fetch that skips certificate verification, with one keep-alive agent (one pool). */
export function insecureFetch(): { fetch: FetchFn; close(): void } {
  // `ca: []` keeps node:tls from loading the system roots (which needs --allow-sys=ca); with
  // verification off they are not used anyway.
  const agent = new https.Agent({ rejectUnauthorized: false, keepAlive: true, ca: [] });
  return { fetch: nodeFetch(https.request, agent), close: () => agent.destroy() };
}

type RequestFn = typeof https.request;

function nodeFetch(requestFn: RequestFn, agent: http.Agent): FetchFn {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      if (init.signal.aborted) return reject(init.signal.reason);
      const headers: Record<string, string> = {};
      init.headers.forEach((value, name) => headers[name] = value);
      const fixed = fixedBody(init.body);
      if (fixed) headers["content-length"] = String(fixed.byteLength);
      const request = requestFn(url, { method: init.method, headers, agent });
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
        const nullBody = [101, 204, 205, 304].includes(status) || init.method === "HEAD";
        const body = nullBody ? null : Readable.toWeb(message) as ReadableStream<Uint8Array>;
        if (nullBody) message.resume();
        resolve(new Response(body, { status, headers: responseHeaders }));
      });
      if (fixed) request.end(fixed);
      else writeBody(request, init.body).catch((error) => request.destroy(error));
    });
}

/** A body of known length, sent as it is with a `Content-Length` (no copy, no chunked framing). */
function fixedBody(body: BodyInit | null): Uint8Array | undefined {
  if (body instanceof Uint8Array) return body;
  if (typeof body === "string") return new TextEncoder().encode(body);
  return undefined;
}

async function writeBody(request: http.ClientRequest, body: BodyInit | null) {
  if (body === null) return void request.end();
  const stream = new Response(body).body;
  if (!stream) return void request.end();
  for await (const chunk of stream) {
    if (!request.write(chunk)) {
      await new Promise((resolve) => request.once("drain", resolve));
    }
  }
  request.end();
}
