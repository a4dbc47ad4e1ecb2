// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Transfer benchmark: repo-apy's CLI next to `curl` doing the same protocol steps, and next to
 * the Python client (`kadi-apy`) when it is on `PATH`, and next to the Python client's requests
 * sent with `niquests`, as kadi-apy 0.51.0 sends them (`_python_steps.py`, a lower bound of its
 * time) when `python3` has `niquests` (or `requests`), all against the local server: upload and
 * download of big files, 200 small files in one `add-files`, and start-up. Every client run is
 * its own process. Runs are paired: each run measures every client once, in an order that
 * rotates from run to run, after `sync` has written the previous run's data to disk, so drifting
 * machine state (disk write-back, caches) falls on every client alike. The table gives the median
 * wall time, the median of the per-run ratios to curl and to the Python client, the median client
 * CPU seconds (user + system) and the highest peak RSS (`/usr/bin/time`). repo-apy verifies every
 * byte (MD5 per chunk up, size and MD5 down); curl and the Python client verify nothing.
 *
 * Run: `deno task bench [--sizes 100,500] [--runs 3] [--only big,small,multi,list,startup]
 * [--tls] [--latency 5] [--link 1gbit/2ms] [--serial] [--concurrency 4] [--pin]` (sizes in MB; `--tls`
 * serves HTTPS with a throwaway CA, made with `openssl`; `--latency` adds a row of small files
 * with the server answering each request that many milliseconds late, next to the row on the bare
 * local server; `--link` puts a proxy with that bandwidth cap, shared by all connections, and
 * round-trip delay between the clients and the server (none: loopback); `--serial` makes the
 * server handle one request at a time; `--concurrency` passes `--concurrency` to repo-apy's `add-files`;
 * `--pin` runs the server and the proxy on CPU 0 and every client on the other CPUs, as in the field,
 * where the server does not take the client's cores).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import type { FileJson } from "../../lib/http/protocol.ts";
import { Transport } from "../../lib/http/transport.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { makeCertificates } from "../../tests/_tls.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import {
  type Client,
  curlClient,
  hasRequests,
  PYTHON_STEPS,
  pythonClient,
  pythonStepsClient,
  repoApyClient,
} from "./_clients.ts";
import {
  median,
  onPath,
  option,
  pinServerAndClients,
  type Sample,
  settle,
  summarize,
} from "./_measure.ts";
import { writeTestFile } from "../_files.ts";
import { parseLink, startLink, startSerialFront } from "./_link.ts";
import { openResource } from "../../lib/resources/resource.ts";

const MB = 1_000_000;

interface Row {
  task: string;
  client: string;
  /** One sample per run; sample i of two clients were taken in the same run (a pair). */
  samples: Sample[];
}

async function main(): Promise<void> {
  const sizes = option("sizes", "100,500").split(",").map((s) => Number(s) * MB);
  const runs = Math.max(1, Number(option("runs", "3")));
  const only = option("only", "big,small,multi,list,startup").split(",");
  const latency = Math.max(0, Number(option("latency", "0")));
  const linkOption = option("link", "");
  const link = linkOption === "" ? undefined : parseLink(linkOption);
  const serial = Deno.args.includes("--serial");
  const pinned = Deno.args.includes("--pin") ? await pinServerAndClients() : undefined;
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-bench-" }));
  const certs = Deno.args.includes("--tls") ? await makeCertificates(work) : undefined;
  await using started = await startServer({
    storageDir: `${work}/server`,
    ...(certs ? { tls: { cert: certs.cert, key: certs.key } } : {}),
  });
  if ((link || serial) && certs) throw new Error("--link and --serial take no --tls");
  // Clients reach the server through the serial front and the link, in that order.
  const front = serial ? startSerialFront(started.url) : undefined;
  const proxy = link ? startLink(front?.url ?? started.url, link) : undefined;
  const clientUrl = proxy?.url ?? front?.url ?? started.url;
  const server = { url: clientUrl, pat: started.pat, caPath: certs?.caPath };
  await using transport = new Transport({
    settings: { host: started.url, pat: started.pat, caBundle: certs?.caPath },
  });
  await Deno.mkdir(`${work}/home`);
  const concurrency = option("concurrency", "");
  const clients: Client[] = [
    await repoApyClient(server, `${work}/home`, undefined, concurrency || undefined),
    curlClient(server),
  ];
  const python = await onPath("kadi-apy");
  if (python) clients.push(await pythonClient(server, `${work}/home`, python));
  else console.log("Note: no Python client (`kadi-apy`) on PATH; its rows are skipped.");
  const python3 = await onPath("python3");
  const wire = (bytes: number) => link ? bytes * 8 / link.bitsPerSecond : undefined;
  const notes: string[] = [];
  if (python3 && await hasRequests(python3)) clients.push(pythonStepsClient(server, python3));
  else {console.log(
      "Note: no `python3` with `niquests` or `requests` on PATH; the lower-bound rows are skipped.",
    );}
  const binary = await compiledCli();
  let records = 0;
  const newRecord = () =>
    openResource(transport, RepoRecord, { identifier: `bench-${++records}`, create: true });
  // One entry per task and client, in the order first measured; run i of every client is pair i.
  const rows = new Map<string, Row>();
  const add = (task: string, client: Client, run: number, sample: Sample) => {
    const key = `${task}\u0000${client.name}`;
    const row = rows.get(key) ?? { task, client: client.name, samples: [] };
    rows.set(key, row);
    row.samples[run] = sample;
    console.error(
      `${task} ${client.name} (run ${run + 1}): ${sample.seconds.toFixed(2)} s, ` +
        `CPU ${sample.cpu.toFixed(2)} s, ${(sample.rssKb / 1024).toFixed(0)} MiB`,
    );
  };
  try {
    if (only.includes("big")) {
      for (const size of sizes) {
        const source = `${work}/data-${size / MB}MB.bin`;
        await writeTestFile(source, size);
        for (let run = 0; run < runs; run++) {
          // All uploads of a run, then all downloads: each download follows another transfer of
          // the same kind, whichever client goes first (see docs/perf/transfers.md on the
          // machine's freed memory).
          const stored: { client: Client; recordId: number; file: FileJson }[] = [];
          for (const client of rotated(clients, run)) {
            const record = await newRecord();
            await settle();
            add(`upload ${size / MB} MB`, client, run, await client.upload(record.id, source));
            const file = await fileNamed(transport, record.id, source.split("/").at(-1)!);
            if (file.size !== size) throw new Error(`${client.name} stored ${file.size} bytes`);
            stored.push({ client, recordId: record.id, file });
          }
          for (const { client, recordId, file } of stored) {
            const dir = await Deno.makeTempDir({ dir: work });
            await settle();
            add(
              `download ${size / MB} MB`,
              client,
              run,
              await client.download(recordId, file, dir),
            );
            const got = (await Deno.stat(`${dir}/${file.name}`)).size;
            if (got !== size) throw new Error(`${client.name} downloaded ${got} bytes`);
            await Deno.remove(dir, { recursive: true });
          }
          for (const { recordId, file } of stored) {
            await transport.request("DELETE", `/records/${recordId}/files/${file.id}`);
          }
        }
        await Deno.remove(source);
      }
    }
    if (only.includes("small")) {
      const folder = `${work}/small`;
      await Deno.mkdir(folder);
      for (let i = 0; i < 200; i++) {
        await Deno.writeFile(`${folder}/f${i}.bin`, crypto.getRandomValues(new Uint8Array(4096)));
      }
      for (const delayMs of latency > 0 ? [0, latency] : [0]) {
        const task = delayMs > 0
          ? `200 × 4 KB, server ${delayMs} ms per request`
          : "200 × 4 KB, one add-files";
        if (delayMs > 0) started.addFault({ delayMs });
        for (let run = 0; run < runs; run++) {
          for (const client of rotated(clients, run)) {
            const record = await newRecord();
            await settle();
            add(task, client, run, await client.addFolder(record.id, folder));
          }
        }
        started.clearFaults();
      }
    }
    if (only.includes("multi")) {
      const record = await newRecord();
      const data = crypto.getRandomValues(new Uint8Array(65_536));
      const file = new Uint8Array(MB);
      for (let at = 0; at < MB; at += data.byteLength) file.set(data.subarray(0, MB - at), at);
      for (let i = 0; i < 100; i++) {
        file[0] = i;
        const path = `${work}/m${i}.bin`;
        await Deno.writeFile(path, file);
        await record.uploadFile(path);
        await Deno.remove(path);
      }
      const seconds = wire(100 * MB);
      if (seconds) notes.push(`100 × 1 MB: the link's wire time is ${seconds.toFixed(2)} s.`);
      for (let run = 0; run < runs; run++) {
        for (const client of rotated(clients, run).filter((c) => c.downloadAll)) {
          const dir = await Deno.makeTempDir({ dir: work });
          await settle();
          add("100 × 1 MB, one get-file", client, run, await client.downloadAll!(record.id, dir));
          let count = 0;
          for await (const _ of Deno.readDir(dir)) count++;
          if (count !== 100) throw new Error(`${client.name} downloaded ${count} files`);
          await Deno.remove(dir, { recursive: true });
        }
      }
    }
    if (only.includes("list")) {
      const { _pagination } = await transport.json<{ _pagination: { total_items: number } }>(
        "GET",
        "/records",
      );
      for (let i = _pagination.total_items; i < 1000; i++) {
        await transport.json("POST", "/records", {
          json: { identifier: `list-${i}`, title: `Listed record ${i}` },
        });
      }
      for (let run = 0; run < runs; run++) {
        for (const client of rotated(clients, run).filter((c) => c.list)) {
          await settle();
          add("list 1,000 records (--jsonl)", client, run, await client.list!());
        }
      }
    }
    if (only.includes("startup")) {
      const starters = clients.filter((client) => client.start !== undefined);
      if (binary) starters.push(await repoApyClient(server, `${work}/home`, binary));
      for (const args of [["--version"], ["records", "--help"]]) {
        for (let run = 0; run < Math.max(5, runs); run++) {
          for (const client of rotated(starters, run)) {
            add(`start-up: ${args.join(" ")}`, client, run, await client.start!(args));
          }
        }
      }
    }
  } finally {
    proxy?.close();
    await front?.close();
    await started.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  console.log(
    `${link ? `Link ${link.name}` : "Loopback"}${
      serial ? ", the server handling one request at a time" : ""
    }${pinned ? `; ${pinned}` : ""}. ${notes.join(" ")}\n`,
  );
  console.log(table([...rows.values()]));
  console.log(
    `\n${runs} paired runs per case (start-up: ${Math.max(5, runs)}), each client once per run ` +
      "in a rotating order, after `sync`; local server in the benchmark " +
      `process on 127.0.0.1 (${
        certs ? "HTTPS" : "HTTP"
      }); ${navigator.hardwareConcurrency} CPUs. Time and CPU: medians; "vs" columns: medians of ` +
      "the per-run ratios; RSS: the highest peak of one client process. curl runs each step as " +
      "its own process (chunks one after another) and verifies nothing; repo-apy verifies every " +
      `byte. "${PYTHON_STEPS}" sends the Python client's requests in its order with one niquests ` +
      "session and nothing else (no CLI, no config, no output), so the Python client cannot be " +
      'faster: against it, "vs Python" is an upper bound (≤).' +
      (latency > 0
        ? ` The "server ${latency} ms per request" row delays every answer of the local server ` +
          "by that much (without using its CPU), as the request time of a real deployment does."
        : ""),
  );
}

/** The list starting at a different element each run, so no client always goes first. */
function rotated<T>(list: readonly T[], run: number): T[] {
  return list.map((_, index) => list[(index + run) % list.length] as T);
}

async function fileNamed(transport: Transport, recordId: number, name: string): Promise<FileJson> {
  const { items } = await transport.json<{ items: FileJson[] }>(
    "GET",
    `/records/${recordId}/files`,
    { query: { filter: name } },
  );
  const file = items.find((item) => item.name === name);
  if (!file) throw new Error(`no file ${name} in record ${recordId}`);
  return file;
}

/** A compiled CLI for this machine in `dist/`, when `deno task compile` made one. */
async function compiledCli(): Promise<string | undefined> {
  const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
  const target = `${Deno.build.arch}-unknown-linux-gnu`;
  const path = `${dist}repo-apy-${target}`;
  return await Deno.stat(path).then(() => path, () => undefined);
}

function table(rows: Row[]): string {
  const curl = (task: string) => rows.find((r) => r.task === task && r.client.startsWith("curl"));
  const python = (task: string) =>
    rows.find((r) => r.task === task && r.client.includes("kadi-apy (Python)"));
  const steps = (task: string) => rows.find((r) => r.task === task && r.client === PYTHON_STEPS);
  // The median of the ratios of paired runs (same run, same machine state).
  const ratio = (row: Row, base: Row | undefined) => {
    if (!base || base === row) return "";
    const ratios = row.samples.flatMap((sample, run) => {
      const other = base.samples[run];
      return other ? [sample.seconds / other.seconds] : [];
    });
    return ratios.length > 0 ? `${median(ratios).toFixed(2)}×` : "";
  };
  // Against the lower bound of the Python client's time, the ratio is an upper bound: "≤".
  const vsPython = (row: Row) => {
    if (row.client !== "repo-apy" && !row.client.startsWith("repo-apy (")) return "";
    const real = python(row.task);
    if (real) return ratio(row, real);
    const bound = steps(row.task);
    return bound ? `≤ ${ratio(row, bound)}` : "";
  };
  return [
    "| task | client | median s | vs curl | vs Python | CPU s | peak RSS MiB |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((row) => {
      const result = summarize(row.samples);
      return `| ${row.task} | ${row.client} | ${result.seconds.toFixed(2)} | ${
        ratio(row, curl(row.task))
      } | ${vsPython(row)} | ${Number.isNaN(result.cpu) ? "n/a" : result.cpu.toFixed(2)} | ${
        result.rssKb > 0 ? (result.rssKb / 1024).toFixed(0) : "n/a"
      } |`;
    }),
  ].join("\n");
}

if (import.meta.main) await main();
