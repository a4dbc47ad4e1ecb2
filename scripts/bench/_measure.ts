/**
 * Measuring client processes for the benchmarks: wall time, CPU seconds (user + system) and peak
 * RSS of each process (from `/usr/bin/time`, or only the wall time without it), and medians.
 *
 * @module
 */

/** What one client run cost. Several processes (curl steps) add up: wall and CPU sum, RSS max. */
export interface Sample {
  /** Wall-clock seconds. */
  seconds: number;
  /** CPU seconds (user + system) of the client processes, `NaN` when unknown. */
  cpu: number;
  /** Peak RSS of the largest client process in KiB, 0 when unknown. */
  rssKb: number;
}

/** The output of one measured process. */
export interface Measured {
  /** Standard output. */
  stdout: string;
  /** CPU seconds and peak RSS (wall time is measured by the caller around several steps). */
  sample: Sample;
}

/** Options of {@linkcode measure}. */
export interface MeasureOptions {
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
}

const MARKER = "__BENCH__";
let timeBinary: boolean | undefined;
/** `taskset` and the CPUs every measured client runs on, when pinned. */
let clientCpus: string[] = [];

/**
 * Pins this process (the local server and the link proxy, every thread) to CPU 0 and every client
 * measured afterwards to the other CPUs, so that the clients are measured as they run in the
 * field, where the server does not share their cores. Needs `taskset` and at least 2 CPUs.
 */
export async function pinServerAndClients(): Promise<string> {
  const cpus = navigator.hardwareConcurrency;
  if (cpus < 2) throw new Error("--pin needs at least 2 CPUs");
  const pin = await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", "0", String(Deno.pid)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!pin.success) throw new Error(`taskset failed: ${new TextDecoder().decode(pin.stderr)}`);
  const clients = cpus === 2 ? "1" : `1-${cpus - 1}`;
  clientCpus = ["taskset", "-c", clients];
  return `server and link proxy on CPU 0, clients on CPU ${clients}`;
}

/**
 * The prefix that runs a measured client on the clients' CPUs (`taskset -c …`) after
 * {@linkcode pinServerAndClients}; empty when not pinned.
 *
 * @returns Program and arguments to put before the client's command.
 */
export function clientPrefix(): string[] {
  return [...clientCpus];
}

/**
 * Runs a command, under `/usr/bin/time` when present, and fails when it fails.
 *
 * @param cmd Program and arguments.
 * @param options Environment and working directory.
 * @returns Its standard output and cost.
 */
export async function measure(cmd: string[], options: MeasureOptions = {}): Promise<Measured> {
  timeBinary ??= await Deno.stat("/usr/bin/time").then(() => true, () => false);
  const [program, ...args] = timeBinary
    ? ["/usr/bin/time", "-f", `${MARKER}%U %S %M`, ...clientCpus, ...cmd]
    : [...clientCpus, ...cmd];
  const started = performance.now();
  const output = await new Deno.Command(program as string, {
    args,
    stdout: "piped",
    stderr: "piped",
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  }).output();
  const seconds = (performance.now() - started) / 1000;
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${cmd.join(" ")} failed: ${stderr.slice(-2000)}`);
  const match = new RegExp(`${MARKER}([\\d.]+) ([\\d.]+) (\\d+)`).exec(stderr);
  const sample = match
    ? { seconds, cpu: Number(match[1]) + Number(match[2]), rssKb: Number(match[3]) }
    : { seconds, cpu: Number.NaN, rssKb: 0 };
  return { stdout: new TextDecoder().decode(output.stdout), sample };
}

/**
 * Adds up the processes of one client run: CPU sums, RSS is the largest process's.
 *
 * @param samples The processes' samples.
 * @param seconds Wall time of the whole run.
 * @returns The run's sample.
 */
export function combine(samples: readonly Sample[], seconds: number): Sample {
  return {
    seconds,
    cpu: samples.reduce((sum, s) => sum + s.cpu, 0),
    rssKb: samples.reduce((max, s) => Math.max(max, s.rssKb), 0),
  };
}

/**
 * Median wall time and CPU, and the highest peak RSS, of several runs.
 *
 * @param runs The runs.
 * @returns The summary.
 */
export function summarize(runs: readonly Sample[]): Sample {
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpu: median(runs.map((r) => r.cpu)),
    rssKb: Math.max(0, ...runs.map((r) => r.rssKb)),
  };
}

/**
 * The median of some numbers (the mean of the middle two for an even count; NaN for none).
 *
 * @param values The numbers.
 * @returns Their median.
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? sorted[middle] as number
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Writes the data of earlier runs to disk (`sync`) before a measured run, so one client's disk
 * write-back does not land in the next client's time. Skipped where `sync` is missing.
 */
export async function settle(): Promise<void> {
  await new Deno.Command("sync").output().catch(() => {});
}

/**
 * Finds a program on `PATH`.
 *
 * @param name The program.
 * @returns Its path, or undefined.
 */
export async function onPath(name: string): Promise<string | undefined> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir === "") continue;
    const path = `${dir}/${name}`;
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isFile && ((info.mode ?? 0o111) & 0o111) !== 0) return path;
  }
  return undefined;
}

/** The value after `--<name>` on the command line, or `fallback`. */
export function option(name: string, fallback: string): string {
  const index = Deno.args.indexOf(`--${name}`);
  return index >= 0 ? Deno.args[index + 1] ?? fallback : fallback;
}

/** One measured client run of a sync benchmark, with the requests the server received. */
export interface Line {
  task: string;
  client: string;
  sample: Sample;
  requests: number;
}
