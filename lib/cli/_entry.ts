// The process entry of the CLI, shared by the `cli.ts` script and the `./cli` export
// (`lib/cli/mod.ts`) when either runs as the main module (`deno run`, `deno install`,
// `deno compile`): the process's arguments, Ctrl-C as an abort signal, the exit code.

import { withInterrupts } from "./_interrupts.ts";
import { main } from "./main.ts";

/** Runs `main()` on `Deno.args` and sets the process's exit code; a second Ctrl-C exits 130. */
export async function runProcess(): Promise<void> {
  Deno.exitCode = await withInterrupts(
    (signal) => main(Deno.args, { signal }),
    () => Deno.exit(130),
  );
}
