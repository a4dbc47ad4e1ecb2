// The local server's magic MIME type: the byte scan for control characters answers what decoding
// the first bytes and scanning the text answered (the implementation before it, kept here).
import { assertEquals } from "../_assert.ts";
import { sniffMimetype } from "../../lib/testing/_storage.ts";

/** `sniffMimetype` as it was: decode, then look for control characters in the text. */
function decodingSniff(head: Uint8Array): string {
  const bytes = head.subarray(0, 512);
  const n = bytes.byteLength;
  if (n === 0) return "application/x-empty";
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return "image/png";
  if (starts(0x25, 0x50, 0x44, 0x46)) return "application/pdf";
  if (starts(0x50, 0x4b, 0x03, 0x04)) return "application/zip";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x1f, 0x8b)) return "application/gzip";
  try {
    const whole = n < 512;
    const text = new TextDecoder("utf-8", { fatal: whole }).decode(
      whole ? bytes : bytes.subarray(0, n - 4),
    );
    if (whole && /^\s*[{[]/.test(text)) {
      try {
        JSON.parse(text);
        return "application/json";
      } catch { /* plain text */ }
    }
    const binary = Array.from(text).some((ch) => {
      const code = ch.charCodeAt(0);
      return code < 9 || (code > 13 && code < 32);
    });
    return binary ? "application/octet-stream" : "text/plain";
  } catch {
    return "application/octet-stream";
  }
}

/** A deterministic pseudo-random generator (xorshift), so a failure repeats. */
function generator(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

Deno.test("sniffMimetype() answers as decoding did, for text, JSON, UTF-8, control bytes and noise", () => {
  const encoder = new TextEncoder();
  const fixed = [
    "",
    "hello\tworld\r\n",
    '{"a": [1, 2]}',
    '  [1, "\u00e9"]\n',
    '{"a": "\u0001"}',
    "bell \u0007 here",
    "form\ffeed and vertical\vtab",
    "\u00e9\u4e2d\u{1f600}".repeat(40),
    "x".repeat(600),
    `${"y".repeat(510)}\u00e9`,
  ].map((t) => encoder.encode(t));
  const random = generator(0x5eed);
  const pieces = [encoder.encode("\u00e9"), encoder.encode("\u{1f600}"), encoder.encode('{"k":')];
  const samples = [...fixed];
  for (let i = 0; i < 3000; i++) {
    const length = Math.floor(random() * 600);
    const out: number[] = [];
    const mode = i % 3;
    while (out.length < length) {
      const r = random();
      if (mode === 0) out.push(Math.floor(r * 256));
      else if (mode === 1 && r < 0.05) out.push(...pieces[Math.floor(r * 60)]!);
      else if (r < 0.002) out.push(Math.floor(random() * 32));
      else if (r < 0.004) out.push(0x80 + Math.floor(random() * 128));
      else out.push(32 + Math.floor(random() * 95));
    }
    samples.push(new Uint8Array(out.slice(0, length)));
  }
  const seen = new Set<string>();
  for (const [i, sample] of samples.entries()) {
    seen.add(decodingSniff(sample));
    assertEquals(sniffMimetype(sample), decodingSniff(sample), `sample ${i}`);
  }
  // Every answer but the signatures' came up.
  assertEquals([...seen].sort(), [
    "application/json",
    "application/octet-stream",
    "application/x-empty",
    "text/plain",
  ]);
});
