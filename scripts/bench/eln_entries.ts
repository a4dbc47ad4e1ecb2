// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * ELN entry-count benchmark: time and peak memory (VmHWM) of a dry-run `importEln` of generated
 * archives with many empty entries: 99,990 entries all listed in the crate (accepted: the
 * per-entry cost of the directory, the crate and the plan), and 400,000 entries (refused by the
 * 100,000-entry limit from the end record). Each case runs in its own process; the archives go to
 * the temporary directory and are deleted afterwards. Prints a markdown table.
 *
 * Run: `deno run --allow-all scripts/bench/eln_entries.ts`.
 *
 * @module
 */

import { importEln } from "../../lib/import/mod.ts";
import { peakRssKb, runChild } from "./_child.ts";

interface ChildResult {
  seconds: number;
  rssKb: number;
  files: number;
  refused: string | null;
}

/** Plans the import of one archive in this (child) process and prints the result as JSON. */
async function child([path]: string[]): Promise<void> {
  const started = performance.now();
  const result: ChildResult = { seconds: 0, rssKb: 0, files: 0, refused: null };
  try {
    // A dry run sends nothing: no transport is needed.
    const { totals } = await importEln({ transport: undefined as never }, path!, { dryRun: true });
    result.files = totals.files;
  } catch (error) {
    result.refused = error instanceof Error ? error.message : String(error);
  }
  result.seconds = (performance.now() - started) / 1000;
  result.rssKb = await peakRssKb();
  console.log(JSON.stringify(result));
}

/** Writes a stored ZIP of `count` entries: the crate listing `count - 2` empty files. */
async function generateEln(path: string, count: number): Promise<void> {
  const names = Array.from({ length: count - 2 }, (_, i) => `f${i}.txt`);
  const metadata = JSON.stringify({
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
      {
        "@id": "./",
        "@type": "Dataset",
        name: "Many",
        hasPart: names.map((name) => ({ "@id": `./${name}` })),
      },
      ...names.map((name) => ({ "@id": `./${name}`, "@type": "File", name })),
    ],
  });
  const entries: [string, Uint8Array][] = [
    ["many/", new Uint8Array()],
    ["many/ro-crate-metadata.json", new TextEncoder().encode(metadata)],
    ...names.map((name): [string, Uint8Array] => [`many/${name}`, new Uint8Array()]),
  ];
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const writer = file.writable.getWriter();
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = new TextEncoder().encode(name);
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    await writer.write(new Uint8Array(local.buffer));
    await writer.write(nameBytes);
    await writer.write(data);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(8, 0x0800, true);
    header.setUint32(16, crc, true);
    header.setUint32(20, data.length, true);
    header.setUint32(24, data.length, true);
    header.setUint16(28, nameBytes.length, true);
    header.setUint32(42, offset, true);
    central.push(new Uint8Array(header.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  let directoryLength = 0;
  for (const part of central) {
    await writer.write(part);
    directoryLength += part.length;
  }
  // A count over 65,535 needs the ZIP64 end records.
  const end = new DataView(new ArrayBuffer(56 + 20 + 22));
  end.setUint32(0, 0x06064b50, true);
  end.setBigUint64(4, 44n, true);
  end.setUint16(12, 45, true);
  end.setUint16(14, 45, true);
  end.setBigUint64(24, BigInt(entries.length), true);
  end.setBigUint64(32, BigInt(entries.length), true);
  end.setBigUint64(40, BigInt(directoryLength), true);
  end.setBigUint64(48, BigInt(offset), true);
  end.setUint32(56, 0x07064b50, true);
  end.setBigUint64(64, BigInt(offset + directoryLength), true);
  end.setUint32(72, 1, true);
  end.setUint32(76, 0x06054b50, true);
  end.setUint16(84, 0xffff, true);
  end.setUint16(86, 0xffff, true);
  end.setUint32(88, 0xffffffff, true);
  end.setUint32(92, 0xffffffff, true);
  await writer.write(new Uint8Array(end.buffer));
  await writer.close();
}

function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

async function main(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "repo-apy-eln-entries-" });
  const rows: string[] = [];
  try {
    for (const count of [99_990, 400_000]) {
      const path = `${dir}/many.eln`;
      await generateEln(path, count);
      const size = (await Deno.stat(path)).size;
      const result = await runChild<ChildResult>(new URL(import.meta.url), [path]);
      rows.push(
        `| ${count} entries (${(size / 1e6).toFixed(1)} MB) | ${
          result.refused ?? `${result.files} files planned`
        } | ${result.seconds.toFixed(2)} | ${(result.rssKb / 1024).toFixed(0)} |`,
      );
      await Deno.remove(path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log("| archive | outcome | seconds | peak RSS (MiB) |");
  console.log("| --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await child(Deno.args.slice(1));
  else await main();
}
