// The CLI process as a whole: behaviour that needs a real stdout pipe.
import { assertEquals } from "../_assert.ts";
import { spawnCli, tempHome } from "./_run.ts";

Deno.test("repo-apy exits quietly with 0 when the reader of stdout goes away (| head)", async () => {
  await using home = await tempHome();
  const child = spawnCli(home.dir, ["records", "--commands"]);
  // Close the read end before the CLI has started: every write it makes hits EPIPE.
  await child.stdout.cancel();
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  const { code } = await child.status;
  assertEquals(stderr, "");
  assertEquals(code, 0);
});
