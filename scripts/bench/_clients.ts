/**
 * The clients the transfer benchmark compares, each doing the same protocol steps: repo-apy's
 * CLI, `curl` (one process per step, as a shell script would run them), and the Python client
 * `kadi-apy` when it is on `PATH`. Every run is one or more measured processes.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { basename } from "node:path";
import type { FileJson, UploadJson } from "../../lib/http/protocol.ts";
import { CLI_PERMISSIONS } from "../compile.ts";
import { combine, measure, type Sample } from "./_measure.ts";

/** Where the clients send their requests. */
export interface Server {
  /** Host (`http://127.0.0.1:<port>`). */
  url: string;
  /** Token. */
  pat: string;
  /** CA certificate (PEM file) of an HTTPS server. */
  caPath?: string | undefined;
}

/** One client of the benchmark. */
export interface Client {
  /** Name in the table. */
  name: string;
  /** Uploads a file (named after its base name) to a record. */
  upload(recordId: number, path: string): Promise<Sample>;
  /** Downloads the record's file `name` (id `fileId`) into `dir`. */
  download(recordId: number, file: FileJson, dir: string): Promise<Sample>;
  /** Uploads every file of a folder to a record. */
  addFolder(recordId: number, dir: string): Promise<Sample>;
  /** Downloads every file of a record into `dir` (one command where the client has one). */
  downloadAll?(recordId: number, dir: string): Promise<Sample>;
  /** Lists every record, one JSON object per line, on stdout. */
  list?(): Promise<Sample>;
  /** Runs the program with `args` (start-up cases); undefined when not applicable. */
  start?(args: string[]): Promise<Sample>;
}

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/**
 * repo-apy's CLI, run with `deno run` (or a compiled binary) and a config file for the server.
 *
 * @param server The server.
 * @param home A directory for the config file.
 * @param binary A compiled CLI to use instead of `deno run cli.ts`.
 * @param concurrency `--concurrency` of `add-files` (the CLI's default when undefined).
 * @returns The client.
 */
export async function repoApyClient(
  server: Server,
  home: string,
  binary?: string,
  concurrency?: string,
): Promise<Client> {
  const config = `${home}/.repoconfig`;
  await Deno.writeTextFile(
    config,
    `[global]\ndefault = "bench"\n\n[bench]\nhost = "${server.url}"\npat = "${server.pat}"\n` +
      (server.caPath ? `ca_bundle = "${server.caPath}"\n` : ""),
  );
  // The permissions the compiled binary has, so `deno run` behaves as the shipped CLI does.
  const command = binary ? [binary] : [Deno.execPath(), "run", "--quiet", ...CLI_PERMISSIONS, CLI];
  // The benchmark's own Deno cache, warmed before measuring: otherwise the temporary HOME gives
  // the first run an empty cache, and it measures fetching and compiling the modules (about
  // 15 MiB more peak memory) instead of a transfer.
  const env = {
    REPO_APY_CONFIG: config,
    HOME: home,
    NO_COLOR: "1",
    ...(binary ? {} : { DENO_DIR: await denoDir() }),
  };
  if (!binary) await measure([Deno.execPath(), "cache", "--quiet", CLI], { env });
  const run = async (args: string[]) => (await measure([...command, ...args], { env })).sample;
  return {
    name: binary ? "repo-apy (compiled)" : "repo-apy",
    upload: (id, path) => run(["records", "add-files", "-r", String(id), "-n", path]),
    download: (id, file, dir) =>
      run(["records", "get-file", "-r", String(id), "-n", file.name, "-p", dir, "-f"]),
    addFolder: (id, dir) =>
      run([
        "records",
        "add-files",
        "-r",
        String(id),
        "-n",
        dir,
        ...(concurrency ? ["--concurrency", concurrency] : []),
      ]),
    downloadAll: (id, dir) => run(["records", "get-file", "-r", String(id), "-p", dir, "-f"]),
    list: () => run(["records", "get-records", "--jsonl", "-n", "100"]),
    start: run,
  };
}

