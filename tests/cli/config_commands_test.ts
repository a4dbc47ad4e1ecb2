import { assertEquals, assertMatch, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { runCli, tempHome } from "./_run.ts";

Deno.test("config create writes a 0600 file once, then fails with exit 1", async () => {
  await using home = await tempHome();
  const first = await runCli(home.dir, ["config", "create"]);
  assertEquals(first.code, 0);
  assertStringIncludes(first.stderr, `Created the config file ${home.configPath}`);
  assertEquals(
    await Deno.readTextFile(home.configPath),
    '[global]\ndefault = "my_instance"\n\n[my_instance]\nhost = ""\npat = ""\n',
  );
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);
  }
  const second = await runCli(home.dir, ["config", "create"]);
  assertEquals(second.code, 1);
  assertEquals(
    second.stderr,
    `Error: A config file already exists at ${home.configPath}: edit it with 'repo-apy config set-host' / 'set-pat' / 'add-instance', or move it away first\n`,
  );
});

Deno.test("config create honours REPO_APY_CONFIG", async () => {
  await using home = await tempHome();
  const path = `${home.dir}/elsewhere.toml`;
  const result = await runCli(home.dir, ["config", "create"], { env: { REPO_APY_CONFIG: path } });
  assertEquals(result.code, 0);
  assertStringIncludes(await Deno.readTextFile(path), "[my_instance]");
});

Deno.test("config set-host asks again until the answer is an http(s) URL with a host", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const result = await runCli(home.dir, ["config", "set-host"], {
    stdin: "ftp://repo.example\nrepo.example\nhttps://\nhttps://repo.example\n",
  });
  assertEquals(result.code, 0);
  assertEquals(result.stdout, "");
  assertStringIncludes(
    result.stderr,
    "Set the host of instance 'my_instance' to https://repo.example\n",
  );
  assertStringIncludes(
    result.stderr,
    "Error: 'ftp://repo.example' must start with 'https://' or 'http://'",
  );
  assertStringIncludes(result.stderr, "Error: 'repo.example' is not a URL");
  assertStringIncludes(await Deno.readTextFile(home.configPath), 'host = "https://repo.example"');
});

Deno.test("config set-host takes --host without asking and rejects a bad one", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const ok = await runCli(home.dir, [
    "config",
    "set-host",
    "-I",
    "my_instance",
    "--host",
    "http://h.example:5000",
  ]);
  assertEquals(ok.code, 0);
  assertEquals(
    [ok.stdout, ok.stderr],
    ["", "Set the host of instance 'my_instance' to http://h.example:5000\n"],
  );
  const bad = await runCli(home.dir, ["config", "set-host", "-H", "h.example"]);
  assertEquals(bad.code, 1);
  assertMatch(bad.stderr, /^Error: 'h\.example' is not a URL/);
  assertStringIncludes(await Deno.readTextFile(home.configPath), 'host = "http://h.example:5000"');
});

Deno.test("config set-host fails with exit 1 when the input ends without a valid host", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const result = await runCli(home.dir, ["config", "set-host"], { stdin: "nope\n" });
  assertEquals(result.code, 1);
  assertStringIncludes(
    result.stderr,
    "Error: No answer to 'Host of the repository (for example https://repo.example)' (end of input)",
  );
});

Deno.test("config set-pat stores the token and echoes it masked", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const pat = "pat_abcdefghijklmnop";
  const result = await runCli(home.dir, ["config", "set-pat"], { stdin: `${pat}\n` });
  assertEquals(result.code, 0);
  assertEquals(
    result.stderr,
    `Set the personal access token of instance 'my_instance' to pat_a${
      "*".repeat(pat.length - 5)
    }\n`,
  );
  assertNotIncludes(result.stdout + result.stderr, pat);
  assertStringIncludes(await Deno.readTextFile(home.configPath), `pat = "${pat}"`);
});

Deno.test("config commands explain a missing config file with exit 1", async () => {
  await using home = await tempHome();
  for (const args of [["config", "set-pat"], ["config", "show-instances"]]) {
    const result = await runCli(home.dir, args, { stdin: "pat_x\n" });
    assertEquals(result.code, 1);
    assertEquals(
      result.stderr,
      `Error: No config file at ${home.configPath}: run 'repo-apy config create' and then 'repo-apy config set-host' / 'set-pat', or set REPO_APY_HOST and REPO_APY_PAT\n`,
    );
  }
});

