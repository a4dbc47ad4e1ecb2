// Runs the CLI as a real subprocess with narrow permissions and a temporary HOME.

import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../../cli.ts", import.meta.url));

/** What a CLI run produced. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A temporary home directory holding the config file. */
export interface TempHome extends AsyncDisposable {
  dir: string;
  configPath: string;
}

/** Creates a temporary home directory, removed on dispose. */
export async function tempHome(): Promise<TempHome> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-cli-" }));
  return {
    dir,
    configPath: `${dir}/.repoconfig`,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The permission flags the CLI subprocess gets. */
export function cliPermissions(home: string): string[] {
  return [
    "--allow-env=REPO_APY_CONFIG,HOME",
    `--allow-read=${home}`,
    `--allow-write=${home}`,
    "--allow-net=127.0.0.1",
  ];
}

/** Writes a config file at `path` whose default instance `local` is `host` with `pat` (mode 0600). */
export async function writeLocalConfig(path: string, host: string, pat: string): Promise<void> {
  await Deno.writeTextFile(
    path,
    `[global]\ndefault = "local"\n\n[local]\nhost = "${host}"\npat = "${pat}"\n`,
    { mode: 0o600 },
  );
}

/** Options of a CLI subprocess. */
export interface CliOptions {
  env?: Record<string, string>;
  permissions?: string[];
}

/**
 * Starts `repo-apy <args>` with HOME set to `home`; stdout and stderr are piped for the caller,
 * stdin is `null` unless `stdin` says `piped`.
 */
export function spawnCli(
  home: string,
  args: string[],
  options: CliOptions & { stdin?: "piped" | "null" } = {},
): Deno.ChildProcess {
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  return new Deno.Command("deno", {
    args: ["run", "--quiet", ...(options.permissions ?? cliPermissions(home)), CLI, ...args],
    clearEnv: true,
    env: { HOME: home, DENO_DIR: denoDir, NO_COLOR: "1", ...options.env },
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Runs `repo-apy <args>` with HOME set to `home`, feeding `stdin` if given. */
export async function runCli(
  home: string,
  args: string[],
  options: CliOptions & { stdin?: string } = {},
): Promise<RunResult> {
  const child = spawnCli(home, args, { ...options, stdin: "piped" });
  const writer = child.stdin.getWriter();
  if (options.stdin !== undefined) await writer.write(new TextEncoder().encode(options.stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}
