import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { parseConfig } from "../../lib/config/parse.ts";
import { ConfigurationError } from "../../lib/errors.ts";

const PATH = "/home/me/.repoconfig";

function message(text: string): string {
  return assertThrows(() => parseConfig(text, PATH), ConfigurationError).message;
}

Deno.test("parseConfig() reads global and instance keys into camelCase fields", () => {
  const config = parseConfig(
    `[global]
default = "main"
experimental_features = true
verify = false
ca_bundle = "/ca.pem"
base_path = "/sub"
custom = 1

[main]
host = "https://repo.example"
pat = "pat_x"
timeout = 2.5
whitelist = [" https://a.example ", ""]
`,
    PATH,
  );
  assertEquals(config.global, {
    default: "main",
    experimentalFeatures: true,
    verify: false,
    caBundle: "/ca.pem",
    basePath: "/sub",
    extra: { custom: 1 },
  });
  assertEquals([...config.instances.entries()], [["main", {
    host: "https://repo.example",
    pat: "pat_x",
    timeout: 2.5,
    whitelist: ["https://a.example"],
    extra: {},
  }]]);
});

Deno.test("parseConfig() splits a comma-separated whitelist string", () => {
  const config = parseConfig(
    '[global]\nwhitelist = "https://a.example,https://b.example , "\n',
    PATH,
  );
  assertEquals(config.global.whitelist, ["https://a.example", "https://b.example"]);
});

Deno.test("parseConfig() accepts a file without [global] and an empty file", () => {
  assertEquals(parseConfig("", PATH).instances.size, 0);
  assertEquals(parseConfig('[x]\nhost = ""\n', PATH).global, { extra: {} });
});

Deno.test("parseConfig() explains invalid TOML such as an unquoted host", () => {
  const text = message("[global]\ndefault = main\n");
  assertStringIncludes(text, `The config file ${PATH} is not valid TOML (line 2, column`);
  assertStringIncludes(
    text,
    `quote every text value, for example 'host = "https://repo.example"', or move the file away and run 'repo-apy config create'`,
  );
});

Deno.test("parseConfig() rejects keys outside any table", () => {
  assertEquals(
    message('host = "https://repo.example"\n'),
    `The key 'host' in ${PATH} is outside any table: move it under [global] or under an instance table such as [my_instance]`,
  );
});

Deno.test("parseConfig() rejects host and pat in [global]", () => {
  assertEquals(
    message('[global]\npat = "x"\n'),
    `The key 'pat' is not allowed in [global] of ${PATH}: move it to an instance table such as [my_instance]`,
  );
});

Deno.test("parseConfig() names key, table, expected type and example for bad types", () => {
  const cases: [string, string][] = [
    [
      "[a]\ntimeout = 0\n",
      `The key 'timeout' in [a] of ${PATH} must be a positive number of seconds, for example 'timeout = 60', not 0`,
    ],
    [
      '[a]\ntimeout = "60"\n',
      `The key 'timeout' in [a] of ${PATH} must be a positive number of seconds, for example 'timeout = 60', not "60"`,
    ],
    [
      '[global]\nverify = "no"\n',
      `The key 'verify' in [global] of ${PATH} must be true or false (without quotes), for example 'verify = false', not "no"`,
    ],
    [
      "[a]\nwhitelist = [1]\n",
      `The key 'whitelist' in [a] of ${PATH} must be a list of hosts or one comma-separated string, for example 'whitelist = ["https://a.example", "https://b.example"]', not a list`,
    ],
    [
      "[a]\nca_bundle = true\n",
      `The key 'ca_bundle' in [a] of ${PATH} must be a quoted text, for example 'ca_bundle = "/etc/ssl/my-ca.pem"', not true`,
    ],
    [
      "[a]\nbase_path = 1\n",
      `The key 'base_path' in [a] of ${PATH} must be a quoted text, for example 'base_path = "/sub"', not 1`,
    ],
    [
      "[a]\nhost = 1\n",
      `The key 'host' in [a] of ${PATH} must be a quoted text, for example 'host = "https://repo.example"', not 1`,
    ],
    [
      "[global]\ndefault = 1\n",
      `The key 'default' in [global] of ${PATH} must be a quoted text, for example 'default = "my_instance"', not 1`,
    ],
    [
      "[global]\nexperimental_features = 1\n",
      `The key 'experimental_features' in [global] of ${PATH} must be true or false (without quotes), for example 'experimental_features = false', not 1`,
    ],
  ];
  for (const [text, expected] of cases) assertEquals(message(text), expected);
});

Deno.test("parseConfig() never echoes a pat value of the wrong type", () => {
  const text = message("[a]\npat = 123456789\n");
  assertEquals(
    text,
    `The key 'pat' in [a] of ${PATH} must be a quoted text, for example 'pat = "pat_..."', not a number`,
  );
});

Deno.test("parseConfig() keeps an unquoted pat out of the error and its cause chain", () => {
  const error = assertThrows(
    () => parseConfig('[global]\ndefault = "a"\n[a]\npat = pat_unquoted_secret\n', PATH),
    ConfigurationError,
  );
  const chain: string[] = [];
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    chain.push(current.message, current.stack ?? "");
  }
  assertEquals(chain.join("\n").includes("pat_unquoted_secret"), false);
  assertStringIncludes(error.message, "not valid TOML");
});
