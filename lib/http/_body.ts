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
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      result = result.replaceAll(form, REDACTED);
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

/**
 * Reads a body as text, at most `maxBytes`; a longer body is cancelled after the bound.
 */
export async function readBoundedText(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<BoundedText> {
  if (body === null) return { text: "", truncated: false };
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
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
    reader.releaseLock();
  }
}
