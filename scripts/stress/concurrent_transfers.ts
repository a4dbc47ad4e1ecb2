// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Stress run of overlapping transfers through the CLI, as cluster jobs, cron overlaps and retry
 * wrappers start them: in each round, `--runs` processes at once
 *
 * - download one file into one folder (numbered copies expected), with `-f` (one file), and both
 *   again after a run killed with `kill -9` midway (its partial file is resumed by one of them);
 * - upload different files of one name, without `-f` (exactly one succeeds, the others say the
 *   file exists) and with it (all succeed, the file is exactly one of the sources).
 *
 * Every run must end as expected, every file intact, no partial file and no active upload left.
 * Prints one line per scenario: rounds passed, and the failures seen.
 *
 * Usage: `deno run -A scripts/stress/concurrent_transfers.ts [--rounds 20] [--runs 8]
 * [--size 3000000]` (`--size` in bytes: up to 50,000,000 a direct upload; more, chunked).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { openResource } from "../../lib/resources/resource.ts";
import { sha256File, writeTestFile } from "../_files.ts";
import { spawnCli } from "../_cli.ts";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    runs: { type: "string", default: "8" },
    size: { type: "string", default: "3000000" },
  },
});
const ROUNDS = Number(values.rounds);
const RUNS = Number(values.runs);
const SIZE = Number(values.size);

interface Run {
  code: number;
  stderr: string;
}

/** The outcome of one scenario in one round: undefined when as expected, else what differed. */
type Check = string | undefined;

async function finish(child: Deno.ChildProcess): Promise<Run> {
  const { code, stderr } = await child.output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

async function all(home: string, args: string[]): Promise<Run[]> {
  return await Promise.all(Array.from({ length: RUNS }, () => finish(spawnCli(home, args))));
}

async function listDir(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** What differs from "every run exit 0, `count` files in `dir`, all equal to `want`". */
async function checkDownloads(runs: Run[], dir: string, count: number, want: string) {
  const failed = runs.filter((r) => r.code !== 0);
  if (failed.length > 0) {
    return `${failed.length}/${runs.length} runs failed: ${failed[0]!.stderr.trim().slice(-200)}`;
  }
  const names = await listDir(dir);
  if (names.length !== count) return `${names.length} files instead of ${count}: ${names}`;
  for (const name of names) {
    if (await sha256File(`${dir}/${name}`) !== want) return `'${name}' is corrupt`;
  }
  return undefined;
}

/** Kills a download midway (kill -9) once its partial file holds data. */
async function killedRun(server: TestServer, home: string, args: string[], dir: string) {
  server.addFault({
    method: "GET",
    path: "/download",
    slowBodyBytesPerSecond: Math.max(1, Math.floor(SIZE / 4)),
    times: 1,
  });
  const child = spawnCli(home, args);
  try {
    for (let i = 0; i < 400; i++) {
      const parts = (await listDir(dir)).filter((n) => n.endsWith(".part"));
      const size = parts.length === 1 ? (await Deno.stat(`${dir}/${parts[0]}`)).size : 0;
      if (size > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    child.kill("SIGKILL");
    await child.output();
    server.clearFaults();
  }
}

async function uploads(transport: Transport, record: RepoRecord): Promise<number> {
  const page = await transport.json<{ items: unknown[] }>("GET", `${record.endpoint}/uploads`);
  return page.items.length;
}

async function storedDigest(record: RepoRecord, name: string): Promise<string | undefined> {
  const file = await record.getFileByName(name).catch(() => undefined);
  if (!file) return undefined;
  const hash = createHash("sha256");
  for await (const chunk of await record.downloadFile(file.id)) hash.update(chunk);
  return hash.digest("hex");
}

async function main() {
  await using server = await startServer();
  await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-stress-" }));
  await Deno.writeTextFile(
    `${home}/.repoconfig`,
    `[global]\ndefault = "local"\n\n[local]\nhost = "${server.url}"\npat = "${server.pat}"\n`,
    { mode: 0o600 },
  );
  const results = new Map<string, Check[]>();
  const note = (scenario: string, check: Check) => {
    results.set(scenario, [...(results.get(scenario) ?? []), check]);
    if (check !== undefined) console.error(`  ${scenario}: ${check}`);
  };
  const started = performance.now();
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const record = await openResource(transport, RepoRecord, {
        identifier: `stress-${round}`,
        create: true,
      });
      const id = String(record.id);
      await writeTestFile(`${home}/source.bin`, SIZE, round);
      const want = await sha256File(`${home}/source.bin`);
      await record.uploadFile(`${home}/source.bin`);
      const get = (dir: string, force: boolean) => [
        "records",
        "get-file",
        "-r",
        id,
        "-n",
        "source.bin",
        "-p",
        dir,
        ...(force ? ["-f"] : []),
      ];
      for (const killed of [false, true]) {
        for (const force of [false, true]) {
          const dir = `${home}/r${round}-${killed ? "killed" : "clean"}-${force ? "f" : "n"}`;
          await Deno.mkdir(dir);
          if (killed) await killedRun(server, home, get(dir, force), dir);
          const runs = await all(home, get(dir, force));
          const scenario = `download${killed ? " after kill -9" : ""}${force ? " -f" : ""}`;
          note(scenario, await checkDownloads(runs, dir, force ? 1 : RUNS, want));
        }
      }
      // Uploads: `RUNS` different files of one name.
      const sources: string[] = [];
      for (let i = 0; i < RUNS; i++) {
        const dir = `${home}/r${round}-up${i}`;
        await Deno.mkdir(dir);
        await writeTestFile(`${dir}/same.bin`, SIZE, 1000 * round + i);
        sources.push(await sha256File(`${dir}/same.bin`));
      }
      for (const force of [false, true]) {
        const runs = await Promise.all(sources.map((_, i) =>
          finish(spawnCli(home, [
            "records",
            "add-files",
            "-r",
            id,
            "-n",
            `${home}/r${round}-up${i}/same.bin`,
            ...(force ? ["-f"] : []),
          ]))
        ));
        const ok = runs.filter((r) => r.code === 0).length;
        const exists = runs.filter((r) => r.code !== 0 && r.stderr.includes("add -f/--force"));
        const final = await storedDigest(record, "same.bin");
        const left = await uploads(transport, record);
        const scenario = `upload${force ? " -f" : ""}`;
        const expected = force ? ok === RUNS : ok === 1 && exists.length === RUNS - 1;
        const odd = runs.find((r) => r.code !== 0 && !r.stderr.includes("add -f/--force"));
        note(
          scenario,
          !expected
            ? `${ok} succeeded, ${exists.length} said the file exists${
              odd ? `; other failure: ${odd.stderr.trim().slice(-200)}` : ""
            }`
            : final === undefined || !sources.includes(final)
            ? "the record's file equals none of the sources (mixed)"
            : left > 0
            ? `${left} active uploads left`
            : undefined,
        );
        // Without -f the record now holds one of them; with -f the next round starts afresh.
      }
      console.error(
        `round ${round}/${ROUNDS} done (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
  } finally {
    await Deno.remove(home, { recursive: true }).catch(() => {});
  }
  console.log(`${RUNS} processes at once, ${SIZE} bytes, ${ROUNDS} rounds:`);
  for (const [scenario, checks] of results) {
    const passed = checks.filter((c) => c === undefined).length;
    console.log(`  ${scenario.padEnd(24)} ${passed}/${checks.length} rounds as expected`);
  }
  console.log(`  total time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
