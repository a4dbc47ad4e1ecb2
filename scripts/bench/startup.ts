// deno-lint-ignore-file no-console -- a benchmark script prints its results
/**
 * Start-up benchmark: what one CLI call costs, next to a yardstick, as paired ratios. Each row
 * runs two commands in turn (A B, B A, A B, … so neither always goes first), N pairs, and
 * reports the median of the per-pair ratios A/B for wall time and for CPU time (user + system of
 * the process, which the other jobs on a shared machine disturb far less than wall time), with
 * the medians of each side and the load average before and after the row.
 *
 * Rows (the targets are issue 35's):
 * - `--version` vs an empty `deno run` script (target ≤ 1.5×);
 * - `records get-metadatum` (one record, one request) vs an empty `deno run` script (≤ 3×);
 * - `records --help` (the pre-rendered help) vs an empty `deno run` script (no target);
 * - `--version` through the `./cli` export (the file `deno.json` names, what `deno install
 *   jsr:@repo/apy/cli` runs) vs through `cli.ts` (1.0× when the export loads no more than it);
 * - `records get-file` of a 3-byte file vs kadi-apy 0.51.0 doing the same (≥ 5× faster, that is
 *   A/B ≤ 0.2), when `kadi-apy` is on `PATH` or given with `--kadi-apy`.
 *
 * Every command runs against the local server in this process (HTTP on 127.0.0.1), with a config
 * file in a temporary HOME and the CLI's own permissions (`scripts/compile.ts`), through `bash`,
 * which reports the command's own wall time (`EPOCHREALTIME`) and CPU time (`times`) to the
 * millisecond. Timings are never asserted anywhere: this script only prints them.
 *
 * Run: `deno run -A scripts/bench/startup.ts [--pairs 30] [--only version,metadatum,help,export,file]
 * [--kadi-apy PATH] [--pin]` (`--pin`: the server on CPU 0, the commands on the other CPUs).
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import denoJson from "../../deno.json" with { type: "json" };
import { Transport } from "../../lib/http/transport.ts";
import { openResource } from "../../lib/resources/resource.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { CLI_PERMISSIONS } from "../compile.ts";
import { clientPrefix, median, onPath, option, pinServerAndClients } from "./_measure.ts";

/** One measured process: wall and CPU seconds. */
interface Run {
  wall: number;
  cpu: number;
}

/** A row: command A measured against command B, pair by pair. */
interface Row {
  name: string;
  target: string;
  pairs: { a: Run; b: Run }[];
  load: [string, string];
}

/** The 1-minute load average (`/proc/loadavg`), or "?" where there is none. */
async function loadAverage(): Promise<string> {
  const text = await Deno.readTextFile("/proc/loadavg").catch(() => "?");
  return text.split(" ")[0] ?? "?";
}

// Runs "$@" with its output thrown away and prints its wall seconds and the CPU `times` reports
// for the children of this shell (the command), to the millisecond.
const TIMER = 's=$EPOCHREALTIME; "$@" >/dev/null 2>"$BENCH_ERR"; rc=$?; e=$EPOCHREALTIME; ' +
  'echo "$s $e"; times; exit $rc';

/**
 * Runs `cmd` once through `bash` and returns its wall and CPU seconds; fails when it fails.
 *
 * @param cmd Program and arguments.
 * @param env Extra environment variables.
 * @param errFile Where the command's stderr goes (shown when it fails).
 * @returns The run's cost.
 */
