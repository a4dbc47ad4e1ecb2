// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Compiles the CLI into one standalone binary per target (`dist/repo-apy-<target>[.exe]`),
 * writes `dist/SHA256SUMS` for the binaries built, and checks each binary this machine can run:
 * `--version` must print the project's version, and a records round trip against the local
 * server (create, upload a small file, download it, compare the bytes) must succeed. A binary
 * that fails this check is deleted and not listed.
 *
 * `deno compile` needs the `denort` runtime of each target; it downloads it on first use, or
 * takes it from `DENORT_BIN` (one local runtime, so only the host's own target then). Where
 * neither works, the script says so in one line per target and one hint on where a denort comes
 * from, and exits 1; nothing is claimed that was not built and run.
 *
 * Usage: `deno task compile [--out-dir=DIR] [target...]`
 *
 * @module
 */

import denoJson from "../deno.json" with { type: "json" };
import { smokeTest } from "./_compile_smoke.ts";
import { sha256File } from "./_files.ts";

/** Every target a release ships. */
const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * What the binary may do: talk to any host, read and write the files it transfers, find its
 * config and its credentials in the environment.
 */
export const CLI_PERMISSIONS: readonly string[] = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  // The proxy variables: only when they can be read (and are unset) does upload data go out
  // through the large-PUT sender (lib/http/_put_sender.ts); Deno's fetch reads them anyway.
  // XDG_CACHE_HOME and LOCALAPPDATA: where `records sync` keeps its hash cache.
  "--allow-env=REPO_APY_CONFIG,REPO_APY_HOST,REPO_APY_PAT,REPO_APY_INSTANCE,REPO_APY_CA_BUNDLE,REPO_APY_VERIFY,HOME,USERPROFILE," +
  "XDG_CACHE_HOME,LOCALAPPDATA," +
  "SHELL,NO_COLOR,TERM,LANG,LC_ALL,LC_CTYPE,COLUMNS,HTTP_PROXY,http_proxy,HTTPS_PROXY,https_proxy,ALL_PROXY,all_proxy," +
  "NO_PROXY,no_proxy",
];

/** File name of a target's binary. */
function binaryName(target: string): string {
  return `repo-apy-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** Outcome of compiling one target. */
interface CompileResult {
  target: string;
  /** Path of the binary when it was written. */
  binary?: string;
  /** Why it was not, in one line. */
  failure?: string;
  /** The failure is the missing denort runtime (the hint after all targets says where to get one). */
  noRuntime?: boolean;
}

/** Compiles `cli.ts` for one target into `outDir`. */
async function compileTarget(target: string, outDir: string): Promise<CompileResult> {
  const binary = `${outDir}/${binaryName(target)}`;
  const { code, stderr } = await new Deno.Command("deno", {
    args: [
      "compile",
      ...CLI_PERMISSIONS,
      "--target",
      target,
      "--output",
      binary,
      "cli.ts",
    ],
    cwd: new URL("../", import.meta.url),
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (code === 0) return { target, binary };
  const message = new TextDecoder().decode(stderr).trim();
  const reason = keyLine(message);
  if (/denort|error sending request|dns error|connect/i.test(message)) {
    return {
      target,
      failure: `could not obtain the denort runtime (${reason})`,
      noRuntime: true,
    };
  }
  return { target, failure: `deno compile failed: ${reason}` };
}

/** Where a denort comes from, said once after the targets that lacked it. */
function runtimeHint(): string {
  const version = Deno.version.deno;
  const own = Deno.build.target;
  return `denort is the runtime deno compile builds a binary from, one per target; deno ` +
    `downloads it from dl.deno.land. Without that: download denort-${own}.zip from ` +
    `https://github.com/denoland/deno/releases/tag/v${version} (or copy it from a machine ` +
    `where it was downloaded), unzip it, and run DENORT_BIN=/path/to/denort deno task compile ` +
    `${own} (DENORT_BIN builds this machine's target only)`;
}

function keyLine(text: string): string {
  const lines = text.split("\n").map((line) => line.replace(/^\s*\d+:\s*/, "").trim());
  const line = lines.find((line) => /could not find denort|error sending request/i.test(line)) ??
    lines.find((line) => line.startsWith("error:")) ?? lines.at(-1) ?? "no output";
  // `error sending request for url (…): client error (Connect): dns error: …`: the URL and cause.
  const request = /error sending request for url \(([^)]+)\).*?: ([^:]+ error: .*)$/.exec(line);
  const host = request === null ? "" : new URL(request[1]!).host;
  return request === null ? line.replace(/^error: /, "") : `${host}: ${request[2]}`;
}

/** Compiles the targets, writes SHA256SUMS, checks runnable binaries; returns the exit code. */
async function compileAll(targets: readonly string[], outDir: string): Promise<number> {
  await Deno.mkdir(outDir, { recursive: true });
  const sums = `${outDir}/SHA256SUMS`;
  await Deno.remove(sums).catch(() => {}); // never leave checksums of an earlier build behind
  const built: string[] = [];
  const failed: string[] = [];
  const results: CompileResult[] = [];
  for (const target of targets) {
    const result = await compileTarget(target, outDir);
    results.push(result);
    if (result.binary === undefined) {
      console.error(`Cannot compile for ${target}: ${result.failure}`);
      failed.push(target);
      continue;
    }
    if (target === Deno.build.target) {
      const problem = await smokeTest([result.binary], denoJson.version);
      if (problem !== null) {
        await Deno.remove(result.binary).catch(() => {});
        console.error(`Built ${result.binary} but it does not work, so it was deleted: ${problem}`);
        failed.push(target);
        continue;
      }
      console.log(`built ${result.binary} (--version and a records round trip passed)`);
    } else {
      console.log(`built ${result.binary} (another platform: not run here)`);
    }
    built.push(result.binary);
  }
  if (built.length > 0) {
    const lines = await Promise.all(
      built.map(async (path) => `${await sha256File(path)}  ${path.split("/").at(-1)}\n`),
    );
    await Deno.writeTextFile(sums, lines.join(""));
    console.log(`wrote ${sums} (${built.length} binar${built.length === 1 ? "y" : "ies"})`);
  }
  if (results.some((result) => result.noRuntime === true)) console.error(runtimeHint());
  if (failed.length > 0) {
    console.error(
      `${failed.length} of ${targets.length} target(s) not built: ${failed.join(", ")}` +
        (built.length === 0 ? "; no binary and no SHA256SUMS were written" : ""),
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) {
  const outArg = Deno.args.find((arg) => arg.startsWith("--out-dir="));
  const outDir = outArg?.slice("--out-dir=".length) ?? "dist";
  const requested = Deno.args.filter((arg) => !arg.startsWith("--out-dir="));
  const targets = requested.length > 0 ? requested : [...TARGETS];
  const unknown = targets.filter((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown.length > 0) {
    console.error(`Unknown target(s) ${unknown.join(", ")}; choose from ${TARGETS.join(", ")}`);
    Deno.exit(2);
  }
  Deno.exit(await compileAll(targets, outDir));
}
