// The CLI as a child process of a script, confined to one home folder: its config there
// (`<home>/.repoconfig`), reads and writes only there, the network only to 127.0.0.1.

import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

/**
 * Starts `repo-apy <args>` with `home` as its HOME and a cleared environment (Deno's cache kept).
 * Its stdout is discarded unless `stdout` is `"piped"`; its stderr is piped.
 *
 * @example Usage
 * ```ts ignore
 * import { spawnCli } from "./_cli.ts";
 * const { code } = await spawnCli("/tmp/home", ["--version"]).output();
 * console.log(code); // 0
 * ```
 *
 * @param home The folder the run may read and write, holding `.repoconfig`.
 * @param args The CLI's arguments.
 * @param stdout Whether standard output is piped or discarded.
 * @returns The running process.
 */
export function spawnCli(
  home: string,
  args: readonly string[],
  stdout: "piped" | "null" = "null",
): Deno.ChildProcess {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  return new Deno.Command("deno", {
    args: [
      "run",
      "--quiet",
      "--allow-env=REPO_APY_CONFIG,HOME",
      `--allow-read=${home}`,
      `--allow-write=${home}`,
      "--allow-net=127.0.0.1",
      CLI,
      ...args,
    ],
    clearEnv: true,
    env: { HOME: home, DENO_DIR: denoDir, REPO_APY_CONFIG: `${home}/.repoconfig`, NO_COLOR: "1" },
    stdin: "null",
    stdout,
    stderr: "piped",
  }).spawn();
}