async function timed(cmd: string[], env: Record<string, string>, errFile: string): Promise<Run> {
  const output = await new Deno.Command("bash", {
    args: ["-c", TIMER, "bash", ...clientPrefix(), ...cmd],
    env: { ...env, BENCH_ERR: errFile },
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) {
    const stderr = await Deno.readTextFile(errFile).catch(() => "");
    throw new Error(`${cmd.join(" ")} failed (exit ${output.code}): ${stderr.slice(-2000)}`);
  }
  // "<start> <end>" / shell's "<user> <sys>" / children's "<user> <sys>", e.g. "0m0.012s".
  const [clock, , children] = new TextDecoder().decode(output.stdout).trim().split("\n");
  const [start, end] = (clock ?? "").split(" ").map(Number);
  const seconds = (children ?? "").split(" ").map((text) => {
    const match = /^(\d+)m([\d.]+)s$/.exec(text.trim());
    return match ? Number(match[1]) * 60 + Number(match[2]) : Number.NaN;
  });
  return {
    wall: (end ?? Number.NaN) - (start ?? Number.NaN),
    cpu: (seconds[0] ?? Number.NaN) + (seconds[1] ?? Number.NaN),
  };
}

/**
 * Measures `a` against `b`: `pairs` pairs after one warm-up run of each, the order swapped from
 * pair to pair.
 */
async function pairUp(
  row: Omit<Row, "pairs" | "load">,
  a: () => Promise<Run>,
  b: () => Promise<Run>,
  pairs: number,
): Promise<Row> {
  const before = await loadAverage();
  await a();
  await b();
  const measured: { a: Run; b: Run }[] = [];
  for (let i = 0; i < pairs; i++) {
    if (i % 2 === 0) {
      const runA = await a();
      measured.push({ a: runA, b: await b() });
    } else {
      const runB = await b();
      measured.push({ a: await a(), b: runB });
    }
  }
  const result = {
    ...row,
    pairs: measured,
    load: [before, await loadAverage()] as [string, string],
  };
  console.error(`${row.name}: ${summary(result).join(" | ")}`);
  return result;
}

function ms(seconds: number): string {
  return Number.isFinite(seconds) ? `${(seconds * 1000).toFixed(0)} ms` : "?";
}

/** The table cells of a row after its name: medians of each side and of the per-pair ratios. */
function summary(row: Row): string[] {
  const of = (pick: (pair: { a: Run; b: Run }) => number) => median(row.pairs.map(pick));
  return [
    ms(of((pair) => pair.a.wall)),
    ms(of((pair) => pair.b.wall)),
    `${of((pair) => pair.a.wall / pair.b.wall).toFixed(2)}×`,
    ms(of((pair) => pair.a.cpu)),
    ms(of((pair) => pair.b.cpu)),
    `${of((pair) => pair.a.cpu / pair.b.cpu).toFixed(2)}×`,
    row.target,
    String(row.pairs.length),
    `${row.load[0]} → ${row.load[1]}`,
  ];
}

const HEAD = [
  "row (A vs B)",
  "A wall",
  "B wall",
  "A/B wall",
  "A CPU",
  "B CPU",
  "A/B CPU",
  "target A/B",
  "pairs",
  "load avg",
];

/** A Markdown table: the row names left-aligned, the figures right-aligned. */
function table(rows: readonly Row[]): string {
  const lines = rows.map((row) => [row.name, ...summary(row)]);
  const widths = HEAD.map((cell, i) => Math.max(cell.length, ...lines.map((l) => l[i]!.length)));
  const pad = (cell: string, i: number) =>
    i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!);
  const format = (cells: string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const rule = widths.map((width, i) => i === 0 ? "-".repeat(width) : `${"-".repeat(width - 1)}:`);
  return [format(HEAD), `| ${rule.join(" | ")} |`, ...lines.map(format)].join("\n");
}

/** The Deno cache directory of this process (`deno info --json`). */
async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(stdout)) as { denoDir: string }).denoDir;
}

