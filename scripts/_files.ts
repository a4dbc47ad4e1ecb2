// File helpers of the scripts: test data (benchmarks, rate-limited uploads), a file of
// incompressible bytes written one MiB at a time, each MiB stamped with a counter so that no two
// are alike; a file's SHA-256 (the demo, SHA256SUMS of the binaries); and an .eln crate whose files
// declare MIME types an import should not keep (the interop and real-server runs).

import { createHash } from "node:crypto";
import { BlobReader, BlobWriter, ZipWriter } from "@zip.js/zip.js";

/**
 * Writes `size` bytes of random-looking data to `path` and returns their MD5 (hex). `seed`
 * varies the stamps, so that files of one run differ in more than their random part.
 */
export async function writeTestFile(path: string, size: number, seed = 0): Promise<string> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const piece = crypto.getRandomValues(new Uint8Array(1 << 16));
  const block = new Uint8Array(1 << 20);
  for (let i = 0; i < block.length; i += piece.length) block.set(piece, i);
  const view = new DataView(block.buffer);
  const hash = createHash("md5");
  for (let written = 0, n = 0; written < size; n++) {
    view.setUint32(0, seed * 100_000 + n); // no two MiB alike
    const part = block.subarray(0, Math.min(block.length, size - written));
    hash.update(part);
    for (let offset = 0; offset < part.length;) offset += await file.write(part.subarray(offset));
    written += part.length;
  }
  return hash.digest("hex");
}

/** SHA-256 of a file as hex, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * An .eln crate (bytes) of one dataset named `name` with a PNG and a gzip file that declare the
 * MIME types `image/x-png` (an alias) and `application/octet-stream` (generic): an import should
 * store what the server detects, `image/png` and `application/gzip`.
 */
export async function typedEln(name: string): Promise<Uint8Array> {
  const metadata = {
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
      { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./typed/" }] },
      {
        "@id": "./typed/",
        "@type": "Dataset",
        name,
        hasPart: [{ "@id": "./typed/plot.png" }, { "@id": "./typed/raw.gz" }],
      },
      {
        "@id": "./typed/plot.png",
        "@type": "File",
        name: "plot.png",
        encodingFormat: "image/x-png",
      },
      {
        "@id": "./typed/raw.gz",
        "@type": "File",
        name: "raw.gz",
        encodingFormat: "application/octet-stream",
      },
    ],
  };
  const gzip = await new Response(
    new Blob([new TextEncoder().encode("x".repeat(64))]).stream()
      .pipeThrough(new CompressionStream("gzip")),
  ).bytes();
  const writer = new ZipWriter(new BlobWriter("application/zip"));
  const entries: [string, Uint8Array<ArrayBuffer>][] = [
    ["crate/ro-crate-metadata.json", new TextEncoder().encode(JSON.stringify(metadata))],
    ["crate/typed/plot.png", PNG],
    ["crate/typed/raw.gz", gzip],
  ];
  for (const [path, bytes] of entries) await writer.add(path, new BlobReader(new Blob([bytes])));
  return new Uint8Array(await (await writer.close()).arrayBuffer());
}

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==",
  ),
  (char) => char.charCodeAt(0),
);
