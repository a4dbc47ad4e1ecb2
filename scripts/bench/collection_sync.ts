// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Collection sync benchmark: a project of record folders (default 1,000 records of 10 small files
 * of 1 KB each) synced with `repo-apy collections sync --from` into a fresh collection, then
 * re-synced with nothing changed; next to the Python client's steps doing the same one record
 * after another (`_python_collection.py`: get-or-create each record, add it to the collection,
 * upload its files one by one), a lower bound of what a lab script around the Python client
 * takes. Each link of `--links` is measured in turn: the clients reach the local server through
 * the link-emulating proxy of `_link.ts` (that bandwidth cap, shared by all connections, and
 * that round trip). Every client run is its own process: wall time, client CPU seconds, peak RSS
 * (`/usr/bin/time`), and the requests the server received. The targets: the no-op
 * re-sync of 1,000 records within 10 s on 100mbit/30ms, the first sync at least 5× the Python
 * steps on it.
 *
 * Run: `deno run -A scripts/bench/collection_sync.ts [--records 1000] [--files 10] [--size 1024]
 * [--links 1gbit/2ms,100mbit/30ms] [--concurrency 16] [--no-python] [--pin]`. A quick check that
 * it works: `--records 20 --files 3 --links 1gbit/2ms`.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { startServer } from "../../lib/testing/mod.ts";
import { hasRequests, repoApyClient } from "./_clients.ts";
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

/** Writes `records` record folders of `files` files of `size` pseudo-random bytes each. */
async function writeProject(root: string, records: number, files: number, size: number) {
  const bytes = new Uint8Array(size);
  for (let r = 0; r < records; r++) {
    const folder = `${root}/sample-${String(r).padStart(5, "0")}`;
    await Deno.mkdir(folder, { recursive: true });
    await Deno.writeTextFile(
      `${folder}/.record.json`,
      JSON.stringify({
        title: `Sample ${r}`,
        extras: [{ key: "index", type: "int", value: r }, {
          key: "temperature",
          type: "float",
          value: 300.0,
          unit: "K",
        }],
      }),
    );
    for (let f = 0; f < files; f++) {
      crypto.getRandomValues(bytes.subarray(0, Math.min(size, 65536)));
      await Deno.writeFile(`${folder}/f${f}.bin`, bytes);
    }
  }
}

async function main(): Promise<void> {
  const records = Number(option("records", "1000"));
  const files = Number(option("files", "10"));
  const size = Number(option("size", "1024"));
  const concurrency = option("concurrency", "16");
  const links = option("links", "1gbit/2ms,100mbit/30ms").split(",").map(parseLink);
  const pinned = Deno.args.includes("--pin") ? await pinServerAndClients() : undefined;
  if (pinned) console.log(`Pinned: ${pinned}.`);
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-bench-coll-" }));
  const found = Deno.args.includes("--no-python") ? undefined : await onPath("python3");
  const python3 = found && await hasRequests(found) ? found : undefined;
  const project = `${work}/project`;
  await writeProject(project, records, files, size);
  const label = `${records} records × ${files} × ${size / 1024} KB`;
  const lines: Line[] = [];
  const measured = async (
    server: { log: unknown[] },
    task: string,
    client: string,
    run: () => Promise<Sample>,
  ) => {
    await settle();
    const before = server.log.length;
    const sample = await run();
    const line = { task, client, sample, requests: server.log.length - before };
    lines.push(line);
    console.error(
      `${task}, ${client}: ${sample.seconds.toFixed(2)} s, CPU ${sample.cpu.toFixed(2)} s, ` +
        `${(sample.rssKb / 1024).toFixed(0)} MiB, ${line.requests} requests`,
    );
  };
  try {
    let run = 0;
    for (const link of links) {
      // A fresh server per link: every first sync creates every record.
      await using server = await startServer({ storageDir: `${work}/server-${run + 1}` });
      const proxy = startLink(server.url, link);
      try {
        const clientServer = { url: proxy.url, pat: server.pat };
        const home = `${work}/home-${++run}`;
        await Deno.mkdir(home);
        const repoApy = await repoApyClient(clientServer, home);
        const collection = `bench-project-${run}`;
        const sync = () =>
          repoApy.start!([
            "collections",
            "sync",
            "-C",
            collection,
            "--from",
            project,
            "--concurrency",
            concurrency,
            "-q",
          ]);
        const where = `${label}, link ${link.name}`;
        await measured(server, `first sync, ${where}`, repoApy.name, sync);
        await measured(server, `no-op re-sync, ${where}`, repoApy.name, sync);
        if (python3 !== undefined) {
          const script = fileURLToPath(new URL("./_python_collection.py", import.meta.url));
          const env = { REPO_APY_BENCH_HOST: proxy.url, REPO_APY_BENCH_PAT: server.pat };
          await measured(
            server,
            `first sync, one record after another, ${where}`,
            "Python steps (lower bound)",
            async () =>
              (await measure([python3, script, `py-${collection}`, project, "py-"], { env }))
                .sample,
          );
        }
        // The sync caches of this run would make the next link's first sync read no file.
        for await (const entry of Deno.readDir(project)) {
          await Deno.remove(`${project}/${entry.name}/.repo-apy-sync-cache.json`).catch(() => {});
        }
      } finally {
        proxy.close();
      }
    }
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
  console.log(`Load average at the end: ${Deno.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
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

if (import.meta.main) await main();
