// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Transfer benchmark: upload and download throughput and peak memory of repo-apy against the
 * local server, for 100 MB and 1 GB files with 1 and 4 chunks in flight, next to `curl` running
 * the same protocol steps one after another. Each client case runs in its own process so its
 * peak RSS (VmHWM, or `/usr/bin/time` for curl) is its own. Prints a markdown table.
 *
 * Run: `deno run --allow-all scripts/bench/transfer.ts [--sizes 100,1000]` (sizes in MB).
 *
 * @module
 */

import type { FileJson, UploadJson } from "../../lib/http/protocol.ts";
import { Transport } from "../../lib/http/transport.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { RepoRecord } from "../../lib/transfer/record.ts";
import { peakRssKb, runChild } from "./_child.ts";

const MB = 1_000_000;

interface ChildResult {
  seconds: number;
  rssKb: number;
  fileId?: string;
}

interface Row {
  size: number;
  client: string;
  concurrency: string;
  upload: ChildResult;
  download: ChildResult;
}

/** Runs one client case inside the child process and prints its result as JSON. */
async function child(args: string[]): Promise<void> {
  const [op, host, pat, recordId, arg, extra] = args as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  await using transport = new Transport({ settings: { host, pat, timeout: 600 } });
  const record = new RepoRecord(transport, Number(recordId));
  const started = performance.now();
  let fileId: string | undefined;
  if (op === "upload") {
    const [name, concurrency] = extra.split(":") as [string, string];
    fileId =
      (await record.uploadFile(arg, { fileName: name, concurrency: Number(concurrency) })).id;
  } else {
    await record.downloadFile(extra, arg, { force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const result: ChildResult = { seconds, rssKb: await peakRssKb(), ...(fileId ? { fileId } : {}) };
  console.log(JSON.stringify(result));
}

function runCase(args: string[]): Promise<ChildResult> {
  return runChild<ChildResult>(import.meta.filename ?? new URL(import.meta.url).pathname, args);
}

/** Runs a command under `/usr/bin/time` and returns its stdout and peak RSS in kB. */
async function timed(cmd: string[], hasTime: boolean): Promise<{ stdout: string; rssKb: number }> {
  const marker = "__MAXRSS__";
  const args = hasTime ? ["-f", `${marker}%M`, ...cmd] : cmd.slice(1);
  const output = await new Deno.Command(hasTime ? "/usr/bin/time" : cmd[0] as string, {
    args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${cmd.join(" ")} failed: ${stderr}`);
  const rssKb = Number(new RegExp(`${marker}(\\d+)`).exec(stderr)?.[1] ?? 0);
  return { stdout: new TextDecoder().decode(output.stdout), rssKb };
}

/** The upload protocol with one curl process per step, sequentially, as a shell script would. */
async function curlUpload(
  base: string,
  pat: string,
  recordId: number,
  path: string,
  name: string,
  hasTime: boolean,
): Promise<ChildResult> {
  const auth = `Authorization: Bearer ${pat}`;
  const size = (await Deno.stat(path)).size;
  let rssKb = 0;
  const curl = async (args: string[]) => {
    const result = await timed(["curl", "-sS", "--fail", "-H", auth, ...args], hasTime);
    rssKb = Math.max(rssKb, result.rssKb);
    return result.stdout;
  };
  const started = performance.now();
  const upload: UploadJson = JSON.parse(
    await curl([
      "-X",
      "POST",
      "-H",
      "Content-Type: application/json",
      "--data",
      JSON.stringify({ name, size }),
      `${base}/records/${recordId}/uploads`,
    ]),
  );
  const target = upload._actions.upload_data as string;
  let file: FileJson;
  if (upload.upload_type === "direct") {
    file = JSON.parse(await curl(["-X", "PUT", "--data-binary", `@${path}`, target]));
  } else {
    const chunk = upload._meta.chunk_size;
    for (let index = 0; index < upload.chunk_count; index++) {
      const length = Math.min(chunk, size - index * chunk);
      const script =
        `dd if='${path}' bs=${chunk} skip=${index} count=1 iflag=fullblock status=none | ` +
        `curl -sS --fail -o /dev/null -X PUT -H '${auth}' -H 'Kadi-Chunk-Index: ${index}' ` +
        `-H 'Kadi-Chunk-Size: ${length}' -H 'Content-Type: application/octet-stream' ` +
        `--data-binary @- '${target}'`;
      const result = await timed(["sh", "-c", script], hasTime);
      rssKb = Math.max(rssKb, result.rssKb);
    }
    let current: UploadJson = JSON.parse(
      await curl(["-X", "POST", upload._actions.finish as string]),
    );
    let delay = 100;
    while (!current._meta.task?.file) {
      if (current._meta.task?.error) throw new Error(current._meta.task.error);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(2000, delay * 2);
      current = JSON.parse(await curl([upload._links.self as string]));
    }
    file = current._meta.task.file;
  }
  return { seconds: (performance.now() - started) / 1000, rssKb, fileId: file.id };
}

async function curlDownload(
  base: string,
  pat: string,
  recordId: number,
  fileId: string,
  out: string,
  hasTime: boolean,
): Promise<ChildResult> {
  const started = performance.now();
  const { rssKb } = await timed([
    "curl",
    "-sS",
    "--fail",
    "-H",
    `Authorization: Bearer ${pat}`,
    "-o",
    out,
    `${base}/records/${recordId}/files/${fileId}/download`,
  ], hasTime);
  return { seconds: (performance.now() - started) / 1000, rssKb };
}

async function writeTestFile(path: string, size: number): Promise<void> {
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const block = crypto.getRandomValues(new Uint8Array(1 << 16));
  const piece = new Uint8Array(1 << 20);
  for (let i = 0; i < piece.length; i += block.length) piece.set(block, i);
  const view = new DataView(piece.buffer);
  for (let written = 0, n = 0; written < size; n++) {
    view.setUint32(0, n);
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    for (let offset = 0; offset < part.length;) offset += await file.write(part.subarray(offset));
    written += part.length;
  }
}

function mbps(size: number, seconds: number): string {
  return (size / MB / seconds).toFixed(0);
}

function mib(kb: number): string {
  return kb > 0 ? (kb / 1024).toFixed(0) : "n/a";
}

async function main(): Promise<void> {
  const sizesArg = Deno.args.indexOf("--sizes");
  const sizes = (sizesArg >= 0 ? Deno.args[sizesArg + 1] ?? "" : "100,1000")
    .split(",").map((s) => Number(s) * MB);
  const hasTime = await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const work = await Deno.makeTempDir({ prefix: "repo-apy-bench-" });
  await using server = await startServer({ storageDir: `${work}/server` });
  const base = `${server.url}/api/v1`;
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const record = await RepoRecord.load(transport, { identifier: "bench", create: true });
  const rows: Row[] = [];
  try {
    for (const size of sizes) {
      const source = `${work}/source-${size}.bin`;
      const out = `${work}/out.bin`;
      await writeTestFile(source, size);
      for (const concurrency of [1, 4]) {
        const name = `repo-apy-${size}-c${concurrency}.bin`;
        const upload = await runCase([
          "upload",
          server.url,
          server.pat,
          String(record.id),
          source,
          `${name}:${concurrency}`,
        ]);
        const download = await runCase([
          "download",
          server.url,
          server.pat,
          String(record.id),
          out,
          upload.fileId as string,
        ]);
        await Deno.remove(out);
        rows.push({ size, client: "repo-apy", concurrency: String(concurrency), upload, download });
      }
      const upload = await curlUpload(
        base,
        server.pat,
        record.id,
        source,
        `curl-${size}.bin`,
        hasTime,
      );
      const download = await curlDownload(
        base,
        server.pat,
        record.id,
        upload.fileId as string,
        out,
        hasTime,
      );
      await Deno.remove(out);
      rows.push({ size, client: "curl (sequential)", concurrency: "1", upload, download });
      await Deno.remove(source);
    }
  } finally {
    await server.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  const lines = [
    "| size | client | chunks in flight | upload MB/s | upload peak RSS (MiB) | download MB/s | download peak RSS (MiB) |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((row) =>
      `| ${row.size / MB} MB | ${row.client} | ${row.concurrency} | ${
        mbps(row.size, row.upload.seconds)
      } | ${mib(row.upload.rssKb)} | ${mbps(row.size, row.download.seconds)} | ${
        mib(row.download.rssKb)
      } |`
    ),
  ];
  console.log(lines.join("\n"));
  console.log(
    `\nLocal server in the benchmark process on 127.0.0.1; ${navigator.hardwareConcurrency} CPUs. ` +
      "repo-apy sends a Kadi-MD5-Checksum per chunk (curl does not). " +
      "Peak RSS: VmHWM of the repo-apy process; for curl the largest single process (/usr/bin/time).",
  );
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await child(Deno.args.slice(1));
  else await main();
}
