import { assertEquals, assertRejects } from "../_assert.ts";
import { parseConfig } from "../../lib/config/parse.ts";
import { writeConfig } from "../../lib/config/write.ts";
import type { RepoConfig } from "../../lib/config/types.ts";
import { ConfigurationError } from "../../lib/errors.ts";

const CONFIG: RepoConfig = {
  global: {
    default: "main",
    timeout: 30,
    whitelist: ["https://a.example"],
    extra: { custom: "x" },
  },
  instances: new Map([
    ["main", { host: "https://repo.example", pat: "pat_x", verify: false, extra: {} }],
    ["second one", { host: "", pat: "", caBundle: "/ca.pem", basePath: "/sub", extra: {} }],
  ]),
};

Deno.test("writeConfig() creates the file with mode 0600 and round-trips", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await writeConfig(path, CONFIG);
    if (Deno.build.os !== "windows") assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
    const text = await Deno.readTextFile(path);
    assertEquals(text.startsWith("[global]\n"), true);
    assertEquals(parseConfig(text, path), CONFIG);
    assertEquals([...Deno.readDirSync(dir)].map((entry) => entry.name), [".repoconfig"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeConfig() replaces a group-readable file with a 0600 one", async () => {
  if (Deno.build.os === "windows") return;
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, "[global]\n", { mode: 0o644 });
    await Deno.chmod(path, 0o644);
    await writeConfig(path, CONFIG);
    assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeConfig() explains a missing directory and leaves no temporary file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/missing/.repoconfig`;
    const error = await assertRejects(() => writeConfig(path, CONFIG), ConfigurationError);
    assertEquals(error.message.startsWith(`Cannot write the config file ${path} (`), true);
    assertEquals(
      error.message.endsWith(
        "check that its directory exists and is writable, or set REPO_APY_CONFIG to another path",
      ),
      true,
    );
    assertEquals([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
