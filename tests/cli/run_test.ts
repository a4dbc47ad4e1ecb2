// The CLI process as a whole: behaviour that needs a real stdout pipe.
import { assertEquals } from "../_assert.ts";
import { cliPermissions, tempHome } from "./_run.ts";

const CLI = new URL("../../cli.ts", import.meta.url).pathname;

Deno.test("repo-apy exits quietly with 0 when the reader of stdout goes away (| head)", async () => {
  await using home = await tempHome();
  const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
  const child = new Deno.Command("deno", {
    args: ["run", "--quiet", ...cliPermissions(home.dir), CLI, "records", "--commands"],
    clearEnv: true,
    env: { HOME: home.dir, DENO_DIR: denoDir, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Close the read end before the CLI has started: every write it makes hits EPIPE.
  await child.stdout.cancel();
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  const { code } = await child.status;
  assertEquals(stderr, "");
  assertEquals(code, 0);
});
