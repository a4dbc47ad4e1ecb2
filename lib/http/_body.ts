// Reading answers with a bound, and scrubbing secrets from what the server sent back.

/** Replacement of a secret in texts the server sent. */
export const REDACTED = "REDACTED";

/**
 * Replaces every occurrence of the secrets (as is and URL-encoded) with `REDACTED`. Secrets
 * shorter than 4 characters are ignored: they would match ordinary text.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    // Every answer goes through here: the usual case (no secret in it) costs one search.
    if (result.includes(secret)) result = result.replaceAll(secret, REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && result.includes(encoded)) {
      result = result.replaceAll(encoded, REDACTED);
    }
  }
  return result;
}

/** Copies headers with every secret in their values redacted. */
export function redactHeaders(headers: Headers, secrets: readonly string[]): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => copy.append(name, redactSecrets(value, secrets)));
  return copy;
}

/** What {@linkcode readBoundedText} returns. */
export interface BoundedText {
  text: string;
  /** Whether the body was longer than the bound (and cut there). */
  truncated: boolean;
}

/** Hooks around each read of {@linkcode readBoundedText} (the transport's idle timer). */
export interface ReadWatch {
  /** Before a read. */
  before(): void;
  /** After a read, whether it succeeded or not. */
  after(): void;
  /** The error to throw for a failed read. */
  failed(cause: unknown): unknown;
  /** Once, when reading is over (end, bound reached, failure). */
  end(): void;
}

/** Answers up to this declared size are read in one call by {@linkcode readAnswerText}. */
const WHOLE_READ_BYTES = 16_384;

/**
 * Reads an answer's body as text, at most `maxBytes`. A body of a small declared length
 * (Content-Length, no Content-Encoding, no Transfer-Encoding) within the bound is read in one
 * call: Deno reads a fetched body of known length in one operation, cheaper than piece by
 * piece, and the length bounds it (the HTTP client reads no byte beyond it). A
 * Transfer-Encoding overrides the Content-Length (RFC 9112 6.3; the HTTP client reads such a
 * body to its end), so the length bounds nothing then. Any other body goes through
 * {@linkcode readBoundedText}.
 */
export async function readAnswerText(
  response: Response,
  maxBytes: number,
  watch?: ReadWatch,
): Promise<BoundedText> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  const small = Number.isInteger(declared) && declared >= 0 &&
    declared <= Math.min(maxBytes, WHOLE_READ_BYTES) &&
    (response.headers.get("content-encoding") ?? "identity") === "identity" &&
    !response.headers.has("transfer-encoding");
  if (!small) return await readBoundedText(response.body, maxBytes, watch, declared);
  watch?.before();
  try {
    return { text: await response.text(), truncated: false };
  } catch (error) {
    throw watch ? watch.failed(error) : error;
  } finally {
    watch?.after();
    watch?.end();
  }
}

/** Size of the one buffer {@linkcode readBoundedText} reads into (when the body allows it). */
const TEXT_READ_SIZE = 16_384;

/**
 * Reads a body as text, at most `maxBytes`; a longer body is cancelled after the bound. A byte
 * stream (the transport's bodies) is read into one reused buffer, so a small answer costs one
 * small allocation instead of a buffer per read; `sizeHint` (the Content-Length) sizes it.
 */
export async function readBoundedText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  watch?: ReadWatch,
  sizeHint?: number,
): Promise<BoundedText> {
  if (body === null) {
    watch?.end();
    return { text: "", truncated: false };
  }
  const byob = byobReader(body);
  const plain = byob ? undefined : body.getReader();
  const reader = byob ?? plain!;
  // A known small length (most JSON answers) needs no bigger buffer; the read after the last
  // byte finds the end either way.
  const hint = sizeHint ?? Number.NaN;
  const size = Number.isInteger(hint) && hint >= 1 && hint < TEXT_READ_SIZE ? hint : TEXT_READ_SIZE;
  let buffer = new Uint8Array(byob ? size : 0);
  const read = async (): Promise<ReadableStreamReadResult<Uint8Array>> => {
    watch?.before();
    try {
      if (plain) return await plain.read();
      const result = await byob!.read(buffer);
      // The read moved the buffer into `value`: the next read goes into it again.
      if (result.value) buffer = new Uint8Array(result.value.buffer);
      return result;
    } catch (error) {
      throw watch ? watch.failed(error) : error;
    } finally {
      watch?.after();
    }
  };
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await read();
      if (done) return { text: text + decoder.decode(), truncated: false };
      const room = maxBytes - bytes;
      bytes += value.byteLength;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, Math.max(0, room)));
        await reader.cancel().catch(() => {});
        return { text, truncated: true };
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    watch?.end();
    reader.releaseLock();
  }
}

function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | undefined {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return undefined;
  }
}
