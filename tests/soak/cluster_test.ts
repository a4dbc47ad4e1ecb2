// docs/cluster.md's `xargs -P` pattern, run as written: N `repo-apy` processes from one shell
// loop upload a folder tree (one record per subfolder) to the local server while it answers
// some requests with 429; every file must arrive byte-identical and no token may be printed.
// Then, as after a job killed at its time limit, the same line runs again and sends only what is
// missing (`--skip-existing`).
// Credentials come from a config file (REPO_APY_CONFIG), which every process reads.
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertNotIncludes } from "../_assert.ts";
import { writeConfig } from "../../lib/config/write.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { cliPermissions, tempHome } from "../cli/_run.ts";
import { shellQuote, shellWords } from "../_shell.ts";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));
const GUIDE = new URL("../../docs/cluster.md", import.meta.url);
const MARKER = "<!-- tested: tests/soak/cluster_test.ts -->";

/** The shell block right after the marker in docs/cluster.md. */
async function documentedPattern(): Promise<string> {
  const text = await Deno.readTextFile(GUIDE);
  const after = text.slice(text.indexOf(MARKER) + MARKER.length);
  const block = after.match(/```sh\n([\s\S]*?)```/)?.[1];
  assert(text.includes(MARKER) && block !== undefined, `no sh block after ${MARKER} in cluster.md`);
  return block;
}

/** How many uploads were started (direct or chunked). */
function uploads(log: readonly { method: string; path: string; status: number }[]): number {
  return log.filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads") && entry.status < 300
  ).length;
}

/** Deterministic bytes of a given size (not all alike, so a mix-up shows). */
function bytes(size: number, seed: number): Uint8Array {
  const data = new Uint8Array(size);
  let state = seed * 2654435761 >>> 0;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return data;
}

Deno.test({
  name: "docs/cluster.md: the xargs -P pattern uploads a folder tree byte-identical under 429s",
  ignore: Deno.build.os === "windows", // the guide is for POSIX shells on cluster nodes
}, async () => {
  // Rate limiting: a token bucket of 5 requests per second shared by all processes (429 with
  // Retry-After), plus single 429 answers on a spread of requests so that every run meets some
  // (two in a row hit one retry twice).
  const limited = [3, 4, 8, 13, 19, 26, 34];
  await using server = await startServer({
    faults: [...limited.map((nth) => ({ status: 429, retryAfter: "0", nth })), { rateLimit: 5 }],
  });
  await using home = await tempHome();
  await writeConfig(home.configPath, {
    global: { default: "cluster", extra: {} },
    instances: new Map([["cluster", { host: server.url, pat: server.pat, extra: {} }]]),
  });
  const tree = `${home.dir}/run42`;
  const expected = new Map<string, Map<string, Uint8Array>>();
  for (let sample = 1; sample <= 4; sample++) {
    const id = `sample-0${sample}`;
    await Deno.mkdir(`${tree}/${id}`, { recursive: true });
    const files = new Map([
      ["raw.bin", bytes(150_000 + sample * 7_919, sample)],
      ["meta.json", new TextEncoder().encode(JSON.stringify({ sample, unit: "µm" }))],
      ["empty.txt", new Uint8Array()],
    ]);
    for (const [name, data] of files) await Deno.writeFile(`${tree}/${id}/${name}`, data);
    expected.set(id, files);
  }
  const bin = `${home.dir}/bin`;
  await Deno.mkdir(bin);
  await Deno.writeTextFile(
    `${bin}/repo-apy`,
    `#!/bin/sh\nexec ${
      shellWords(["deno", "run", "--quiet", ...cliPermissions(home.dir), CLI])
    } "$@"\n`,
    { mode: 0o755 },
  );

  const script = `set -euo pipefail\nexport PATH=${
    shellQuote(bin)
  }:"$PATH"\n${await documentedPattern()}`;
  const runPattern = async () => {
    const { code, stdout, stderr } = await new Deno.Command("bash", {
      args: ["-c", script],
      env: { DATA: tree, JOBS: "4", REPO_APY_CONFIG: home.configPath, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    assertEquals(code, 0, out);
    assertNotIncludes(out, server.pat);
  };
  await runPattern();
  const limitedAnswers = server.log.filter((entry) => entry.status === 429).length;
  assertEquals(limitedAnswers >= limited.length, true, `${limitedAnswers} answers were 429`);
  assertEquals(uploads(server.log), 12);

  // A job killed before it finished: one file never arrived. Running the same line again
  // uploads only that file.
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const partial = await manager.record({ identifier: "sample-03" });
  await partial.deleteFile(await partial.getFileId("raw.bin"));
  const uploadsBefore = uploads(server.log);
  await runPattern();
  assertEquals(uploads(server.log) - uploadsBefore, 1);

  for (const [id, files] of expected) {
    const record = await manager.record({ identifier: id });
    const names = (await Array.fromAsync(record.files())).map((file) => file.name).sort();
    assertEquals(names, [...files.keys()].sort(), id);
    for (const [name, data] of files) {
      const body = await record.downloadFile(await record.getFileId(name));
      assertEquals(new Uint8Array(await new Response(body).arrayBuffer()), data, `${id}/${name}`);
    }
  }
});