Deno.test("config add-instance asks for the token, then the host; refuses global and duplicates", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const added = await runCli(home.dir, ["config", "add-instance", "-I", "second"], {
    stdin: "pat_second_token\nhttps://second.example\n",
  });
  assertEquals(added.code, 0);
  assertEquals(added.stderr, "Added the instance 'second'\n");
  const text = await Deno.readTextFile(home.configPath);
  assertStringIncludes(text, '[second]\nhost = "https://second.example"\npat = "pat_second_token"');
  const global = await runCli(home.dir, ["config", "add-instance", "-I", "global"], { stdin: "" });
  assertEquals(global.code, 1);
  assertStringIncludes(global.stderr, "'global' is the table of shared settings");
  const duplicate = await runCli(home.dir, ["config", "add-instance", "-I", "second"], {
    stdin: "",
  });
  assertEquals(duplicate.code, 1);
  assertStringIncludes(
    duplicate.stderr,
    `The instance 'second' already exists in ${home.configPath}`,
  );
  const missing = await runCli(home.dir, ["config", "add-instance"]);
  assertEquals(missing.code, 2);
  assertStringIncludes(missing.stderr, "required option '-I, --instance <name>' not specified");
});

Deno.test("config rename-instance and change-default-instance keep the default consistent", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  await runCli(home.dir, ["config", "add-instance", "-I", "b", "-H", "https://b.example"], {
    stdin: "pat_bbbbbbbbbb\n",
  });
  const renamed = await runCli(home.dir, [
    "config",
    "rename-instance",
    "-I",
    "my_instance",
    "-N",
    "a",
  ]);
  assertEquals(renamed.code, 0);
  const shown = await runCli(home.dir, ["config", "show-instances"]);
  assertEquals(shown.code, 0);
  assertEquals(
    shown.stdout,
    `Instances in ${home.configPath}:\n* a  (no host)\n  b  https://b.example\nDefault instance: a\n`,
  );
  const changed = await runCli(home.dir, ["config", "change-default-instance", "-I", "b"]);
  assertEquals(changed.code, 0);
  assertStringIncludes(await Deno.readTextFile(home.configPath), 'default = "b"');
  const unknown = await runCli(home.dir, ["config", "change-default-instance", "-I", "zzz"]);
  assertEquals(unknown.code, 1);
  assertEquals(
    unknown.stderr,
    `Error: The instance 'zzz' is not defined in ${home.configPath} (known instances: 'a', 'b'): use one of them or add it with 'repo-apy config add-instance -I zzz'\n`,
  );
  const clash = await runCli(home.dir, ["config", "rename-instance", "-I", "a", "-N", "b"]);
  assertEquals(clash.code, 1);
  const usage = await runCli(home.dir, ["config", "rename-instance", "-I", "a"]);
  assertEquals(usage.code, 2);
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);
  }
});

Deno.test("config commands warn about a config file other users may read", async () => {
  if (Deno.build.os === "windows") return;
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  await Deno.chmod(home.configPath, 0o644);
  const result = await runCli(home.dir, ["config", "show-instances"]);
  assertEquals(result.code, 0);
  assertStringIncludes(
    result.stderr,
    `Warning: The config file ${home.configPath} can be read or written by other users (mode 644)`,
  );
});

Deno.test("config activate-autocompletion writes the script and sources it once", async () => {
  await using home = await tempHome();
  const first = await runCli(home.dir, ["config", "activate-autocompletion", "-s", "bash"]);
  assertEquals(first.code, 0);
  const script = await Deno.readTextFile(`${home.dir}/.repo-apy-complete.bash`);
  assertStringIncludes(script, "complete -o default -F _repo_apy repo-apy");
  const line = `source "${home.dir}/.repo-apy-complete.bash"`;
  assertEquals(await Deno.readTextFile(`${home.dir}/.bashrc`), `${line}\n`);
  const again = await runCli(home.dir, ["config", "activate-autocompletion", "-s", "bash"]);
  assertEquals(again.code, 0);
  assertStringIncludes(again.stderr, "already activated");
  assertEquals(await Deno.readTextFile(`${home.dir}/.bashrc`), `${line}\n`);

  await Deno.writeTextFile(`${home.dir}/.zshrc`, "export A=1");
  const zsh = await runCli(home.dir, ["config", "activate-autocompletion", "--shell", "zsh"]);
  assertEquals(zsh.code, 0);
  assertEquals(
    await Deno.readTextFile(`${home.dir}/.zshrc`),
    `export A=1\nsource "${home.dir}/.repo-apy-complete.zsh"\n`,
  );
  const fish = await runCli(home.dir, ["config", "activate-autocompletion", "-s", "fish"]);
  assertEquals(fish.code, 0);
  assertStringIncludes(
    await Deno.readTextFile(`${home.dir}/.config/fish/completions/repo-apy.fish`),
    "complete -c repo-apy",
  );
  const other = await runCli(home.dir, ["config", "activate-autocompletion", "-s", "tcsh"]);
  assertEquals(other.code, 2);
  assertStringIncludes(other.stderr, "Allowed choices are bash, zsh, fish");
});

