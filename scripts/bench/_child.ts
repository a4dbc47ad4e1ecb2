// Shared by the benchmarks: each measured case runs in its own process (`--child`), so its peak
// RSS (VmHWM) is its own; the child prints its result as the last line of JSON.

/** Peak resident memory of this process so far, in kB (Linux `/proc/self/status` VmHWM). */
import { fileURLToPath } from "node:url";

export async function peakRssKb(): Promise<number> {
  const status = await Deno.readTextFile("/proc/self/status");
  return Number(/VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
}

/** Runs `script --child ...args` with all permissions and parses its last stdout line. */
export async function runChild<T>(script: string | URL, args: string[]): Promise<T> {
  const path = script instanceof URL ? fileURLToPath(script) : script;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", path, "--child", ...args],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`the case ${args[0]} failed`);
  const lines = new TextDecoder().decode(output.stdout).trim().split("\n");
  return JSON.parse(lines.at(-1) ?? "{}");
}
