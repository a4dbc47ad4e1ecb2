// deno-lint-ignore-file no-console -- a script prints its results
// Runs N concurrent CLI processes (`records add-files`) uploading generated 30–60 MB files to one
// record of the local server under a token-bucket rate limit, then downloads every file and
// compares its MD5 with the generated one. Used by tests/soak/rate_limit_cli_test.ts (5 req/s,
// `deno task test:soak`), and by hand for slower limits:
//
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write=/tmp --allow-run=deno \
//     --allow-env scripts/rate_limited_uploads.ts --rate 1 --processes 16

import { createHash } from "node:crypto";
import { startServer } from "../lib/testing/mod.ts";
import { RepoManager } from "../lib/manager/repo_manager.ts";
import { writeTestFile } from "./_files.ts";
import { spawnCli } from "./_cli.ts";

const MB = 1_000_000;

/** Options of {@linkcode rateLimitedUploads}. */
export interface RateLimitedUploadsOptions {
  /** Requests per second the server accepts. */
  rate: number;
  /** Concurrent CLI processes, one file each. */
  processes: number;
  /** Size of the first file; each next one is `stepBytes` larger. */
  firstBytes?: number;
  stepBytes?: number;
}

/** What {@linkcode rateLimitedUploads} found. */
export interface RateLimitedUploadsResult {
  /** stderr of every process that failed. */
  failures: string[];
  /** Files whose downloaded MD5 equals the generated one. */
  identical: number;
  /** Files on the record. */
  stored: number;
  /** 429 answers the server gave. */
  limited: number;
  /** Requests the server saw. */
  requests: number;
  /** Wall time of the uploads in seconds. */
  seconds: number;
}

async function upload(home: string, recordId: number, path: string) {
  const args = ["records", "add-files", "-r", String(recordId), "-n", path];
  const output = await spawnCli(home, args).output();
  return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
}

/**
 * Uploads generated files with concurrent CLI processes under a rate limit and checks them.
 *
 * @param options Rate, number of processes, file sizes.
 * @returns Failures, identical files, 429 count and time.
 */
export async function rateLimitedUploads(
  options: RateLimitedUploadsOptions,
): Promise<RateLimitedUploadsResult> {
  const { rate, processes, firstBytes = 30 * MB, stepBytes = 2 * MB } = options;
  await using server = await startServer();
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-rate-" }));
  try {
    await Deno.writeTextFile(
      `${home}/.repoconfig`,
      `[global]\ndefault = "local"\n\n[local]\nhost = "${server.url}"\npat = "${server.pat}"\n`,
      { mode: 0o600 },
    );
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const record = await manager.record({ identifier: "rate-limited", create: true });
    const expected = new Map<string, string>();
    for (let i = 0; i < processes; i++) {
      const name = `upload-${i}.bin`;
      expected.set(name, await writeTestFile(`${home}/${name}`, firstBytes + i * stepBytes, i));
    }
    server.addFault({ rateLimit: rate });
    const before = server.log.length;
    const started = performance.now();
    const runs = await Promise.all(
      [...expected.keys()].map((name) => upload(home, record.id, `${home}/${name}`)),
    );
    const seconds = (performance.now() - started) / 1000;
    const log = server.log.slice(before);
    server.clearFaults();
    let identical = 0;
    let stored = 0;
    for await (const file of record.files()) {
      stored++;
      const hash = createHash("md5");
      for await (const chunk of await record.downloadFile(file.id)) hash.update(chunk);
      if (expected.get(file.name) === hash.digest("hex")) identical++;
    }
    return {
      failures: runs.filter((run) => run.code !== 0).map((run) => run.stderr.trim()),
      identical,
      stored,
      limited: log.filter((entry) => entry.status === 429).length,
      requests: log.length,
      seconds,
    };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const at = Deno.args.indexOf(`--${name}`);
    return at >= 0 ? Number(Deno.args[at + 1]) : fallback;
  };
  const processes = arg("processes", 16);
  const result = await rateLimitedUploads({ rate: arg("rate", 1), processes });
  console.log(JSON.stringify(result, null, 2));
  console.log(`${result.identical}/${processes} byte-identical in ${result.seconds.toFixed(1)} s`);
}
