// README's quick starts run as written (issue 9): the library snippet with README's own
// `deno.json` and permission flags, and the CLI snippet with the CLI installed the README's way,
// both against the local server.

import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes } from "./_assert.ts";
import { startServer } from "../lib/testing/mod.ts";
import { POSIX_TOOLS } from "./_platform.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const README = await Deno.readTextFile(`${ROOT}/README.md`);
const DENO_DIR = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;

/** The fenced blocks of `lang` in the README section headed `heading`. */
function blocks(heading: string, lang: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section '${heading}'`);
  const end = README.indexOf("\n## ", start + 4);
  const section = README.slice(start, end < 0 ? undefined : end);
  const found: string[] = [];
  const fence = /^( *)```([a-z]*)[^\n]*\n([\s\S]*?)^\1```$/gm;
  for (const match of section.matchAll(fence)) {
    const indent = match[1] ?? "";
    const body = (match[3] ?? "").split("\n").map((line) => line.slice(indent.length)).join("\n");
    if (match[2] === lang) found.push(body);
  }
  if (found.length === 0) throw new Error(`README's '${heading}' has no ${lang} block`);
  return found;
}

async function bash(
  script: string,
  options: { cwd: string; env: Record<string, string>; stdin?: string },
) {
  const child = new Deno.Command("bash", {
    args: ["-euc", script],
    cwd: options.cwd,
    env: { DENO_DIR, NO_COLOR: "1", ...options.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

async function dataDir(dir: string): Promise<Uint8Array> {
  const bytes = crypto.getRandomValues(new Uint8Array(50_000));
  await Deno.mkdir(`${dir}/data`);
  await Deno.writeFile(`${dir}/data/measurement.h5`, bytes);
  return bytes;
}

/**
 * Sets up README's library project in `dir` (its `deno.json`, `quickstart.ts`, a data file) and
 * runs README's commands with the local server's host and token (none: the variable is left out).
 */
async function runLibraryQuickStart(dir: string, host: string, pat: string | undefined) {
  const [config] = blocks("Get the library", "json");
  await Deno.writeTextFile(`${dir}/deno.json`, config!.replace('"../repo-apy"', `"${ROOT}"`));
  await Deno.writeTextFile(`${dir}/quickstart.ts`, blocks("Library quick start", "ts")[0]!);
  const bytes = await dataDir(dir);
  const [commands] = blocks("Library quick start", "sh");
  const withPat = pat === undefined
    ? commands!.replace(/ REPO_APY_PAT=pat_\.\.\./, "")
    : commands!.replaceAll("pat_...", pat);
  const run = await bash(
    withPat.replaceAll("https://repo.example", host)
      .replaceAll("--allow-net=repo.example", `--allow-net=${new URL(host).host}`),
    { cwd: dir, env: { HOME: dir } },
  );
  return { bytes, run };
}

Deno.test(
  "README's library quick start runs as written with README's deno.json and flags",
  POSIX_TOOLS,
  async () => {
    await using server = await startServer();
    const dir = await Deno.makeTempDir({ prefix: "repo-apy-readme-lib-" });
    try {
      const { bytes, run } = await runLibraryQuickStart(dir, server.url, server.pat);
      assertEquals(run.code, 0, run.stderr);
      assertStringIncludes(run.stdout, "measurement.h5 50000");
      assertEquals(await Deno.readFile(`${dir}/out/measurement.h5`), bytes);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "README's library quick start without REPO_APY_PAT says the pat is missing",
  POSIX_TOOLS,
  async () => {
    await using server = await startServer();
    const dir = await Deno.makeTempDir({ prefix: "repo-apy-readme-nopat-" });
    try {
      const { run } = await runLibraryQuickStart(dir, server.url, undefined);
      assertEquals(run.code, 1);
      assertStringIncludes(run.stderr, "No pat was given");
      assertStringIncludes(run.stderr, "REPO_APY_PAT");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  "README's CLI quick start runs as written with the CLI installed from the checkout",
  POSIX_TOOLS,
  async () => {
    // README's example user of `groups add-user`: the second user of README's serve line.
    const serve = /--user (\w+):/.exec(README)?.[1] ?? "";
    assertEquals(serve, "alice");
    await using server = await startServer({ users: [{ username: serve }] });
    const dir = await Deno.makeTempDir({ prefix: "repo-apy-readme-cli-" });
    try {
      const install = blocks("Get the CLI", "sh").find((block) => block.includes("./cli.ts"));
      const installed = await bash(install!, {
        cwd: ROOT,
        env: { HOME: dir, DENO_INSTALL_ROOT: `${dir}/root` },
      });
      assertEquals(installed.code, 0, installed.stderr);
      const work = `${dir}/work`;
      await Deno.mkdir(work);
      const bytes = await dataDir(work);
      const env = { HOME: dir };
      const path = `export PATH="${dir}/root/bin:$PATH"; `;
      let output = "";
      for (const line of blocks("CLI quick start", "sh")[0]!.split("\n")) {
        if (line.trim() === "") continue;
        const stdin = line.includes("set-host")
          ? `${server.url}\n`
          : line.includes("set-pat")
          ? `${server.pat}\n`
          : "";
        const run = await bash(path + line, { cwd: work, env, stdin });
        assertEquals(run.code, 0, `${line}\n${run.stderr}`);
        output += run.stdout + run.stderr;
      }
      assertStringIncludes(output, `${server.url}`);
      assertEquals(output.includes(server.pat), false);
      assertStringIncludes(output, "out/measurement.h5");
      assertEquals(await Deno.readFile(`${work}/out/measurement.h5`), bytes);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
