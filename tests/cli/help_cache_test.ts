import { assertEquals } from "../_assert.ts";
import { helpRequest, type HelpTexts, main } from "../../lib/cli/main.ts";
import { renderHelpTexts } from "../../scripts/help_cache.ts";
import helpJson from "../../lib/cli/_help.json" with { type: "json" };
import { layoutHelp } from "../../lib/cli/_help_layout.ts";

Deno.test("lib/cli/_help.json holds the current help of every command (else: deno task help-cache)", async () => {
  const cached = helpJson as HelpTexts;
  const live = await renderHelpTexts();
  assertEquals(Object.keys(cached).sort(), Object.keys(live).sort(), "run `deno task help-cache`");
  for (const [path, text] of Object.entries(live)) {
    assertEquals(cached[path], text, `help of '${path}' is stale: run \`deno task help-cache\``);
  }
});

Deno.test("main() answers a pure help request from the cache, and anything else from commander", async () => {
  assertEquals(helpRequest(["records", "--help"]), "records");
  assertEquals(helpRequest(["records", "create", "-h"]), "records create");
  assertEquals(helpRequest(["--help"]), "");
  assertEquals(helpRequest(["records", "create", "-i", "x", "--help"]), undefined);
  assertEquals(helpRequest(["records", "create"]), undefined);
  let text = "";
  const stdout = (chunk: string) => text += chunk;
  assertEquals(await main(["records", "--help"], { helpWidth: 80, stdout }), 0);
  assertEquals(text, layoutHelp((helpJson as HelpTexts)["records"]!, 80));
  let fallback = "";
  const code = await main(["miscellaneous", "--help"], {
    helpWidth: 80,
    stdout: (chunk) => fallback += chunk,
  });
  assertEquals([code, fallback], [0, layoutHelp((helpJson as HelpTexts)["misc"]!, 80)]);
});
