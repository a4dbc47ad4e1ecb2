/**
 * The `repo-apy` command line interface. Run it with `deno run <permissions> cli.ts <group>
 * <command> [options]`; `deno task compile` builds it into a binary. Exit codes: 0 success, 1 the
 * operation failed (message on stderr), 2 wrong usage, 130 interrupted (Ctrl-C or SIGTERM: one
 * line says what was left and how to continue).
 *
 * The CLI's reusable parts (and {@linkcode main}) are the `./cli` export, `lib/cli/mod.ts`. This
 * script imports only {@linkcode main}, which loads the command group a run names and nothing
 * else, so start-up stays short.
 *
 * @example Usage
 * ```ts
 * import { main } from "./cli.ts";
 * const lines: string[] = [];
 * const code = await main(["--version"], { stdout: (text) => lines.push(text) });
 * console.log(code, lines.join("").trim()); // 0 "0.51.0"
 * ```
 *
 * @module
 */

export { main, type MainOptions } from "./lib/cli/main.ts";
import { withInterrupts } from "./lib/cli/_interrupts.ts";
import { main } from "./lib/cli/main.ts";

if (import.meta.main) {
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
