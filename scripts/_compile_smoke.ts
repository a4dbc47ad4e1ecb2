/**
 * The check `scripts/compile.ts` runs on each binary this machine can run: `--version`, then a
 * records round trip against the local server (create a record, upload a small file, download
 * it into an empty folder, compare the bytes). Everything happens in a temporary folder beside
 * the binary, removed afterwards.
 *
 * @module
 */

import { writeConfig } from "../lib/config/write.ts";
import { startServer } from "../lib/testing/mod.ts";

/**
 * Runs the binary's checks.
 *
 * @param command The binary to run, with any words that go before the arguments (a test runs
 * `["bash", "wrapper.sh"]`).
 * @param version The version `--version` must print.
 * @returns `null` when the binary works, else what went wrong.
 */
export async function smokeTest(
  command: readonly [string, ...string[]],
  version: string,
): Promise<string | null> {
  const [program, ...before] = command;
  const work = `${command.at(-1)}.smoke`;
  await Deno.mkdir(`${work}/in`, { recursive: true });
  await Deno.mkdir(`${work}/out`, { recursive: true });
  try {
    await using server = await startServer({ storageDir: `${work}/server` });
    await writeConfig(`${work}/.repoconfig`, {
      global: { default: "local", extra: {} },
      instances: new Map([["local", { host: server.url, pat: server.pat, extra: {} }]]),
    });
    const run = async (args: string[]) => {
      const { code, stdout, stderr } = await new Deno.Command(program, {
        args: [...before, ...args],
        clearEnv: true,
        env: { REPO_APY_CONFIG: `${work}/.repoconfig`, HOME: work, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(stdout).trim();
      if (code !== 0) {
        throw new Error(`'${args.join(" ")}' exited ${code}: ${new TextDecoder().decode(stderr)}`);
      }
      return text;
    };
    const printed = await run(["--version"]);
    if (printed !== version) {
      return `--version printed '${printed.split("\n")[0]}' instead of '${version}'`;
    }
    const id = await run(["records", "create", "-i", "compile-check", "-p"]);
    const data = crypto.getRandomValues(new Uint8Array(64 * 1024));
    await Deno.writeFile(`${work}/in/check.bin`, data);
    await run(["records", "add-files", "-r", id, "-n", `${work}/in/check.bin`]);
    await run(["records", "get-file", "-r", id, "-n", "check.bin", "-p", `${work}/out`]);
    const back = await Deno.readFile(`${work}/out/check.bin`);
    if (back.length !== data.length || back.some((byte, i) => byte !== data[i])) {
      return "the downloaded file differs from the uploaded one";
    }
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}
