// Ctrl-C and SIGTERM as an abort signal for one CLI run. Kept apart from run.ts so the `cli.ts`
// script can install it without loading commander.

/** Process signals that interrupt the CLI. */
const INTERRUPTS: Deno.Signal[] = Deno.build.os === "windows"
  ? ["SIGINT", "SIGBREAK"]
  : ["SIGINT", "SIGTERM"];

/**
 * Runs `run` with an abort signal that the process's interrupts (Ctrl-C, SIGTERM) abort. A second
 * interrupt calls `onForce` (the program exits at once). The listeners are removed afterwards.
 *
 * @example Usage
 * ```ts
 * import { main } from "@repo/apy/cli";
 * import { withInterrupts } from "@repo/apy/cli/kit";
 * import assert from "node:assert";
 *
 * const lines: string[] = [];
 * const code = await withInterrupts(
 *   (signal) => main(["--version"], { signal, stdout: (text) => lines.push(text) }),
 *   () => Deno.exit(130), // a second Ctrl-C
 * );
 * assert.strictEqual(code, 0);
 * ```
 *
 * @param run The program, given the signal.
 * @param onForce Called on a second interrupt.
 * @returns What `run` returns.
 */
export async function withInterrupts<T>(
  run: (signal: AbortSignal) => Promise<T>,
  onForce: () => void,
): Promise<T> {
  const controller = new AbortController();
  const listener = () => {
    if (controller.signal.aborted) onForce();
    controller.abort(new DOMException("Interrupted", "AbortError"));
  };
  for (const signal of INTERRUPTS) Deno.addSignalListener(signal, listener);
  try {
    return await run(controller.signal);
  } finally {
    for (const signal of INTERRUPTS) Deno.removeSignalListener(signal, listener);
  }
}