/** The Deno cache directory of this process (`deno info --json`). */
async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(stdout)) as { denoDir: string }).denoDir;
}

/**
 * The Python client, when `kadi-apy` is on `PATH`, with a `.kadiconfig` in a temporary HOME.
 *
 * @param server The server.
 * @param home A directory for the config file.
 * @param program Path of `kadi-apy`.
 * @returns The client.
 */
export async function pythonClient(server: Server, home: string, program: string): Promise<Client> {
  await Deno.writeTextFile(
    `${home}/.kadiconfig`,
    `[global]\ndefault = bench\ntimeout = 600\nverify = True\n\n[bench]\nhost = ${server.url}\npat = ${server.pat}\n` +
      (server.caPath ? `ca_bundle = ${server.caPath}\n` : ""),
  );
  const env = { HOME: home };
  const run = async (args: string[]) => (await measure([program, ...args], { env })).sample;
  return {
    name: "kadi-apy (Python)",
    upload: (id, path) => run(["records", "add-files", "-r", String(id), "-n", path]),
    download: (id, file, dir) =>
      run(["records", "get-file", "-r", String(id), "-n", file.name, "-p", dir, "-f"]),
    addFolder: (id, dir) => run(["records", "add-files", "-r", String(id), "-n", dir]),
    downloadAll: (id, dir) => run(["records", "get-file", "-r", String(id), "-p", dir, "-f"]),
    start: run,
  };
}

/**
 * The Python client's protocol steps with `niquests` (or `requests`) and one session
 * (`_python_steps.py`), when `python3` with either is on `PATH`: not the Python client, but the requests it sends, in
 * its order, without its start-up, configuration and output. The real client does all of this and
 * more, so its time is a lower bound for the Python client's.
 *
 * @param server The server.
 * @param python Path of `python3`.
 * @returns The client.
 */
export function pythonStepsClient(server: Server, python: string): Client {
  const script = fileURLToPath(new URL("./_python_steps.py", import.meta.url));
  const env = {
    REPO_APY_BENCH_HOST: server.url,
    REPO_APY_BENCH_PAT: server.pat,
    ...(server.caPath ? { REPO_APY_BENCH_CA: server.caPath } : {}),
  };
  const run = async (args: string[]) => (await measure([python, script, ...args], { env })).sample;
  return {
    name: PYTHON_STEPS,
    upload: (id, path) => run(["upload", String(id), path]),
    download: (id, file, dir) => run(["download", String(id), file.name, dir]),
    addFolder: (id, dir) => run(["add-folder", String(id), dir]),
    downloadAll: (id, dir) => run(["download-all", String(id), dir]),
    list: () => run(["list", "0"]),
  };
}

/** Name of {@linkcode pythonStepsClient} in the table. */
export const PYTHON_STEPS = "Python niquests, kadi-apy's steps (lower bound)";

/**
 * Whether `python` can import `niquests` or `requests` (the steps client needs one).
 *
 * @param python Path of `python3`.
 * @returns `true` when it can.
 */
export async function hasRequests(python: string): Promise<boolean> {
  const { success } = await new Deno.Command(python, {
    args: ["-c", "try:\n import niquests\nexcept ImportError:\n import requests"],
    stdout: "null",
    stderr: "null",
  }).output();
  return success;
}

/**
 * `curl` running the protocol steps one process after another: initiate, PUT (direct) or the
 * chunk PUTs (`dd | curl`), finish and polling; for downloads the file's metadata, then the data.
 *
 * @param server The server.
 * @returns The client.
 */
