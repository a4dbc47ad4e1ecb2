// The demo prints its commands shell-quoted, so they can be copied into a shell (issue 9).

import { assertEquals } from "../_assert.ts";
import { shellQuote } from "../../scripts/demo.ts";
import { POSIX_TOOLS } from "../_platform.ts";

Deno.test("shellQuote() gives words a POSIX shell reads back unchanged", POSIX_TOOLS, async () => {
  const args = [
    "add-metadata",
    '[{"key": "sample", "type": "str", "value": "A-17"}]',
    "Demo record",
    "°C",
    "it's",
    "*.h5",
    "$HOME",
    "",
    "/tmp/x-1.txt",
  ];
  assertEquals(shellQuote("/tmp/x-1.txt"), "/tmp/x-1.txt");
  assertEquals(shellQuote("Demo record"), "'Demo record'");
  const { stdout } = await new Deno.Command("bash", {
    args: ["-c", `printf '%s\\n' ${args.map(shellQuote).join(" ")}`],
    stdout: "piped",
  }).output();
  assertEquals(new TextDecoder().decode(stdout), args.map((arg) => `${arg}\n`).join(""));
});
