// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Transfer benchmark: repo-apy's CLI next to `curl` doing the same protocol steps, and next to
 * the Python client (`kadi-apy`) when it is on `PATH`, and next to the Python client's requests
 * sent with `requests` (`_python_steps.py`, a lower bound of its time) when `python3` has
 * `requests`, all against the local server: upload and
 * download of big files, 200 small files in one `add-files`, and start-up. Every client run is
 * its own process; the table gives the median wall time of several runs, the median client CPU
 * seconds (user + system) and the highest peak RSS (`/usr/bin/time`). repo-apy verifies every
 * byte (MD5 per chunk up, size and MD5 down); curl and the Python client verify nothing.
 *
 * Run: `deno task bench [--sizes 100,500] [--runs 3] [--only big,small,startup] [--tls]` (sizes
 * in MB; `--tls` serves HTTPS with a throwaway CA, made with `openssl`).
 *
 * @module
 */

import type { FileJson } from "../../lib/http/protocol.ts";
import { Transport } from "../../lib/http/transport.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { makeCertificates } from "../../tests/_tls.ts";
import { RepoRecord } from "../../lib/transfer/record.ts";
import {
  type Client,
  curlClient,
  hasRequests,
  PYTHON_STEPS,
  pythonClient,
  pythonStepsClient,
  repoApyClient,
} from "./_clients.ts";
import { onPath, type Sample, summarize } from "./_measure.ts";
import { writeTestFile } from "../_files.ts";

const MB = 1_000_000;

interface Row {
  task: string;
  client: string;
  result: Sample;
}

function option(name: string, fallback: string): string {
  const index = Deno.args.indexOf(`--${name}`);
  return index >= 0 ? Deno.args[index + 1] ?? fallback : fallback;
}

async function main(): Promise<void> {
  const sizes = option("sizes", "100,500").split(",").map((s) => Number(s) * MB);
  const runs = Math.max(1, Number(option("runs", "3")));
  const only = option("only", "big,small,startup").split(",");
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-bench-" }));
  const certs = Deno.args.includes("--tls") ? await makeCertificates(work) : undefined;
  await using started = await startServer({
    storageDir: `${work}/server`,
    ...(certs ? { tls: { cert: certs.cert, key: certs.key } } : {}),
  });
  const server = { url: started.url, pat: started.pat, caPath: certs?.caPath };
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat, caBundle: certs?.caPath },
  });
  await Deno.mkdir(`${work}/home`);
  const clients: Client[] = [await repoApyClient(server, `${work}/home`), curlClient(server)];
  const python = await onPath("kadi-apy");
  if (python) clients.push(await pythonClient(server, `${work}/home`, python));
  else console.log("Note: no Python client (`kadi-apy`) on PATH; its rows are skipped.");
  const python3 = await onPath("python3");
  if (python3 && await hasRequests(python3)) clients.push(pythonStepsClient(server, python3));
  else console.log("Note: no `python3` with `requests` on PATH; the lower-bound rows are skipped.");
  const binary = await compiledCli();
  let records = 0;
  const newRecord = () =>
    RepoRecord.load(transport, { identifier: `bench-${++records}`, create: true });
  const rows: Row[] = [];
  const report = (task: string, client: Client, samples: Sample[]) => {
    const row = { task, client: client.name, result: summarize(samples) };
    rows.push(row);
    const { seconds, cpu, rssKb } = row.result;
    console.error(
      `${task} ${client.name}: ${seconds.toFixed(2)} s, CPU ${cpu.toFixed(2)} s, ` +
        `${(rssKb / 1024).toFixed(0)} MiB`,
    );
  };
  try {
    if (only.includes("big")) {
      for (const size of sizes) {
        const source = `${work}/data-${size / MB}MB.bin`;
        await writeTestFile(source, size);
        for (const client of clients) {
          const up: Sample[] = [];
          const down: Sample[] = [];
          for (let run = 0; run < runs; run++) {
            const record = await newRecord();
            up.push(await client.upload(record.id, source));
            const file = await fileNamed(transport, record.id, source.split("/").at(-1)!);
            if (file.size !== size) throw new Error(`${client.name} stored ${file.size} bytes`);
            const dir = await Deno.makeTempDir({ dir: work });
            down.push(await client.download(record.id, file, dir));
            const got = (await Deno.stat(`${dir}/${file.name}`)).size;
            if (got !== size) throw new Error(`${client.name} downloaded ${got} bytes`);
            await Deno.remove(dir, { recursive: true });
            await transport.request("DELETE", `/records/${record.id}/files/${file.id}`);
          }
          report(`upload ${size / MB} MB`, client, up);
          report(`download ${size / MB} MB`, client, down);
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
      for (const client of clients) {
        const samples: Sample[] = [];
        for (let run = 0; run < runs; run++) {
          samples.push(await client.addFolder((await newRecord()).id, folder));
        }
        report("200 × 4 KB, one add-files", client, samples);
      }
    }
    if (only.includes("startup")) {
      const starters = [...clients];
      if (binary) starters.push(await repoApyClient(server, `${work}/home`, binary));
      for (const args of [["--version"], ["records", "--help"]]) {
        for (const client of starters) {
          if (!client.start) continue;
          const samples: Sample[] = [];
          for (let run = 0; run < Math.max(5, runs); run++) samples.push(await client.start(args));
          report(`start-up: ${args.join(" ")}`, client, samples);
        }
      }
    }
  } finally {
    await started.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  console.log(table(rows));
  console.log(
    `\n${runs} runs per case (start-up: ${Math.max(5, runs)}); local server in the benchmark ` +
      `process on 127.0.0.1 (${
        certs ? "HTTPS" : "HTTP"
      }); ${navigator.hardwareConcurrency} CPUs. Time and CPU: medians; ` +
      "RSS: the highest peak of one client process. curl runs each step as its own process " +
      "(chunks one after another) and verifies nothing; repo-apy verifies every byte. " +
      `"${PYTHON_STEPS}" sends the Python client's requests in its order with one requests ` +
      "session and nothing else (no CLI, no config, no output), so the Python client cannot be " +
      'faster: against it, "vs Python" is an upper bound (≤).',
  );
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
  const dist = new URL("../../dist/", import.meta.url).pathname;
  const target = `${Deno.build.arch}-unknown-linux-gnu`;
  const path = `${dist}repo-apy-${target}`;
  return await Deno.stat(path).then(() => path, () => undefined);
}

function table(rows: Row[]): string {
  const curl = (task: string) => rows.find((r) => r.task === task && r.client.startsWith("curl"));
  const python = (task: string) =>
    rows.find((r) => r.task === task && r.client.includes("kadi-apy (Python)"));
  const steps = (task: string) => rows.find((r) => r.task === task && r.client === PYTHON_STEPS);
  const ratio = (row: Row, base: Row | undefined) =>
    base && base !== row ? `${(row.result.seconds / base.result.seconds).toFixed(2)}×` : "";
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
    ...rows.map((row) =>
      `| ${row.task} | ${row.client} | ${row.result.seconds.toFixed(2)} | ${
        ratio(row, curl(row.task))
      } | ${vsPython(row)} | ${
        Number.isNaN(row.result.cpu) ? "n/a" : row.result.cpu.toFixed(2)
      } | ${row.result.rssKb > 0 ? (row.result.rssKb / 1024).toFixed(0) : "n/a"} |`
    ),
  ].join("\n");
}

if (import.meta.main) await main();
