// deno-lint-ignore-file no-console -- a script that reports to the terminal
/**
 * Compiles the CLI into one standalone binary per target: `dist/repo-apy-<target>`.
 *
 * `deno compile` needs the `denort` runtime of each target; it downloads it on first use, or
 * takes it from `DENORT_BIN` (one local runtime, so only the host's own target then). Where
 * neither works, this script says so and exits 1 instead of pretending.
 *
 * Usage: `deno task compile [target...]`
 *
 * @module
 */

const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/** What the binary may do: talk to any host, read and write the files it transfers, find its config. */
const PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  // The proxy variables: only with them readable are uploads sent without copies (see lib/http).
  "--allow-env=REPO_APY_CONFIG,HOME,USERPROFILE,SHELL,NO_COLOR,TERM,HTTP_PROXY,http_proxy,HTTPS_PROXY,https_proxy,ALL_PROXY,all_proxy,NO_PROXY,no_proxy",
];

/**
 * Modules loaded as Web Workers, which `deno compile` embeds only when named (the MD5 worker; a
 * binary without it would hash on the main thread, slower).
 */
const INCLUDE = ["--include", "lib/transfer/_md5_worker.ts"];

/**
 * Compiles `cli.ts` for one target.
 *
 * @param target A `deno compile --target` triple.
 * @returns Whether the binary was written.
 */
async function compile(target: string): Promise<boolean> {
  const output = `dist/repo-apy-${target}${target.includes("windows") ? ".exe" : ""}`;
  const command = new Deno.Command("deno", {
    args: ["compile", ...PERMISSIONS, ...INCLUDE, "--target", target, "--output", output, "cli.ts"],
    stdout: "inherit",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
  const { code, stderr } = await command.output();
  if (code === 0) {
    console.log(`built ${output}`);
    return true;
  }
  const message = new TextDecoder().decode(stderr).trim();
  const runtimeMissing = /denort|download|dns|connect|network|tcp/i.test(message);
  console.error(
    runtimeMissing
      ? `Cannot compile for ${target}: deno compile could not obtain the denort runtime for this ` +
        `target (no internet access here). Run this where the internet is reachable, or set ` +
        `DENORT_BIN to a local denort binary of the host's own target.\n${lastLine(message)}`
      : `Cannot compile for ${target}:\n${message}`,
  );
  return false;
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((line) => line.trim());
  return lines.find((line) => /error sending request|dns error/i.test(line)) ??
    lines.find((line) => line.startsWith("error:")) ?? "";
}

if (import.meta.main) {
  const requested = Deno.args.length > 0 ? Deno.args : [...TARGETS];
  const unknown = requested.filter((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown.length > 0) {
    console.error(`Unknown target(s) ${unknown.join(", ")}; choose from ${TARGETS.join(", ")}`);
    Deno.exit(2);
  }
  await Deno.mkdir("dist", { recursive: true });
  let failed = 0;
  for (const target of requested) if (!await compile(target)) failed++;
  if (failed > 0) {
    console.error(`${failed} of ${requested.length} target(s) could not be compiled`);
    Deno.exit(1);
  }
}
