// The process entry of the CLI, run by `cli.ts` (the `./cli` export) when it is the main module
// (`deno run`, `deno install`, `deno compile`): the process's arguments, Ctrl-C as an abort
// signal, the exit code.

import { withInterrupts } from "./_interrupts.ts";
import { main } from "./main.ts";

/**
 * Runs `main()` on `Deno.args` and sets the process's exit code; a second Ctrl-C exits 130 at
 * once, and an interrupted run exits right away.
 */
export async function runProcess(): Promise<void> {
  const code = await withInterrupts(
    (signal) => main(Deno.args, { signal }),
    () => {
      // A second Ctrl-C while the first one's cleanup runs: stop at once, on a line of its own.
      Deno.stderr.writeSync(new TextEncoder().encode("\nInterrupted again: stopped at once\n"));
      Deno.exit(130);
    },
  );
  // An interrupted run may leave a read of stdin waiting (a question cancelled): end now.
  if (code === 130) Deno.exit(code);
  Deno.exitCode = code;
}
