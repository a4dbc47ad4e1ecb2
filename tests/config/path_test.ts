import { assertEquals, assertThrows } from "../_assert.ts";
import { configPath } from "../../lib/config/path.ts";
import { ConfigFileError } from "../../lib/config/errors.ts";
import { ConfigurationError } from "../../lib/http/errors.ts";

function withEnv(values: { [name: string]: string | undefined }, fn: () => void): void {
  const previous = Object.fromEntries(
    Object.keys(values).map((name) => [name, Deno.env.get(name)]),
  );
  const apply = (entries: { [name: string]: string | undefined }) => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) Deno.env.delete(name);
      else Deno.env.set(name, value);
    }
  };
  apply(values);
  try {
    fn();
  } finally {
    apply(previous);
  }
}

Deno.test("configPath() prefers REPO_APY_CONFIG over the home directory", () => {
  withEnv({ REPO_APY_CONFIG: "/elsewhere/cfg.toml", HOME: "/home/me" }, () => {
    assertEquals(configPath(), "/elsewhere/cfg.toml");
  });
});

Deno.test("configPath() falls back to ~/.repoconfig", () => {
  if (Deno.build.os === "windows") return;
  withEnv({ REPO_APY_CONFIG: "", HOME: "/home/me" }, () => {
    assertEquals(configPath(), "/home/me/.repoconfig");
  });
  withEnv({ REPO_APY_CONFIG: undefined, HOME: "/home/me/" }, () => {
    assertEquals(configPath(), "/home/me/.repoconfig");
  });
});

Deno.test("configPath() explains a missing home directory", () => {
  if (Deno.build.os === "windows") return;
  withEnv({ REPO_APY_CONFIG: undefined, HOME: undefined }, () => {
    assertEquals(
      assertThrows(() => configPath(), ConfigurationError).message,
      "Cannot find the home directory: set HOME or REPO_APY_CONFIG to locate the config file, or pass host and pat directly",
    );
    const error = assertThrows(() => configPath({ missing: ["pat"] }), ConfigFileError);
    assertEquals([error.problem, error.path, error.homeVariable], ["noHome", undefined, "HOME"]);
    assertEquals(error.missing, ["pat"]);
  });
  const windows = assertThrows(
    () => configPath({ os: "windows", env: () => undefined }),
    ConfigFileError,
  );
  assertEquals(windows.homeVariable, "USERPROFILE");
});
