// scripts/compile.ts: an honest failure where denort cannot be had, and the check it runs on a
// binary (--version and a records round trip), run here on a stand-in for the binary.
import { fileURLToPath } from "node:url";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { smokeTest } from "../../scripts/_compile_smoke.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { POSIX_TOOLS } from "../_platform.ts";
import { shellQuote, shellWords } from "../_shell.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

async function tempDir(): Promise<string> {
  return await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-compile-" }));
}

Deno.test("compile.ts says the runtime is missing, exits 1 and claims no binary or SHA256SUMS", async () => {
  const out = await tempDir();
  try {
    await Deno.writeTextFile(`${out}/SHA256SUMS`, "stale  repo-apy-old\n");
    const { code, stdout, stderr } = await new Deno.Command("deno", {
      args: [
        "run",
        "--allow-read",
        `--allow-write=${out}`,
        "--allow-run",
        "--allow-net=127.0.0.1",
        "--allow-env=DENORT_BIN",
        "scripts/compile.ts",
        `--out-dir=${out}`,
        "x86_64-unknown-linux-gnu",
      ],
      cwd: ROOT,
      env: { DENORT_BIN: `${out}/no-such-denort`, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(stderr);
    assertEquals(code, 1, text);
    assertStringIncludes(text, "Cannot compile for x86_64-unknown-linux-gnu");
    assertStringIncludes(text, "could not obtain the denort runtime");
    assertStringIncludes(text, "DENORT_BIN");
    assertStringIncludes(text, "no binary and no SHA256SUMS were written");
    assertEquals(new TextDecoder().decode(stdout).includes("built "), false);
    assertEquals((await Array.fromAsync(Deno.readDir(out))).map((entry) => entry.name), []);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("compile.ts says one line per target and where a denort comes from once", async () => {
  const out = await tempDir();
  try {
    const { code, stderr } = await new Deno.Command("deno", {
      args: [
        "run",
        "--allow-read",
        `--allow-write=${out}`,
        "--allow-run",
        "--allow-net=127.0.0.1",
        "--allow-env=DENORT_BIN",
        "scripts/compile.ts",
        `--out-dir=${out}`,
        "x86_64-unknown-linux-gnu",
        "aarch64-apple-darwin",
      ],
      cwd: ROOT,
      env: { DENORT_BIN: `${out}/no-such-denort`, NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    const lines = new TextDecoder().decode(stderr).trimEnd().split("\n");
    assertEquals(code, 1);
    assertEquals(lines.length, 4, lines.join("\n"));
    assertStringIncludes(lines[0]!, "Cannot compile for x86_64-unknown-linux-gnu: ");
    assertStringIncludes(lines[1]!, "Cannot compile for aarch64-apple-darwin: ");
    assert(lines.every((line, i) => line.length < 250 || i === 2), lines.join("\n"));
    assertStringIncludes(lines[2]!, "github.com/denoland/deno/releases");
    assertStringIncludes(lines[2]!, "DENORT_BIN=/path/to/denort");
    assertEquals(lines.filter((line) => line.includes("DENORT_BIN")).length, 1);
    assertStringIncludes(lines[3]!, "2 of 2 target(s) not built");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("compile.ts rejects an unknown target with exit code 2", POSIX_TOOLS, async () => {
  const { code, stderr } = await new Deno.Command("deno", {
    args: [
      "run",
      "--allow-read",
      "--allow-write=/tmp",
      "scripts/compile.ts",
      "--out-dir=/tmp",
      "pdp11",
    ],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  assertEquals(code, 2);
  assertStringIncludes(new TextDecoder().decode(stderr), "Unknown target(s) pdp11");
});

Deno.test(
  "the binary check passes a working CLI: --version and a records round trip",
  POSIX_TOOLS,
  async () => {
    const dir = await tempDir();
    try {
      const wrapper = `${dir}/repo-apy.sh`;
      // The check clears the environment, as a user's shell would not; keep Deno's module cache,
      // and run this very Deno by its path (PATH is cleared too, and ./dev may have installed it).
      const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
      const words = [
        Deno.execPath(),
        "run",
        "--quiet",
        "--allow-net=127.0.0.1",
        `--allow-read=${dir}`,
        `--allow-write=${dir}`,
        "--allow-env=REPO_APY_CONFIG,HOME",
        CLI,
      ];
      await Deno.writeTextFile(
        wrapper,
        `DENO_DIR=${shellQuote(denoDir)} exec ${shellWords(words)} "$@"\n`,
      );
      assertEquals(await smokeTest(["bash", wrapper], denoJson.version), null);
      const left = (await Array.fromAsync(Deno.readDir(dir))).map((entry) => entry.name);
      assertEquals(left, ["repo-apy.sh"]); // the check's folder and server storage are gone
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("the binary check fails a binary that prints another version", POSIX_TOOLS, async () => {
  const dir = await tempDir();
  try {
    const wrapper = `${dir}/deno-itself.sh`;
    await Deno.writeTextFile(wrapper, `echo "deno 2.9.6 (stable)"\necho "v8"\n`);
    const problem = await smokeTest(["bash", wrapper], denoJson.version);
    assert(problem !== null);
    assertEquals(
      problem,
      `--version printed 'deno 2.9.6 (stable)' instead of '${denoJson.version}'`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
