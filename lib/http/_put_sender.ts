/**
 * The one exception to "every request goes through Deno's fetch" (docs/decisions.md, "One wire
 * path: Deno's fetch, two exceptions"): a large byte body of a PUT (an upload's data or chunk) goes out on a fresh connection
 * of its own, written from the caller's buffer. Deno's fetch copies a `Uint8Array` body, and
 * the copies are freed only when the garbage collector gets to them, so an upload's peak memory
 * grew with the file's size. No pool, no proxy (a proxy variable set or unreadable sends the
 * request through fetch), `Connection: close`; a connection that cannot be opened, before any
 * byte is written, leaves the request to fetch, which tries every address of the host.
 *
 * @module
 */

import type { FetchFn, FetchInit } from "./_node_fetch.ts";
import { envGranted } from "./_env.ts";
import { keepMoving } from "./_idle.ts";

/** Byte bodies of a PUT from this size on go through the sender. */
export const LARGE_PUT_BYTES = 1 << 20;

/** Bytes written at a time, so each piece counts as activity for the idle timeout. */
const WRITE_PIECE = 262_144;
/** Most bytes the network buffers (both ends' sockets) can hold after the last write. */
const IN_FLIGHT_BYTES = 16 * 1_048_576;
/** Largest answer head and body read: the answer to a PUT of data is a small JSON object. */
const MAX_HEAD_BYTES = 65_536;
const MAX_ANSWER_BYTES = 1_048_576;

const PROXY_VARIABLES = [
  "HTTP_PROXY",
  "http_proxy",
  "HTTPS_PROXY",
  "https_proxy",
  "ALL_PROXY",
  "all_proxy",
];

/** Whether no proxy may apply: every proxy variable is readable and unset. */
export function noProxyConfigured(): boolean {
  return PROXY_VARIABLES.every((name) => envGranted(name) && !Deno.env.get(name)?.trim());
}

/** Whether the sender carries this request (a PUT with a large byte body). */
export function isLargePut(init: FetchInit): boolean {
  return init.method === "PUT" && init.body instanceof Uint8Array &&
    init.body.byteLength >= LARGE_PUT_BYTES;
}

/**
 * Creates the sender; `fallback` carries the request when no connection could be opened.
 *
 * @param caCerts Certificates trusted besides the system roots (the CA bundle).
 * @param fallback Deno's fetch, as the transport calls it.
 */
