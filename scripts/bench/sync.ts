// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Sync benchmark: a tree of small files (default 10,000 × 4 KB in 200 subfolders) synced with
 * `repo-apy records sync` up to a fresh record and down to an empty folder, then each re-synced
 * with nothing changed (listing plus cached local checksums, no file data); next to the Python
 * client's protocol steps (`_python_steps.py add-tree`, `niquests` with one session) uploading
 * the same files one after the other, a lower bound of what a script around the Python client
 * takes. Every client run is its own process: wall time, client CPU seconds and peak RSS from
 * `/usr/bin/time`, and the requests the local server received. `--counts` repeats the no-op
 * re-sync at several tree sizes, to tell how peak RSS grows with the number of files.
 *
 * Run: `deno run -A scripts/bench/sync.ts [--counts 2000,10000] [--dirs 200] [--size 4096]
 * [--latency 10] [--link 100mbit/30ms] [--no-python] [--pin]`. Against the local server on loopback;
 * `--latency` makes it answer every request that many milliseconds late; `--link` puts the
 * clients behind the link-emulating proxy of `_link.ts` (that bandwidth cap, shared by all
 * connections, and that round trip); `--pin` runs the server and the proxy on CPU 0 and the
 * measured clients on the other CPUs.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { openResource } from "../../lib/resources/resource.ts";
import { hasRequests, PYTHON_STEPS, repoApyClient } from "./_clients.ts";
import { parseLink, startLink } from "./_link.ts";
import {
  type Line,
  measure,
  onPath,
  option,
  pinServerAndClients,
  type Sample,
  settle,
} from "./_measure.ts";

/** Writes `count` files of `size` pseudo-random bytes into `dirs` subfolders of `root`. */
async function writeTree(root: string, count: number, dirs: number, size: number): Promise<void> {
  const bytes = new Uint8Array(size);
  for (let d = 0; d < dirs; d++) {
    await Deno.mkdir(`${root}/d${String(d).padStart(3, "0")}`, { recursive: true });
  }
  for (let i = 0; i < count; i++) {
    crypto.getRandomValues(bytes.subarray(0, Math.min(size, 65536)));
    const dir = `d${String(i % dirs).padStart(3, "0")}`;
    Deno.writeFileSync(`${root}/${dir}/f${String(i).padStart(5, "0")}.bin`, bytes);
  }
}

async function main(): Promise<void> {
  const counts = option("counts", "10000").split(",").map(Number);
  const pinned = Deno.args.includes("--pin") ? await pinServerAndClients() : undefined;
  if (pinned) console.log(`Pinned: ${pinned}.`);
  const dirs = Number(option("dirs", "200"));
  const size = Number(option("size", "4096"));
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-bench-sync-" }));
  const linkOption = option("link", "");
  const link = linkOption === "" ? undefined : parseLink(linkOption);
  await using server = await startServer({ storageDir: `${work}/server` });
  // A server answering every request late, as a real one behind a link with delay does.
  const latency = Number(option("latency", "0"));
  if (latency > 0) server.addFault({ delayMs: latency });
  // The clients reach the server through the link; the benchmark's own requests go direct.
  const proxy = link ? startLink(server.url, link) : undefined;
  const clientServer = { url: proxy?.url ?? server.url, pat: server.pat };
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  await Deno.mkdir(`${work}/home`);
  const repoApy = await repoApyClient(clientServer, `${work}/home`);
  const found = Deno.args.includes("--no-python") ? undefined : await onPath("python3");
  const python3 = found && await hasRequests(found) ? found : undefined;
  let records = 0;
  const lines: Line[] = [];
  const measured = async (task: string, client: string, run: () => Promise<Sample>) => {
    await settle();
    const before = server.log.length;
    const sample = await run();
    const line = { task, client, sample, requests: server.log.length - before };
    lines.push(line);
    console.error(
      `${task}, ${client}: ${sample.seconds.toFixed(2)} s, CPU ${sample.cpu.toFixed(2)} s, ` +
        `${(sample.rssKb / 1024).toFixed(0)} MiB, ${line.requests} requests`,
    );
    return line;
  };
  try {
    for (const count of counts) {
      const tree = `${work}/tree-${count}`;
      await writeTree(tree, count, dirs, size);
      const label = `${count} × ${size / 1024} KB in ${dirs} folders${
        latency > 0 ? `, ${latency} ms late` : ""
      }${link ? `, link ${link.name}` : ""}`;
      const record = await openResource(transport, RepoRecord, {
        identifier: `bench-sync-${++records}`,
        create: true,
      });
      const id = String(record.id);
      const sync = (...args: string[]) => () =>
        repoApy.start!(["records", "sync", "-r", id, ...args]);
      await measured(`first sync up, ${label}`, repoApy.name, sync("--from", tree));
      await measured(`no-op re-sync up, ${label}`, repoApy.name, sync("--from", tree));
      const down = `${work}/down-${count}`;
      await measured(`first sync down, ${label}`, repoApy.name, sync("--to", down));
      await measured(`no-op re-sync down, ${label}`, repoApy.name, sync("--to", down));
      if (python3 !== undefined && count === Math.max(...counts)) {
        const other = await openResource(transport, RepoRecord, {
          identifier: `bench-sync-${++records}`,
          create: true,
        });
        await measured(
          `upload one by one, ${label}`,
          PYTHON_STEPS,
          () => pythonTree(python3, clientServer, other.id, tree),
        );
      }
      await Deno.remove(down, { recursive: true });
    }
  } finally {
    proxy?.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  console.log("| Task | Client | Wall s | CPU s | Peak RSS MiB | Requests |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const { task, client, sample, requests } of lines) {
    console.log(
      `| ${task} | ${client} | ${sample.seconds.toFixed(2)} | ${sample.cpu.toFixed(2)} | ${
        (sample.rssKb / 1024).toFixed(0)
      } | ${requests} |`,
    );
  }
}

/** The Python steps uploading every file of the tree one after the other. */
async function pythonTree(
  python: string,
  server: { url: string; pat: string },
  recordId: number,
  tree: string,
): Promise<Sample> {
  const script = fileURLToPath(new URL("./_python_steps.py", import.meta.url));
  const env = { REPO_APY_BENCH_HOST: server.url, REPO_APY_BENCH_PAT: server.pat };
  return (await measure([python, script, "add-tree", String(recordId), tree], { env })).sample;
}

if (import.meta.main) await main();
