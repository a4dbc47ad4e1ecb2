import { assertEquals, assertRejects } from "../_assert.ts";
import { resolveSettings } from "../../lib/config/settings.ts";
import { ConfigFileError } from "../../lib/config/errors.ts";
import { ConfigurationError } from "../../lib/errors.ts";

async function withConfig(text: string, fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, text, { mode: 0o600 });
    await fn(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const FULL = `
[global]
default = "main"
timeout = 30
verify = false
whitelist = "https://a.example, https://b.example"
base_path = "/global"

[main]
host = "https://main.example"
pat = "pat_main"
timeout = 10

[other]
host = "https://other.example"
pat = "pat_other"
ca_bundle = "/ca.pem"
whitelist = ["https://c.example"]
`;

Deno.test("resolveSettings() applies defaults when host and pat are given", async () => {
  const settings = await resolveSettings({ host: "https://h.example", pat: "pat_x" });
  assertEquals(settings, {
    instance: undefined,
    host: "https://h.example",
    pat: "pat_x",
    timeout: 60,
    verify: true,
    caBundle: undefined,
    whitelist: [],
    basePath: "",
    sources: { host: "option", pat: "option" },
  });
});

Deno.test({
  name: "resolveSettings() reads no file and no env when host and pat are given",
  permissions: { read: false, env: false, write: false },
  async fn() {
    const settings = await resolveSettings({
      host: "https://h.example",
      pat: "pat_x",
      basePath: "/sub",
      timeout: 5,
    });
    assertEquals(settings.basePath, "/sub");
    assertEquals(settings.timeout, 5);
    const withPath = await resolveSettings({
      host: "https://h.example",
      pat: "pat_x",
      configPath: "/nonexistent/.repoconfig",
    });
    assertEquals(withPath.host, "https://h.example");
  },
});

Deno.test("resolveSettings() takes option > instance > [global] > default", async () => {
  await withConfig(FULL, async (path) => {
    const main = await resolveSettings({ configPath: path });
    assertEquals(main, {
      instance: "main",
      host: "https://main.example",
      pat: "pat_main",
      timeout: 10,
      verify: false,
      caBundle: undefined,
      whitelist: ["https://a.example", "https://b.example"],
      basePath: "/global",
      sources: { host: "config", pat: "config" },
    });
    const other = await resolveSettings({ configPath: path, instance: "other", verify: true });
    assertEquals(other.timeout, 30);
    assertEquals(other.verify, true);
    assertEquals(other.caBundle, "/ca.pem");
    assertEquals(other.whitelist, ["https://c.example"]);
    const overridden = await resolveSettings({
      configPath: path,
      instance: "other",
      host: "https://x.example",
      timeout: 1,
      whitelist: [],
      basePath: "",
    });
    assertEquals(overridden.host, "https://x.example");
    assertEquals(overridden.pat, "pat_other");
    assertEquals(overridden.timeout, 1);
    assertEquals(overridden.whitelist, []);
    assertEquals(overridden.basePath, "");
  });
});

Deno.test("resolveSettings() reads the file when only the pat is missing", async () => {
  await withConfig(FULL, async (path) => {
    const settings = await resolveSettings({ configPath: path, host: "https://x.example" });
    assertEquals(settings.instance, "main");
    assertEquals(settings.host, "https://x.example");
    assertEquals(settings.pat, "pat_main");
  });
});

Deno.test("resolveSettings() explains a missing config file", async () => {
  await withConfig("", async (existing) => {
    const path = `${existing}.missing`;
    const error = await assertRejects(
      () => resolveSettings({ configPath: path }),
      ConfigurationError,
    );
    assertEquals(
      error.message,
      `No config file at ${path}: run 'repo-apy config create' and then ` +
        "'repo-apy config set-host' / 'set-pat', or pass host and pat directly",
    );
  });
});

Deno.test("resolveSettings(): a ConfigFileError says which file, why, and which settings are missing", async () => {
  await withConfig("", async (existing) => {
    const path = `${existing}.missing`;
    const both = await assertRejects(() => resolveSettings({ configPath: path }), ConfigFileError);
    assertEquals([both.problem, both.path, both.missing], ["notFound", path, ["host", "pat"]]);
    assertEquals(both instanceof ConfigurationError, true);
    const env = (name: string) => name === "REPO_APY_HOST" ? "https://env.example" : undefined;
    const pat = await assertRejects(
      () => resolveSettings({ configPath: path, env }),
      ConfigFileError,
    );
    assertEquals(pat.missing, ["pat"]);
    const named = await assertRejects(
      () => resolveSettings({ configPath: path, instance: "main", host: "https://h", pat: "p" }),
      ConfigFileError,
    );
    assertEquals(named.missing, []);
  });
});

Deno.test("resolveSettings() lists the known instances for an unknown one", async () => {
  await withConfig(FULL, async (path) => {
    const error = await assertRejects(
      () => resolveSettings({ configPath: path, instance: "nope" }),
      ConfigurationError,
    );
    assertEquals(
      error.message,
      `The instance 'nope' is not defined in ${path} (known instances: 'main', 'other'): ` +
        "use one of them or add it with 'repo-apy config add-instance -I nope'",
    );
  });
});

Deno.test("resolveSettings() names the default instance when it is not defined", async () => {
  await withConfig('[global]\ndefault = "gone"\n', async (path) => {
    const error = await assertRejects(
      () => resolveSettings({ configPath: path }),
      ConfigurationError,
    );
    assertEquals(
      error.message,
      `The instance 'gone' is not defined in ${path} (known instances: none): ` +
        "use one of them or add it with 'repo-apy config add-instance -I gone'",
    );
  });
});

Deno.test("resolveSettings() asks for a default instance when [global] has none", async () => {
  await withConfig('[main]\nhost = "https://h.example"\npat = "p"\n', async (path) => {
    const error = await assertRejects(
      () => resolveSettings({ configPath: path }),
      ConfigurationError,
    );
    assertEquals(
      error.message,
      `No default instance in ${path}: add 'default = "<instance>"' under [global] ` +
        "(repo-apy config change-default-instance -I <instance>), or pass an instance",
    );
    const settings = await resolveSettings({ configPath: path, instance: "main" });
    assertEquals(settings.pat, "p");
  });
});

Deno.test("resolveSettings() names the missing or empty key and the command that sets it", async () => {
  const text =
    '[global]\ndefault = "x"\n[x]\nhost = "https://h.example"\npat = ""\n[y]\npat = "p"\n';
  await withConfig(text, async (path) => {
    const pat = await assertRejects(
      () => resolveSettings({ configPath: path }),
      ConfigurationError,
    );
    assertEquals(
      pat.message,
      `Please define the key 'pat' for instance 'x' in ${path} (repo-apy config set-pat -I x)`,
    );
    const host = await assertRejects(
      () => resolveSettings({ configPath: path, instance: "y" }),
      ConfigurationError,
    );
    assertEquals(
      host.message,
      `Please define the key 'host' for instance 'y' in ${path} (repo-apy config set-host -I y)`,
    );
  });
});

Deno.test("resolveSettings() rejects a non-positive timeout option", async () => {
  const error = await assertRejects(
    () => resolveSettings({ host: "https://h.example", pat: "p", timeout: 0 }),
    ConfigurationError,
  );
  assertEquals(
    error.message,
    "The option 'timeout' must be a positive number of seconds, for example 60, not 0",
  );
});

Deno.test("resolveSettings() passes warnings about a group-readable file to warn", async () => {
  if (Deno.build.os === "windows") return;
  await withConfig(FULL, async (path) => {
    await Deno.chmod(path, 0o644);
    const warnings: string[] = [];
    await resolveSettings({ configPath: path, warn: (message) => warnings.push(message) });
    assertEquals(warnings, [
      `The config file ${path} can be read or written by other users (mode 644): ` +
      `run 'chmod 600 ${path}' to keep your access token private`,
    ]);
  });
});

Deno.test("resolveSettings() uses REPO_APY_CONFIG when no configPath is given", async () => {
  await withConfig(FULL, async (path) => {
    // The environment is injected: test files running in parallel share the process's one.
    const env = (name: string) => name === "REPO_APY_CONFIG" ? path : undefined;
    const settings = await resolveSettings({ instance: "other", env });
    assertEquals(settings.host, "https://other.example");
  });
});

Deno.test("resolveSettings(): REPO_APY_CA_BUNDLE and REPO_APY_VERIFY lose to options and beat the config file (issue 31)", async () => {
  await withConfig(FULL, async (path) => {
    const vars: { [name: string]: string } = {
      REPO_APY_CONFIG: path,
      REPO_APY_CA_BUNDLE: "/env-ca.pem",
      REPO_APY_VERIFY: "TRUE",
    };
    const env = (name: string) => vars[name];
    // The instance's ca_bundle and the global verify = false lose to the environment.
    const fromEnv = await resolveSettings({ instance: "other", env });
    assertEquals([fromEnv.caBundle, fromEnv.verify], ["/env-ca.pem", true]);
    const fromOptions = await resolveSettings({
      instance: "other",
      env,
      caBundle: "/option-ca.pem",
      verify: false,
    });
    assertEquals([fromOptions.caBundle, fromOptions.verify], ["/option-ca.pem", false]);
    // Host and token from the environment: no file is read, the TLS settings still apply.
    vars.REPO_APY_HOST = "https://env.example";
    vars.REPO_APY_PAT = "pat_env";
    vars.REPO_APY_VERIFY = "0";
    const envOnly = await resolveSettings({ env });
    assertEquals([envOnly.instance, envOnly.caBundle, envOnly.verify], [
      undefined,
      "/env-ca.pem",
      false,
    ]);
  });
});
