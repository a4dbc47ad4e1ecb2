import { assertEquals, assertThrows } from "../_assert.ts";
import { kadiconfigPath, parseKadiconfig } from "../../lib/config/kadiconfig.ts";
import { ConfigurationError } from "../../lib/errors.ts";

Deno.test("parseKadiconfig() converts every instance, the default and the shared settings", () => {
  const config = parseKadiconfig(
    [
      "; written by kadi-apy",
      "[global]",
      "default = main",
      "Verify = no",
      "timeout = 30",
      "",
      "[main]",
      "host = https://repo.example",
      "pat = pat_secret%%1",
      "timeout: 60.5",
      "verify = True",
      "ca_bundle = /etc/ssl/lab.pem",
      "whitelist = https://a.example, https://b.example",
      "base_path = /kadi",
      "",
      "[test]",
      "host = http://127.0.0.1:5000",
      "pat =",
      "colour = blue",
      "  and green",
    ].join("\r\n"),
    "/home/me/.kadiconfig",
  );
  assertEquals(config.global, { default: "main", verify: false, timeout: 30, extra: {} });
  assertEquals([...config.instances.keys()], ["main", "test"]);
  assertEquals(config.instances.get("main"), {
    host: "https://repo.example",
    pat: "pat_secret%1",
    timeout: 60.5,
    verify: true,
    caBundle: "/etc/ssl/lab.pem",
    whitelist: ["https://a.example", "https://b.example"],
    basePath: "/kadi",
    extra: {},
  });
  assertEquals(config.instances.get("test"), {
    host: "http://127.0.0.1:5000",
    pat: "",
    extra: { colour: "blue\nand green" },
  });
});

Deno.test("parseKadiconfig() names the file, section and line of what it cannot take", () => {
  for (
    const text of [
      "host = x\n",
      "[a]\nno separator\n",
      "[a]\ntimeout = soon\n",
      "[a]\nverify = maybe\n",
      "[global]\ndefault = b\n[a]\n",
      "[a]\n[a]\n",
    ]
  ) {
    const error = assertThrows(() => parseKadiconfig(text, "/x/.kadiconfig"), ConfigurationError);
    assertEquals(error.message.startsWith("/x/.kadiconfig"), true, error.message);
  }
});

Deno.test("kadiconfigPath() is ~/.kadiconfig", () => {
  assertEquals(kadiconfigPath({ os: "linux", env: () => "/home/me" }), "/home/me/.kadiconfig");
});
