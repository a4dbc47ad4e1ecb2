// Reading an HTTP/1.1 answer from a connection for the raw client (_raw_fetch.ts), through its
// reader (_conn_reader.ts): the head is parsed from a small bounded buffer; the body is handed
// over whole when it already arrived, or is a byte stream that reads from the connection straight
// into the consumer's buffer (BYOB), framed by Content-Length, chunked encoding or the end of the
// connection. What arrives while a piece is gathered passes through a small buffer;
// nothing grows with the body's size.
import { bodilessAnswer } from "./_connect.ts";
import type { ConnReader } from "./_conn_reader.ts";

/** Piece size of reads without a buffer of the consumer's (default readers). */
const READ_SIZE = 64 * 1024;
/**
 * A piece handed on is gathered from several reads up to this size, for at most `GATHER_MS`:
 * TLS hands over one record (16 KB) per read, and every piece costs its consumer a hash update,
 * a write and a progress report.
 */
const GATHER_BYTES = 256 * 1024;
const GATHER_MS = 20;

/** An answer's status line and headers. */
export interface AnswerHead {
  status: number;
  statusText: string;
  /**
   * Header fields in order, names in lower case, values trimmed: checked only when they are put
   * into the `Response` (its constructor copying a `Headers` object costs twice as much).
   */
  fields: [string, string][];
  /**
   * Whether the server keeps the connection open after this answer: HTTP/1.1 without
   * `Connection: close`, or HTTP/1.0 with `Connection: keep-alive`.
   */
  persistent: boolean;
}

/**
 * Reads the head of the final answer, skipping 1xx interim answers.
 *
 * @param reader The connection's reader.
 * @returns Status and headers.
 * @throws {TypeError} For anything that is not an HTTP/1.x answer.
 */
export async function readHead(reader: ConnReader): Promise<AnswerHead> {
  for (;;) {
    const [statusLine = "", ...headerLines] = (await reader.head()).split("\r\n");
    const match = /^HTTP\/1\.([01]) ([1-5]\d\d)(?: (.*))?$/.exec(statusLine);
    if (!match) throw new TypeError(`Invalid HTTP answer: ${statusLine.slice(0, 80)}`);
    const status = Number(match[2]);
    if (status < 200) continue;
    const fields: [string, string][] = [];
    for (const line of headerLines) {
      const colon = line.indexOf(":");
      if (colon > 0) {
        fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
      }
    }
    const head = { status, statusText: match[3] ?? "", fields, persistent: false };
    const connection = headerValue(head, "connection")?.toLowerCase() ?? "";
    head.persistent = match[1] === "1"
      ? !/(^|,)\s*close\s*(,|$)/.test(connection)
      : /(^|,)\s*keep-alive\s*(,|$)/.test(connection);
    return head;
  }
}

/**
 * A header's value as `Headers.get()` gives it (several fields joined with `, `), or null.
 *
 * @param head The answer's head.
 * @param name The name in lower case.
 * @returns The value.
 */
export function headerValue(head: AnswerHead, name: string): string | null {
  let value: string | null = null;
  for (const [field, text] of head.fields) {
    if (field === name) value = value === null ? text : `${value}, ${text}`;
  }
  return value;
}

/**
 * The `Response` of an answer: its status and header fields (checked here, as `Headers` does),
 * with `content` as its body. A header field that is not valid fails the answer and cancels the
 * body (which closes the connection).
 *
 * @param head The answer's head.
 * @param content The body from {@linkcode answerBody}.
 * @returns The response.
 */
export function answerResponse(
  head: AnswerHead,
  content: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | null,
): Response {
  const response = new Response(content, { status: head.status, statusText: head.statusText });
  const { headers } = response;
  try {
    for (const [name, value] of head.fields) headers.append(name, value);
  } catch (error) {
    response.body?.cancel().catch(() => {});
    throw error;
  }
  return response;
}

/** How the end of a body is found. */
type Framing =
  | { kind: "length"; remaining: number }
  | { kind: "chunked"; left: number; started: boolean }
  | { kind: "close" };

/**
 * The body of an answer: null for a bodiless one; the bytes themselves when the whole body (of a
 * declared length, not encoded) is already buffered, which is most small answers (no stream, no
 * read more); otherwise a byte stream read from the connection. `done` runs once when the body
 * ended, failed or was cancelled, with `clean` true only when it was read to its framed end
 * (length or last chunk; never "until the connection closes"): the connection may then carry
 * another request. `activity` runs whenever bytes arrived.
 *
 * @param reader The connection's reader, positioned after the head.
 * @param method The request's method (HEAD answers have no body).
 * @param head The answer's head.
 * @param done Called once at the body's end.
 * @param activity Called for every read that brought bytes (the idle timer).
 * @returns The body.
 * @throws {TypeError} For an invalid Content-Length or an unsupported Content-Encoding.
 */
