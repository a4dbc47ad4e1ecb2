// deno-lint-ignore-file no-console -- a check script that reports to the terminal
/**
 * `deno doc --lint` over every public entry point (`mod.ts`, `cli.ts`, `lib/cli/mod.ts`, `lib/testing/mod.ts`).
 *
 * The `./cli` entry point hands commander's `Command` to third-party commands (that is its job:
 * `apyCommand` wraps a commander command). Commander's own types are not ours to document, so
 * "references private type" errors that name one of them are accepted; every other finding fails.
 *
 * @module
 */

const THIRD_PARTY_TYPES = new Set(["Command", "CommandUnknownOpts", "OptionValues"]);

if (import.meta.main) {
  const { stderr, stdout } = await new Deno.Command("deno", {
    args: ["doc", "--lint", "mod.ts", "cli.ts", "lib/cli/mod.ts", "lib/testing/mod.ts"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stderr) + new TextDecoder().decode(stdout);
  const findings = text.split(/\n(?=error\[)/).filter((block) => block.startsWith("error["));
  const accepted = findings.filter((block) => {
    const match = block.match(/^error\[private-type-ref\]: .* references private type '([^']+)'/);
    return match !== null && THIRD_PARTY_TYPES.has(match[1] ?? "");
  });
  const rejected = findings.filter((block) => !accepted.includes(block));
  for (const block of rejected) console.error(block.trimEnd(), "\n");
  console.log(
    `doc lint: ${rejected.length} finding(s); ${accepted.length} reference(s) to commander's types accepted`,
  );
  if (rejected.length > 0) Deno.exit(1);
}
