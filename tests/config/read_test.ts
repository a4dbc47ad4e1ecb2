import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { MAX_CONFIG_BYTES, readConfig } from "../../lib/config/read.ts";
import { tempDir } from "../_temp.ts";
import { cliPermissions, spawnCli, tempHome } from "../cli/_run.ts";
import { ConfigurationError } from "../../lib/errors.ts";
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

/** Runs `config show-instances` with REPO_APY_CONFIG=`path`; killed if it hangs (the defect). */
async function showInstancesOf(path: string): Promise<{ code: number; stderr: string }> {
  await using home = await tempHome();
  const child = spawnCli(home.dir, ["config", "show-instances"], {
    env: { REPO_APY_CONFIG: path },
    permissions: [
      ...cliPermissions(home.dir).filter((flag) => !flag.startsWith("--allow-read")),
      `--allow-read=${home.dir},${path}`,
    ],
  });
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  try {
    const { code, stderr } = await child.output();
    return { code, stderr: new TextDecoder().decode(stderr) };
  } finally {
    clearTimeout(guard);
  }
}

Deno.test("REPO_APY_CONFIG=/dev/zero is refused as a device, not read", async () => {
  if (Deno.build.os === "windows") return;
  const { code, stderr } = await showInstancesOf("/dev/zero");
  assertEquals(code, 1, stderr);
  assertEquals(
    stderr,
    "Error: The config path /dev/zero is not a regular file (a device): point REPO_APY_CONFIG at " +
      "a file, or unset it to use ~/.repoconfig\n",
  );
});

Deno.test("a FIFO as the config file is refused, not opened (which would block)", async () => {
  if (Deno.build.os === "windows") return;
  await using dir = await tempDir();
  const fifo = `${dir.path}/fifo`;
  const made = await new Deno.Command("bash", { args: ["-c", `mkfifo "${fifo}"`] }).output();
  assertEquals(made.code, 0);
  await assertRejects(() => readConfig(fifo), ConfigurationError);
  const { code, stderr } = await showInstancesOf(fifo);
  assertEquals(code, 1, stderr);
  assertStringIncludes(stderr, `The config path ${fifo} is not a regular file (a named pipe)`);
});

Deno.test("a config file over 1 MiB is refused", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/.repoconfig`;
  await Deno.writeTextFile(path, `${TEXT}# ${"x".repeat(MAX_CONFIG_BYTES)}\n`);
  const error = await assertRejects(() => readConfig(path), ConfigurationError);
  assertStringIncludes(error.message, `larger than ${MAX_CONFIG_BYTES} bytes`);
  await Deno.writeTextFile(path, TEXT);
  assertEquals((await readConfig(path)).global.default, "main");
});
