import { assertEquals, assertThrows } from "../_assert.ts";
import { configPath } from "../../lib/config/path.ts";
import { ConfigFileError } from "../../lib/config/errors.ts";
import { ConfigurationError } from "../../lib/errors.ts";

/**
 * Runs `fn` with an environment that has exactly `values` (the lookups a test makes), without
 * touching the process's environment, which test files running in parallel share.
 */
function withEnv(
  values: { [name: string]: string | undefined },
  fn: (env: (name: string) => string | undefined) => void,
): void {
  fn((name) => values[name]);
}

Deno.test("configPath() reads the process environment by default", () => {
  const override = Deno.env.get("REPO_APY_CONFIG");
  const home = Deno.env.get(Deno.build.os === "windows" ? "USERPROFILE" : "HOME");
  if (!override && !home) return;
  const expected = override || configPath({ env: (name) => Deno.env.get(name) });
  assertEquals(configPath(), expected);
});

Deno.test("configPath() prefers REPO_APY_CONFIG over the home directory", () => {
  withEnv({ REPO_APY_CONFIG: "/elsewhere/cfg.toml", HOME: "/home/me" }, (env) => {
    assertEquals(configPath({ env }), "/elsewhere/cfg.toml");
  });
});

Deno.test("configPath() falls back to ~/.repoconfig", () => {
  if (Deno.build.os === "windows") return;
  withEnv({ REPO_APY_CONFIG: "", HOME: "/home/me" }, (env) => {
    assertEquals(configPath({ env }), "/home/me/.repoconfig");
  });
  withEnv({ REPO_APY_CONFIG: undefined, HOME: "/home/me/" }, (env) => {
    assertEquals(configPath({ env }), "/home/me/.repoconfig");
  });
});

Deno.test("configPath() explains a missing home directory", () => {
  if (Deno.build.os === "windows") return;
  withEnv({ REPO_APY_CONFIG: undefined, HOME: undefined }, (env) => {
    assertEquals(
      assertThrows(() => configPath({ env }), ConfigurationError).message,
      "Cannot find the home directory: set HOME or REPO_APY_CONFIG to locate the config file, or pass host and pat directly",
    );
    const error = assertThrows(() => configPath({ env, missing: ["pat"] }), ConfigFileError);
    assertEquals([error.problem, error.path, error.homeVariable], ["noHome", undefined, "HOME"]);
    assertEquals(error.missing, ["pat"]);
  });
  const windows = assertThrows(
    () => configPath({ os: "windows", env: () => undefined }),
    ConfigFileError,
  );
  assertEquals(windows.homeVariable, "USERPROFILE");
});