Deno.test("config set-pat with a piped token prints no prompt", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const result = await runCli(home.dir, ["config", "set-pat"], { stdin: "pat_abcdefghijklmnop\n" });
  assertEquals(result.code, 0, result.stderr);
  assertEquals(
    result.stderr,
    "Set the personal access token of instance 'my_instance' to pat_a***************\n",
  );
});

Deno.test("a piped answer longer than the line limit is refused with one clear line", async () => {
  await using home = await tempHome();
  await runCli(home.dir, ["config", "create"]);
  const result = await runCli(home.dir, ["config", "set-host"], { stdin: "h".repeat(70_000) });
  assertEquals(result.code, 1);
  assertMatch(result.stderr, /^Error: A line of the input is longer than 65536 bytes/);
  assertEquals(result.stderr.trim().split("\n").length, 1, result.stderr);
});

Deno.test("config create on a dangling ~/.repoconfig link says so and where it points", async () => {
  if (Deno.build.os === "windows") return;
  await using home = await tempHome();
  const target = `${home.dir}/dotfiles/repoconfig`;
  // Deno.symlink() needs unscoped permissions; the test has path-scoped ones.
  const linked = await new Deno.Command("bash", {
    args: ["-c", 'ln -s "$0" "$1"', target, home.configPath],
  }).output();
  assertEquals(linked.code, 0);
  const result = await runCli(home.dir, ["config", "create"]);
  assertEquals(result.code, 1);
  assertStringIncludes(
    result.stderr,
    `${home.configPath} is a dangling symbolic link: it points to ${target}, which does not exist`,
  );
  assertNotIncludes(result.stderr, "already exists");
  assertEquals(await Deno.readLink(home.configPath), target);
});

const KADICONFIG = [
  "[global]",
  "default = lab",
  "verify = False",
  "",
  "[lab]",
  "host = https://lab.example",
  "pat = pat_labsecret0123456789",
  "timeout = 60",
  "",
  "[other]",
  "host = https://other.example",
  "pat = pat_othersecret0123456789",
  "whitelist = https://files.example",
  "",
].join("\n");

Deno.test("config import-kadiconfig converts ~/.kadiconfig into a 0600 ~/.repoconfig and prints no token", async () => {
  await using home = await tempHome();
  const missing = await runCli(home.dir, ["config", "show-instances"]);
  assertNotIncludes(missing.stderr, "import-kadiconfig");
  await Deno.writeTextFile(`${home.dir}/.kadiconfig`, KADICONFIG);
  const hint = await runCli(home.dir, ["records", "get-records"]);
  assertEquals(hint.code, 1);
  assertStringIncludes(hint.stderr, `${home.dir}/.kadiconfig exists`);
  assertStringIncludes(hint.stderr, "'repo-apy config import-kadiconfig'");
  const imported = await runCli(home.dir, ["config", "import-kadiconfig"]);
  assertEquals(imported.code, 0, imported.stderr);
  assertStringIncludes(imported.stdout, "Imported 2 instance(s)");
  assertStringIncludes(imported.stdout, "'lab' (default), 'other'");
  assertNotIncludes(imported.stdout + imported.stderr, "secret");
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(home.configPath)).mode! & 0o777, 0o600);
  }
  assertEquals(
    await Deno.readTextFile(home.configPath),
    [
      "[global]",
      'default = "lab"',
      "verify = false",
      "",
      "[lab]",
      'host = "https://lab.example"',
      'pat = "pat_labsecret0123456789"',
      "timeout = 60",
      "",
      "[other]",
      'host = "https://other.example"',
      'pat = "pat_othersecret0123456789"',
      'whitelist = [ "https://files.example" ]',
      "",
    ].join("\n"),
  );
  const shown = await runCli(home.dir, ["config", "show-instances"]);
  assertStringIncludes(shown.stdout, "lab");
  const again = await runCli(home.dir, ["config", "import-kadiconfig"]);
  assertEquals(again.code, 1);
  assertStringIncludes(again.stderr, "was not replaced (add -f/--force to replace it)");
  await Deno.writeTextFile(
    `${home.dir}/py.ini`,
    "[global]\ndefault = x\n[x]\nhost = https://x.example\npat = pat_x\n",
  );
  const forced = await runCli(home.dir, [
    "config",
    "import-kadiconfig",
    `${home.dir}/py.ini`,
    "-f",
  ]);
  assertEquals(forced.code, 0, forced.stderr);
  assertStringIncludes(await Deno.readTextFile(home.configPath), "[x]");
  const absent = await runCli(home.dir, ["config", "import-kadiconfig", `${home.dir}/none`, "-f"]);
  assertEquals(absent.code, 1);
  assertStringIncludes(absent.stderr, "No config file of the Python client");
});
