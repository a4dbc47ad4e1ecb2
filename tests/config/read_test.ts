import { assertEquals, assertRejects } from "../_assert.ts";
import { readConfig } from "../../lib/config/read.ts";
import { ConfigurationError } from "../../lib/http/errors.ts";
import { ConfigFileError } from "../../lib/config/errors.ts";

const TEXT = '[global]\ndefault = "main"\n[main]\nhost = "https://repo.example"\npat = "pat_x"\n';

Deno.test("readConfig() warns when group or others may read the file", async () => {
  if (Deno.build.os === "windows") return;
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, TEXT);
    const warnings: string[] = [];
    for (const mode of [0o600, 0o400, 0o640, 0o602]) {
      await Deno.chmod(path, mode);
      await readConfig(path, { warn: (message) => warnings.push(message) });
    }
    assertEquals(warnings, [
      `The config file ${path} can be read or written by other users (mode 640): run 'chmod 600 ${path}' to keep your access token private`,
      `The config file ${path} can be read or written by other users (mode 602): run 'chmod 600 ${path}' to keep your access token private`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readConfig() explains a path that is a directory", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const error = await assertRejects(() => readConfig(dir), ConfigurationError);
    assertEquals(
      error.message.startsWith(`The config path ${dir} is a directory`) ||
        error.message.startsWith(`Cannot read the config file ${dir}`),
      true,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "readConfig() explains a missing read permission",
  permissions: { read: false },
  async fn() {
    const error = await assertRejects(() => readConfig("/etc/.repoconfig"), ConfigurationError);
    assertEquals(
      error.message,
      "No permission to read the config file /etc/.repoconfig: run Deno with --allow-read=/etc/.repoconfig, or pass host and pat directly",
    );
    assertEquals(error instanceof ConfigFileError && error.problem, "notPermitted");
    assertEquals(error instanceof ConfigFileError && error.path, "/etc/.repoconfig");
    assertEquals(error.cause instanceof Deno.errors.NotCapable, true);
  },
});

Deno.test("readConfig() explains a file the user may not read", async () => {
  if (Deno.build.os === "windows") return;
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, TEXT, { mode: 0o000 });
    await Deno.chmod(path, 0o000);
    const readable = await Deno.readTextFile(path).then(() => true, () => false);
    if (readable) return; // root reads anything: nothing to check
    const error = await assertRejects(() => readConfig(path), ConfigurationError);
    assertEquals(
      error.message,
      `The config file ${path} is not readable by you: run 'chmod 600 ${path}' as its owner, or pass host and pat directly`,
    );
    assertEquals(error instanceof ConfigFileError && error.problem, "notReadable");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readConfig(): a missing file is a ConfigFileError naming the file and the settings", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const error = await assertRejects(
      () => readConfig(`${dir}/none`, { missing: ["host"] }),
      ConfigFileError,
    );
    assertEquals([error.problem, error.path, error.missing], ["notFound", `${dir}/none`, ["host"]]);
    const plain = await assertRejects(() => readConfig(`${dir}/none`), ConfigFileError);
    assertEquals(plain.missing, ["host", "pat"]);
    // A directory is not a file the user forgot: a plain ConfigurationError, no settings named.
    const folder = await assertRejects(() => readConfig(dir), ConfigurationError);
    assertEquals(folder instanceof ConfigFileError, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