export function largePutSender(caCerts: string[] | undefined, fallback: FetchFn): FetchFn {
  return async (url, init) => {
    const hostname = url.hostname.replace(/^\[|\]$/g, "");
    const secure = url.protocol === "https:";
    const port = url.port === "" ? (secure ? 443 : 80) : Number(url.port);
    let conn: Deno.Conn;
    try {
      conn = secure
        ? await Deno.connectTls({ hostname, port, ...(caCerts ? { caCerts } : {}) })
        : await Deno.connect({ hostname, port });
    } catch (error) {
      if (init.signal.aborted || error instanceof Deno.errors.NotCapable) throw error;
      return await fallback(url, init);
    }
    const close = () => {
      try {
        conn.close();
      } catch { /* closed already */ }
    };
    init.signal.addEventListener("abort", close, { once: true });
    try {
      const body = init.body as Uint8Array;
      const head = [`PUT ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
      for (const [name, value] of Object.entries(init.headers)) {
        if (name !== "content-length" && name !== "connection") head.push(`${name}: ${value}`);
      }
      head.push(`content-length: ${body.byteLength}`, "connection: close", "", "");
      await writeAll(conn, new TextEncoder().encode(head.join("\r\n")));
      for (let at = 0; at < body.byteLength; at += WRITE_PIECE) {
        await writeAll(conn, body.subarray(at, at + WRITE_PIECE));
        init.activity?.();
      }
      // The last write returns once the network buffers took the rest; a slow server is still
      // reading it (megabytes at a few hundred kB/s): that counts as moving, not as waiting for
      // an answer that cannot come yet.
      const draining = init.activity
        ? keepMoving(init.activity, Math.min(body.byteLength, IN_FLIGHT_BYTES))
        : undefined;
      try {
        return await readAnswer(conn, init.activity);
      } finally {
        draining?.stop();
      }
    } catch (error) {
      throw init.signal.aborted ? init.signal.reason : error;
    } finally {
      init.signal.removeEventListener("abort", close);
      close();
    }
  };
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength;) at += await conn.write(bytes.subarray(at));
}

/** Reads one answer: head, then a body framed by Content-Length, chunks, or the end. */
async function readAnswer(conn: Deno.Conn, activity: (() => void) | undefined): Promise<Response> {
  let data: Uint8Array<ArrayBuffer> = new Uint8Array(0);
  let ended = false;
  const more = async () => {
    const piece = new Uint8Array(65_536);
    const read = await conn.read(piece);
    activity?.();
    if (read === null) return void (ended = true);
    const joined = new Uint8Array(data.byteLength + read);
    joined.set(data);
    joined.set(piece.subarray(0, read), data.byteLength);
    data = joined;
  };
  for (;;) {
    let end: number;
    while ((end = headEnd(data)) < 0) {
      if (ended) throw new TypeError("the connection closed before an answer");
      if (data.byteLength > MAX_HEAD_BYTES) throw new TypeError("the answer's head is too long");
      await more();
    }
    // Latin-1, as HTTP defines header bytes: a value with obs-text is read, not refused.
    const lines = latin1(data.subarray(0, end)).split("\r\n");
    data = data.subarray(end + 4);
    const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(lines[0] ?? "");
    if (!status) throw new TypeError(`the answer is not HTTP/1.1: '${lines[0]?.slice(0, 40)}'`);
    const code = Number(status[1]);
    const headers = new Headers();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(":");
      if (colon <= 0 || /^[ \t]/.test(line)) throw new TypeError("malformed answer header");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    // An interim answer (100 Continue) is followed by the real one; 101 is no answer to a PUT.
    if (code >= 100 && code < 200) {
      if (code === 101) throw new TypeError("the server switched protocols");
      continue;
    }
    const coding = headers.get("transfer-encoding");
    const declared = headers.get("content-length");
    const length = declared === null ? undefined : Number(declared);
    if (coding === null && length !== undefined && !/^\d+$/.test(declared!)) {
      throw new TypeError(`invalid Content-Length '${declared}'`);
    }
    if (coding !== null && coding.toLowerCase() !== "chunked") {
      throw new TypeError(`unsupported Transfer-Encoding '${coding}'`);
    }
    for (;;) {
      const body = code === 204 || code === 304
        ? new Uint8Array(0)
        : coding !== null
        ? dechunk(data)
        : length !== undefined
        ? (data.byteLength >= length ? data.subarray(0, length) : undefined)
        : (ended ? data : undefined);
      if (body !== undefined) {
        return new Response(code === 204 || code === 304 ? null : body, { status: code, headers });
      }
      if (ended) throw new TypeError("the connection closed before the answer's end");
      if (data.byteLength > MAX_ANSWER_BYTES) throw new TypeError("the answer is too long");
      await more();
    }
  }
}

function headEnd(data: Uint8Array): number {
  for (let i = 0; i + 3 < data.byteLength; i++) {
    if (data[i] === 13 && data[i + 1] === 10 && data[i + 2] === 13 && data[i + 3] === 10) return i;
  }
  return -1;
}

/** Bytes as Latin-1 text (the TextDecoder's "latin1" is windows-1252, which maps 0x80-0x9F away). */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** A chunked body decoded, or undefined while it is incomplete. */
function dechunk(data: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | undefined {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let at = 0;;) {
    const lineEnd = data.indexOf(10, at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(latin1(data.subarray(at, lineEnd)).split(";")[0]!.trim(), 16);
    if (!Number.isInteger(size) || size < 0) throw new TypeError("malformed chunked answer");
    at = lineEnd + 1;
    if (size === 0) break;
    if (data.byteLength < at + size + 2) return undefined;
    parts.push(data.subarray(at, at + size));
    at += size + 2;
  }
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}