export function curlClient(server: Server): Client {
  const base = `${server.url}/api/v1`;
  const auth = `Authorization: Bearer ${server.pat}`;
  const tls = server.caPath ? ["--cacert", server.caPath] : [];
  const curlCommand = (...args: string[]) => ["curl", "-sS", "--fail", ...tls, "-H", auth, ...args];
  const upload = async (recordId: number, path: string, samples: Sample[]): Promise<void> => {
    const curl = async (args: string[]) => {
      const { stdout, sample } = await measure(curlCommand(...args));
      samples.push(sample);
      return stdout;
    };
    const size = (await Deno.stat(path)).size;
    const init = JSON.stringify({ name: basename(path), size });
    const upload: UploadJson = JSON.parse(
      await curl([
        "-X",
        "POST",
        "-H",
        "Content-Type: application/json",
        "--data",
        init,
        `${base}/records/${recordId}/uploads`,
      ]),
    );
    const target = upload._actions.upload_data as string;
    if (upload.upload_type === "direct") {
      await curl(["-o", "/dev/null", "-X", "PUT", "--data-binary", `@${path}`, target]);
      return;
    }
    const chunk = upload._meta.chunk_size;
    for (let index = 0; index < upload.chunk_count; index++) {
      const length = Math.min(chunk, size - index * chunk);
      const script =
        `dd if='${path}' bs=${chunk} skip=${index} count=1 iflag=fullblock status=none | ` +
        `curl -sS --fail ${
          tls.join(" ")
        } -o /dev/null -X PUT -H '${auth}' -H 'Kadi-Chunk-Index: ${index}' ` +
        `-H 'Kadi-Chunk-Size: ${length}' -H 'Content-Type: application/octet-stream' ` +
        `--data-binary @- '${target}'`;
      samples.push((await measure(["sh", "-c", script])).sample);
    }
    let current: UploadJson = JSON.parse(await curl(["-X", "POST", upload._actions.finish!]));
    let delay = 100;
    while (!current._meta.task?.file) {
      if (current._meta.task?.error) throw new Error(current._meta.task.error);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(2000, delay * 2);
      current = JSON.parse(await curl([upload._links.self as string]));
    }
  };
  return {
    name: "curl (one step at a time)",
    async upload(recordId, path) {
      const samples: Sample[] = [];
      const started = performance.now();
      await upload(recordId, path, samples);
      return combine(samples, (performance.now() - started) / 1000);
    },
    async download(recordId, file, dir) {
      const started = performance.now();
      const url = `${base}/records/${recordId}/files/${file.id}`;
      const steps = [
        await measure(curlCommand("-o", "/dev/null", url)),
        await measure(curlCommand("-o", `${dir}/${file.name}`, `${url}/download`)),
      ];
      return combine(steps.map((s) => s.sample), (performance.now() - started) / 1000);
    },
    async addFolder(recordId, dir) {
      const samples: Sample[] = [];
      const started = performance.now();
      for await (const entry of Deno.readDir(dir)) {
        if (entry.isFile) await upload(recordId, `${dir}/${entry.name}`, samples);
      }
      return combine(samples, (performance.now() - started) / 1000);
    },
    async downloadAll(recordId, dir) {
      const started = performance.now();
      const samples: Sample[] = [];
      const files: FileJson[] = [];
      for await (const page of pages(`${base}/records/${recordId}/files`, samples)) {
        files.push(...page as FileJson[]);
      }
      for (const file of files) {
        const url = `${base}/records/${recordId}/files/${file.id}/download`;
        samples.push((await measure(curlCommand("-o", `${dir}/${file.name}`, url))).sample);
      }
      return combine(samples, (performance.now() - started) / 1000);
    },
    async list() {
      const started = performance.now();
      const samples: Sample[] = [];
      for await (const _ of pages(`${base}/records`, samples));
      return combine(samples, (performance.now() - started) / 1000);
    },
  };

  /** Every page of a list endpoint, 100 items each, one curl process per page. */
  async function* pages(url: string, samples: Sample[]): AsyncGenerator<unknown[]> {
    for (let page = 1;; page++) {
      const { stdout, sample } = await measure(curlCommand(`${url}?per_page=100&page=${page}`));
      samples.push(sample);
      const { items, _pagination } = JSON.parse(stdout);
      yield items;
      if (page >= _pagination.total_pages) return;
    }
  }
}
