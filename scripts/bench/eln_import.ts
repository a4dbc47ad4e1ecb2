// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * ELN import benchmark: time and peak memory (VmHWM) of `importEln` against the local server for
 * the whole ELN corpus (every importable file, one after another) and for a generated `.eln`
 * holding one large stored file (2 GB by default). Each case runs in its own process so its peak
 * RSS is its own; the server runs in this process. The generated archive goes to the temporary
 * directory and is deleted afterwards. Prints a markdown table.
 *
 * Run: `deno run --allow-all scripts/bench/eln_import.ts [--size-mb 2000]`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { BlobReader, configure, ZipWriter } from "@zip.js/zip.js";
import { importEln } from "../../lib/import/mod.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { peakRssKb, runChild } from "./_child.ts";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/eln/", import.meta.url));

interface ChildResult {
  seconds: number;
  rssKb: number;
  files: number;
  bytes: number;
  records: number;
  refused: number;
}

/** Imports the given files in this (child) process and prints the result as JSON. */
async function child([host, pat, ...paths]: string[]): Promise<void> {
  await using manager = new RepoManager({ host: host!, pat: pat!, timeout: 600 });
  const result: ChildResult = { seconds: 0, rssKb: 0, files: 0, bytes: 0, records: 0, refused: 0 };
  const started = performance.now();
  for (const path of paths) {
    try {
      const { totals } = await importEln(manager, path);
      result.files += totals.files;
      result.bytes += totals.bytes;
      result.records += totals.records;
    } catch {
      result.refused++;
    }
  }
  result.seconds = (performance.now() - started) / 1000;
  result.rssKb = await peakRssKb();
  console.log(JSON.stringify(result));
}

function runCase(args: string[]): Promise<ChildResult> {
  return runChild<ChildResult>(new URL(import.meta.url), args);
}

async function corpusFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await corpusFiles(path));
    else if (entry.name.endsWith(".eln")) found.push(path);
  }
  return found.sort();
}

/** Writes a crate with one stored file of `size` bytes (a repeating pattern) to `path`. */
async function generateEln(path: string, size: number): Promise<void> {
  configure({ useWebWorkers: false });
  const block = new Uint8Array(1 << 20).map((_, i) => (i * 31 + (i >> 10)) & 255);
  let sent = 0;
  const data = new ReadableStream<Uint8Array>({
    pull(controller) {
      const length = Math.min(block.byteLength, size - sent);
      if (length === 0) return controller.close();
      controller.enqueue(block.slice(0, length));
      sent += length;
    },
  });
  const metadata = JSON.stringify({
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
      { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./big/" }] },
      { "@id": "./big/", "@type": "Dataset", name: "Big", hasPart: [{ "@id": "./big/data.bin" }] },
      { "@id": "./big/data.bin", "@type": "File", name: "data.bin", contentSize: String(size) },
    ],
  });
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const writer = new ZipWriter(file.writable, {
    level: 0,
    useWebWorkers: false,
    zip64: size > 2 ** 32 - 1,
  });
  await writer.add("big/ro-crate-metadata.json", new BlobReader(new Blob([metadata])));
  await writer.add("big/big/data.bin", { readable: data, size }, { level: 0 });
  await writer.close();
}

async function main(args: string[]): Promise<void> {
  const sizeMb = Number(args[args.indexOf("--size-mb") + 1] ?? 2000) || 2000;
  await using server = await startServer();
  const rows: string[] = [];
  const corpus = await corpusFiles(CORPUS.replace(/\/$/, ""));
  const whole = await runCase([server.url, server.pat, ...corpus]);
  rows.push(
    `| ELN corpus (${corpus.length} files, ${whole.refused} refused) | ${whole.records} records, ${whole.files} files, ${
      (whole.bytes / 1e6).toFixed(1)
    } MB | ${whole.seconds.toFixed(2)} | ${(whole.rssKb / 1024).toFixed(0)} |`,
  );
  const dir = await Deno.makeTempDir({ prefix: "repo-apy-eln-bench-" });
  try {
    const path = `${dir}/big.eln`;
    const started = performance.now();
    await generateEln(path, sizeMb * 1e6);
    console.error(
      `generated ${sizeMb} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const big = await runCase([server.url, server.pat, path]);
    rows.push(
      `| generated .eln, one stored file | ${big.records} record, ${big.files} file, ${
        (big.bytes / 1e6).toFixed(0)
      } MB | ${big.seconds.toFixed(2)} | ${(big.rssKb / 1024).toFixed(0)} |`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log("| case | imported | seconds | peak RSS (MiB) |");
  console.log("| --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await child(Deno.args.slice(1));
  else await main(Deno.args);
}
