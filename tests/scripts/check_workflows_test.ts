// scripts/check_workflows.ts: the workflows parse and keep their promises; broken copies fail.
// Run as a subprocess: the YAML parser reads two debug variables the tests do not grant.
import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes } from "../_assert.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

async function check(root?: string): Promise<{ code: number; stderr: string }> {
  const { code, stderr } = await new Deno.Command("deno", {
    args: [
      "run",
      "--allow-read",
      "--allow-env=LOG_TOKENS,LOG_STREAM",
      "scripts/check_workflows.ts",
      ...(root === undefined ? [] : [root]),
    ],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

/** A copy of `./dev` and the workflows, with `edit` applied to one workflow's text. */
async function brokenCopy(
  name: string,
  edit: (text: string) => string,
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "repo-apy-workflows-" });
  await Deno.mkdir(`${dir}/.github/workflows`, { recursive: true });
  await Deno.copyFile(`${ROOT}dev`, `${dir}/dev`);
  for (const file of ["ci.yml", "release.yml"]) {
    const text = await Deno.readTextFile(`${ROOT}.github/workflows/${file}`);
    await Deno.writeTextFile(`${dir}/.github/workflows/${file}`, file === name ? edit(text) : text);
  }
  return dir;
}

Deno.test("check_workflows.ts accepts the project's workflows", async () => {
  const { code, stderr } = await check();
  assertEquals(code, 0, stderr);
});

Deno.test("check_workflows.ts fails broken workflows with one line each", async () => {
  const cases: [string, (text: string) => string, string][] = [
    ["ci.yml", (t) => t.replace("jobs:", "jobs: [\n"), "ci.yml: not valid YAML"],
    ["ci.yml", (t) => t.replace(", windows-latest", ""), "ci.yml: does not run on windows"],
    [
      "ci.yml",
      (t) => t.replace("deno task test", "deno task tset"),
      "no step runs 'deno task test'",
    ],
    ["ci.yml", (t) => t.replace("v2.9.6", "v2.0.0"), "setup-deno pins 'v2.0.0'"],
    ["release.yml", (t) => t.replace("id-token: write", "id-token: read"), "id-token: write"],
    ["release.yml", (t) => t.replace('tags: ["v*"]', "branches: [main]"), "does not run on tags"],
    ["release.yml", (t) => t.replace(" dist/SHA256SUMS\n", "\n"), "an upload of SHA256SUMS"],
    ["release.yml", (t) => t.replace("runs-on: ubuntu-latest", "os: x"), "has no 'runs-on'"],
  ];
  for (const [name, edit, expected] of cases) {
    const dir = await brokenCopy(name, edit);
    try {
      const { code, stderr } = await check(dir);
      assertEquals(code, 1, `${expected}: ${stderr}`);
      assertStringIncludes(stderr, expected);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