async function main(): Promise<void> {
  const pairs = Math.max(1, Number(option("pairs", "30")));
  const only = option("only", "version,metadatum,help,export,file").split(",");
  const pinned = Deno.args.includes("--pin") ? await pinServerAndClients() : undefined;
  const kadiApy = option("kadi-apy", "") || await onPath("kadi-apy");
  const work = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-startup-" }));
  const server = await startServer({ storageDir: `${work}/server` });
  try {
    await using transport = new Transport({ settings: { host: server.url, pat: server.pat } });
    const record = await openResource(transport, RepoRecord, {
      identifier: "startup",
      create: true,
    });
    await Deno.writeTextFile(`${work}/small.txt`, "abc");
    await record.uploadFile(`${work}/small.txt`);
    await record.addMetadatum({ key: "temperature", type: "float", value: 21.5 });
    const id = String(record.id);

    const home = `${work}/home`;
    await Deno.mkdir(`${home}/out`, { recursive: true });
    const config = `${home}/.repoconfig`;
    await Deno.writeTextFile(
      config,
      `[global]\ndefault = "bench"\n\n[bench]\nhost = "${server.url}"\npat = "${server.pat}"\n`,
    );
    await Deno.chmod(config, 0o600);
    await Deno.writeTextFile(
      `${home}/.kadiconfig`,
      `[global]\ndefault = bench\ntimeout = 60\nverify = True\n\n[bench]\nhost = ${server.url}\npat = ${server.pat}\n`,
    );
    await Deno.chmod(`${home}/.kadiconfig`, 0o600);
    const empty = `${work}/empty.ts`;
    await Deno.writeTextFile(empty, "");

    const cli = fileURLToPath(new URL("../../cli.ts", import.meta.url));
    // The file behind `jsr:@repo/apy/cli`, as deno.json names it.
    const cliExport = fileURLToPath(new URL(`../../${denoJson.exports["./cli"]}`, import.meta.url));
    // The benchmark's own Deno cache, warmed before measuring (as in `_clients.ts`).
    const env = {
      REPO_APY_CONFIG: config,
      HOME: home,
      NO_COLOR: "1",
      DENO_DIR: await denoDir(),
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    };
    const errFile = `${work}/stderr.txt`;
    await new Deno.Command(Deno.execPath(), {
      args: ["cache", "--quiet", cli, cliExport],
      env,
    }).output();
    const runFile = (file: string, ...args: string[]) => () =>
      timed([Deno.execPath(), "run", "--quiet", ...CLI_PERMISSIONS, file, ...args], env, errFile);
    const repoApy = (...args: string[]) => runFile(cli, ...args);
    const emptyRun = () => timed([Deno.execPath(), "run", "--quiet", empty], env, errFile);
    const fileArgs = [
      "records",
      "get-file",
      "-r",
      id,
      "-n",
      "small.txt",
      "-p",
      `${home}/out`,
      "-f",
    ];

    const rows: Row[] = [];
    if (only.includes("version")) {
      rows.push(
        await pairUp(
          { name: "`--version` vs empty `deno run`", target: "≤ 1.5×" },
          repoApy("--version"),
          emptyRun,
          pairs,
        ),
      );
    }
    if (only.includes("metadatum")) {
      rows.push(
        await pairUp(
          {
            name: "`records get-metadatum` vs empty `deno run`",
            target: "≤ 3×",
          },
          repoApy("records", "get-metadatum", "-r", id, "-n", "temperature"),
          emptyRun,
          pairs,
        ),
      );
    }
    if (only.includes("help")) {
      rows.push(
        await pairUp(
          { name: "`records --help` vs empty `deno run`", target: "" },
          repoApy("records", "--help"),
          emptyRun,
          pairs,
        ),
      );
    }
    if (only.includes("export")) {
      rows.push(
        await pairUp(
          { name: "`--version`: the `./cli` export vs `cli.ts`", target: "1.0×" },
          runFile(cliExport, "--version"),
          repoApy("--version"),
          pairs,
        ),
      );
    }
    if (only.includes("file")) {
      if (kadiApy) {
        rows.push(
          await pairUp(
            {
              name: "`records get-file` (3 bytes) vs kadi-apy 0.51.0",
              target: "≤ 0.2×",
            },
            repoApy(...fileArgs),
            () => timed([kadiApy, ...fileArgs], env, errFile),
            pairs,
          ),
        );
      } else {console.log(
          "Note: no `kadi-apy` on PATH (or --kadi-apy): the get-file row is skipped.",
        );}
    }
    console.log(table(rows));
    console.log(
      `\n${pairs} pairs per row after one warm-up run each, the order swapped from pair to pair; ` +
        "medians of each side and of the per-pair ratios; CPU: user + system of the command; " +
        `load: 1-minute load average before → after the row; ${navigator.hardwareConcurrency} CPUs` +
        `${pinned ? `; ${pinned}` : ""}; local server in this process, HTTP on 127.0.0.1.`,
    );
  } finally {
    await server.close();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