export function answerBody(
  reader: ConnReader,
  method: string,
  head: AnswerHead,
  done: (clean: boolean) => void,
  activity?: () => void,
): ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | null {
  const length = headerValue(head, "content-length");
  const chunked = /chunked/i.test(headerValue(head, "transfer-encoding") ?? "");
  if (!chunked && length !== null && !/^\d{1,15}$/.test(length.trim())) {
    throw new TypeError(`Invalid Content-Length ${length.slice(0, 20)}`);
  }
  const framing: Framing = chunked
    ? { kind: "chunked", left: 0, started: false }
    : length !== null
    ? { kind: "length", remaining: Number(length) }
    : { kind: "close" };
  if (bodilessAnswer(method, head.status) || (framing.kind === "length" && !framing.remaining)) {
    done(true);
    return null;
  }
  const encoding = (headerValue(head, "content-encoding") ?? "identity").trim().toLowerCase();
  const format = encoding === "gzip" || encoding === "x-gzip"
    ? "gzip"
    : encoding === "deflate"
    ? "deflate"
    : undefined;
  if (format === undefined && encoding !== "identity") {
    done(false);
    throw new TypeError(`Unsupported Content-Encoding ${encoding.slice(0, 20)}`);
  }
  if (framing.kind === "length" && format === undefined) {
    const whole = reader.take(framing.remaining);
    if (whole !== undefined) {
      activity?.();
      done(true);
      return whole;
    }
  }
  let finished = false;
  const finish = (clean: boolean) => {
    if (finished) return;
    finished = true;
    done(clean && framing.kind !== "close");
  };
  const body = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: READ_SIZE,
    async pull(controller) {
      // autoAllocateChunkSize guarantees a request (the consumer's buffer or a fresh one).
      const request = controller.byobRequest as ReadableStreamBYOBRequest;
      const view = request.view as Uint8Array;
      try {
        const count = await gather(reader, framing, view, activity);
        if (count === null) {
          finish(true);
          controller.close();
          request.respond(0);
          return;
        }
        request.respond(count);
        if (framing.kind === "length" && framing.remaining === 0) {
          finish(true);
          controller.close();
        }
      } catch (error) {
        finish(false);
        controller.error(error);
      }
    },
    cancel() {
      finish(false);
    },
  });
  return format ? body.pipeThrough(new DecompressionStream(format)) : body;
}

/** Reads the next body bytes into `view`, several reads up to `GATHER_BYTES`; null at the end. */
async function gather(
  reader: ConnReader,
  framing: Framing,
  view: Uint8Array,
  activity: (() => void) | undefined,
): Promise<number | null> {
  const started = performance.now();
  let count = await readBody(reader, framing, view);
  if (count === null) return null;
  // Only within what the framing promises, so a read never waits past the body's end.
  const more = () =>
    framing.kind === "close" ||
    (framing.kind === "length" ? framing.remaining > 0 : framing.left > 0);
  while (count < GATHER_BYTES && count < view.byteLength && more()) {
    const left = GATHER_MS - (performance.now() - started);
    // A read that does not bring bytes in time stays in flight: this piece goes on without it.
    if (left <= 0 || (await reader.ready(left)) !== "data") break;
    activity?.();
    const next = await readBody(reader, framing, view.subarray(count));
    if (next === null) break;
    count += next;
  }
  activity?.();
  return count;
}

/** Reads the next body bytes into `view`; null at the body's end. */
async function readBody(
  reader: ConnReader,
  framing: Framing,
  view: Uint8Array,
): Promise<number | null> {
  if (framing.kind === "close") return await reader.readInto(view);
  if (framing.kind === "length") {
    const count = await reader.readInto(
      view.subarray(0, Math.min(view.byteLength, framing.remaining)),
    );
    if (count === null) {
      throw new TypeError(
        `The connection closed ${framing.remaining} bytes before the answer's end`,
      );
    }
    framing.remaining -= count;
    return count;
  }
  if (framing.left === 0) {
    if (framing.started) await reader.line(); // the CRLF after the previous chunk
    framing.started = true;
    const size = (await reader.line()).split(";")[0]?.trim() ?? "";
    if (!/^[0-9a-f]{1,12}$/i.test(size)) throw new TypeError("Invalid chunk size in the answer");
    framing.left = parseInt(size, 16);
    if (framing.left === 0) {
      while ((await reader.line()) !== ""); // trailers
      return null;
    }
  }
  const count = await reader.readInto(view.subarray(0, Math.min(view.byteLength, framing.left)));
  if (count === null) throw new TypeError("The connection closed within a chunk of the answer");
  framing.left -= count;
  return count;
}
