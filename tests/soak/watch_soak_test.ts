// The instrument PC over time: `records sync --watch` runs as its own process while this test
// writes like an instrument (a file every 100 ms, every 20th growing over three seconds, a new
// folder every minute) for REPO_APY_SOAK_MINUTES minutes (default 10). The watcher's resident
// memory is sampled every 5 seconds: it must not grow with the number of files stored. At the end
// every file must be in the record exactly once (one upload each), whole (size and MD5).
//
// V8 grows its young generation step by step up to a fixed maximum (about 54 MB) as a process
// allocates, whatever it keeps; left alone, those steps land anywhere in the run and hide what
// grows with the files. The watcher therefore starts with the young generation at that maximum
// (`--min-semi-space-size`), its steady state after any warm-up; its pages are touched in the
// first minutes (WARM_UP), so memory is compared from then to the end. A run shorter than twice
// that (REPO_APY_SOAK_MINUTES below 6) checks the files and prints the figures only.
import { createHash } from "node:crypto";
import { assert, assertEquals } from "../_assert.ts";
import { POSIX_TOOLS } from "../_platform.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { cliPermissions, spawnCli, tempHome, writeLocalConfig } from "../cli/_run.ts";

const MINUTES = Number(Deno.env.get("REPO_APY_SOAK_MINUTES") ?? "10");
/** Resident memory may grow this much from the end of the warm-up to the end of the run. */
const RSS_GROWTH_LIMIT = 16 * 1024 * 1024;
/** Until then the young generation's pages are touched for the first time. */
const WARM_UP_MS = 3 * 60_000;
/** V8's young generation at its maximum from the start (see above). */
const YOUNG_GENERATION = "--v8-flags=--min-semi-space-size=32";

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Deterministic bytes of a file (not all alike, so a mix-up shows). */
function content(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(size);
  let state = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return data;
}

/** Resident memory of a process in bytes (`ps`, on Linux and macOS). */
async function rss(pid: number): Promise<number> {
  const { stdout } = await new Deno.Command("bash", {
    args: ["-c", `ps -o rss= -p ${pid}`],
    stdout: "piped",
  }).output();
  return Number(new TextDecoder().decode(stdout).trim()) * 1024;
}

const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

Deno.test({
  name:
    "records sync --watch: minutes of instrument-like writes, memory flat, each file once, whole",
  ignore: POSIX_TOOLS.ignore, // RSS from ps; SIGTERM
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  assert(MINUTES > 0, `REPO_APY_SOAK_MINUTES must be a positive number, got ${MINUTES}`);
  await using home = await tempHome();
  await using server = await startServer({ storageDir: `${home.dir}/server` });
  await writeLocalConfig(home.configPath, server.url, server.pat);
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const record = await manager.record({ identifier: "instrument", create: true });
  const data = `${home.dir}/data`;
  await Deno.mkdir(data);

  const started = performance.now();
  const child = spawnCli(home.dir, [
    ...["records", "sync", "-r", String(record.id), "--from", data],
    ...["--watch", "--json", "--settle", "2", "--rescan", "20"],
  ], { permissions: [...cliPermissions(home.dir), YOUNG_GENERATION] });
  const stderr = new Response(child.stderr).text();

  // The watcher's events, counted as they come.
  const stored = new Map<string, number>();
  const errors: string[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => ready = resolve);
  let onStored = () => {};
  const reading = (async () => {
    let buffer = "";
    for await (const text of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += text;
      let end;
      while ((end = buffer.indexOf("\n")) !== -1) {
        const event = JSON.parse(buffer.slice(0, end)) as { type: string; name?: string };
        buffer = buffer.slice(end + 1);
        if (event.type === "ready") ready();
        if (event.type === "error") errors.push(JSON.stringify(event));
        if (event.type === "stored") {
          stored.set(event.name!, (stored.get(event.name!) ?? 0) + 1);
          onStored();
        }
      }
    }
  })();
  await isReady;

  // Memory, every 5 seconds.
  const samples: { at: number; rss: number; stored: number }[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push({
        at: performance.now() - started,
        rss: await rss(child.pid),
        stored: stored.size,
      });
      await delay(5_000);
    }
  })();

  // The instrument.
  const written = new Map<string, Uint8Array>();
  const growing: Promise<void>[] = [];
  const end = started + MINUTES * 60_000;
  let folder = 0;
  let folderSince = performance.now();
  await Deno.mkdir(`${data}/run-0`);
  for (let n = 0; performance.now() < end; n++) {
    if (performance.now() - folderSince >= 60_000) {
      folder++;
      folderSince = performance.now();
      await Deno.mkdir(`${data}/run-${folder}`);
    }
    const name = `run-${folder}/frame-${String(n).padStart(6, "0")}.dat`;
    const bytes = content(200 + (n * 7919) % 4000, n);
    written.set(name, bytes);
    if (n % 20 === 0) {
      // A file written in six pieces over three seconds.
      growing.push((async () => {
        using file = await Deno.open(`${data}/${name}`, { write: true, create: true });
        const piece = Math.ceil(bytes.length / 6);
        for (let at = 0; at < bytes.length; at += piece) {
          await file.write(bytes.subarray(at, at + piece));
          await delay(500);
        }
      })());
    } else {
      await Deno.writeFile(`${data}/${name}`, bytes);
    }
    await delay(100);
  }
  await Promise.all(growing);
  const writing = performance.now() - started;

  // Everything written is stored, then the watcher stops.
  while (stored.size < written.size && errors.length === 0) {
    await new Promise<void>((resolve) => onStored = resolve);
  }
  sampling = false;
  await sampler;
  child.kill("SIGTERM");
  const { code } = await child.status;
  await reading;
  const log = await stderr;
  assertEquals(errors, []);
  assertEquals(code, 130, log);

  // Each file once (one upload each, one stored event each), whole.
  assertEquals([...stored.values()].filter((count) => count !== 1), []);
  assertEquals(stored.size, written.size);
  const uploads = server.log.filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
  assertEquals(uploads, written.size);
  const files = await Array.fromAsync(record.files());
  assertEquals(files.length, written.size);
  for (const file of files) {
    const bytes = written.get(file.name);
    assert(bytes !== undefined, `unexpected file ${file.name}`);
    assertEquals(file.size, bytes.length, file.name);
    assertEquals(file.checksum, createHash("md5").update(bytes).digest("hex"), file.name);
  }

  // Memory does not grow with the files stored: from the end of the warm-up to the end.
  const from = samples.find((sample) => sample.at >= WARM_UP_MS) ?? samples[0]!;
  const last = samples.at(-1)!;
  const peak = Math.max(...samples.map((sample) => sample.rss));
  // deno-lint-ignore no-console
  console.log(
    `watch soak: ${written.size} files in ${folder + 1} folders stored once each in ${
      (writing / 60_000).toFixed(1)
    } min; watcher RSS ${MiB(samples[0]!.rss)} MiB at the start, ${
      MiB(from.rss)
    } MiB after ${from.stored} files, ${
      MiB(last.rss)
    } MiB at the end (${last.stored} files), peak ${MiB(peak)} MiB; each minute (files: MiB): ${
      samples.filter((_, index) => index % 12 === 0)
        .map((sample) => `${sample.stored}: ${MiB(sample.rss)}`).join(", ")
    }`,
  );
  if (writing < 2 * WARM_UP_MS) return; // too short to tell growth from the warm-up
  assert(
    last.rss - from.rss <= RSS_GROWTH_LIMIT,
    `the watcher's memory grew from ${MiB(from.rss)} MiB to ${MiB(last.rss)} MiB`,
  );
});
