// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * The main job on the embedded local server: `deno task demo`.
 *
 * Starts the local repository server, writes a throwaway config file, and drives the real CLI
 * through a representative session: instance info, create a record, upload a small and a
 * >50 MB generated file (chunked), add metadata, read it back, download and verify the checksum.
 * Everything it creates lives in one temporary directory that is removed at the end.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { sha256File, writeTestFile } from "./_files.ts";
import { startServer } from "../lib/testing/mod.ts";
import { writeConfig } from "../lib/config/write.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));
const BIG_FILE_BYTES = 60_000_000;

/**
 * Quotes one argument for POSIX shells, so a printed command can be copied into a shell: plain
 * words stay as they are, anything else goes in single quotes (a `'` becomes `'\''`).
 *
 * @param arg The argument.
 * @returns The argument as a shell word.
 */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

async function run(env: Record<string, string>, ...args: string[]): Promise<string> {
  console.log(`\n$ repo-apy ${args.map(shellQuote).join(" ")}`);
  const { code, stdout, stderr } = await new Deno.Command("deno", {
    args: [
      "run",
      "--quiet",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      CLI,
      ...args,
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  const err = new TextDecoder().decode(stderr);
  if (out) console.log(out.trimEnd());
  if (err) console.error(err.trimEnd());
  if (code !== 0) throw new Error(`repo-apy ${args.join(" ")} exited with ${code}`);
  return out;
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "repo-apy-demo-" });
  try {
    await using server = await startServer({ storageDir: `${dir}/server` });
    const configPath = `${dir}/repoconfig.toml`;
    await writeConfig(configPath, {
      global: { default: "demo", extra: {} },
      instances: new Map([["demo", { host: server.url, pat: server.pat, extra: {} }]]),
    });
    const env = { REPO_APY_CONFIG: configPath, HOME: dir, NO_COLOR: "1" };
    console.log(`Local repository server at ${server.url}; config at ${configPath}`);

    await run(env, "config", "get-repo-info");
    const id = (await run(env, "records", "create", "-i", "demo-record", "-t", "Demo record", "-p"))
      .trim();
    await Deno.writeTextFile(`${dir}/notes.txt`, "Measured at 21 °C.\n");
    await run(env, "records", "add-files", "-r", id, "-n", `${dir}/notes.txt`, "-d", "Lab notes");
    console.log(`\nGenerating a ${BIG_FILE_BYTES / 1e6} MB file (chunked upload above 50 MB)`);
    await writeTestFile(`${dir}/big.bin`, BIG_FILE_BYTES);
    await run(env, "records", "add-files", "-r", id, "-n", `${dir}/big.bin`);
    await run(
      env,
      "records",
      "add-metadatum",
      "-r",
      id,
      "-m",
      "temperature",
      "-v",
      "21",
      "-t",
      "float",
      "-u",
      "°C",
    );
    await run(
      env,
      "records",
      "add-metadata",
      "-r",
      id,
      "-m",
      '[{"key": "sample", "type": "str", "value": "A-17"}]',
    );
    await run(env, "records", "get-metadatum", "-r", id, "-n", "temperature");
    await run(env, "records", "show-info", "-r", id, "-l", "-m");
    await Deno.mkdir(`${dir}/download`);
    await run(env, "records", "get-file", "-r", id, "-n", "big.bin", "-p", `${dir}/download`);
    const [sent, received] = await Promise.all([
      sha256File(`${dir}/big.bin`),
      sha256File(`${dir}/download/big.bin`),
    ]);
    console.log(`\nSHA-256 uploaded   ${sent}\nSHA-256 downloaded ${received}`);
    if (sent !== received) throw new Error("The downloaded file differs from the uploaded one");
    console.log("\nDemo finished: the downloaded file is byte-identical.");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
