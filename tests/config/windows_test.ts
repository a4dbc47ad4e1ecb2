// Windows conventions, checked on any system by injecting the platform: where the config file
// lives, no POSIX mode warning, `\r\n` accepted on reading, `\n` written, Windows file-name rules.
import { assertEquals, assertThrows } from "../_assert.ts";
import { configPath, homePath } from "../../lib/config/path.ts";
import { parseConfig } from "../../lib/config/parse.ts";
import { readConfig } from "../../lib/config/read.ts";
import { stringifyConfig, writeConfig } from "../../lib/config/write.ts";
import { ConfigurationError } from "../../lib/errors.ts";
import { safeFileName } from "../../lib/utils/file_name.ts";

function envOf(values: { [name: string]: string }): (name: string) => string | undefined {
  return (name) => values[name];
}

Deno.test("configPath() on Windows is %USERPROFILE%\\.repoconfig", () => {
  const env = envOf({ USERPROFILE: "C:\\Users\\me", HOME: "/ignored" });
  assertEquals(configPath({ os: "windows", env }), "C:\\Users\\me\\.repoconfig");
  assertEquals(
    configPath({ os: "windows", env: envOf({ USERPROFILE: "C:\\Users\\me\\" }) }),
    "C:\\Users\\me\\.repoconfig",
  );
  assertEquals(homePath(".config/fish", { os: "windows", env }), "C:\\Users\\me\\.config\\fish");
});

Deno.test("configPath() on Windows prefers REPO_APY_CONFIG", () => {
  const env = envOf({ REPO_APY_CONFIG: "D:\\cfg\\repo.toml", USERPROFILE: "C:\\Users\\me" });
  assertEquals(configPath({ os: "windows", env }), "D:\\cfg\\repo.toml");
});

Deno.test("configPath() on Windows names USERPROFILE when no home is set", () => {
  const error = assertThrows(
    () => configPath({ os: "windows", env: envOf({ HOME: "/home/me" }) }),
    ConfigurationError,
  );
  assertEquals(error.message.startsWith("Cannot find the home directory: set USERPROFILE"), true);
});

Deno.test("configPath() on Linux and macOS uses HOME, not USERPROFILE", () => {
  const env = envOf({ HOME: "/home/me", USERPROFILE: "C:\\Users\\me" });
  assertEquals(configPath({ os: "linux", env }), "/home/me/.repoconfig");
  assertEquals(configPath({ os: "darwin", env }), "/home/me/.repoconfig");
});

Deno.test("readConfig() gives no mode warning on Windows", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, '[main]\nhost = "https://repo.example"\n');
    if (Deno.build.os !== "windows") await Deno.chmod(path, 0o644);
    const warnings: string[] = [];
    await readConfig(path, { os: "windows", warn: (message) => warnings.push(message) });
    assertEquals(warnings, []);
    if (Deno.build.os !== "windows") {
      await readConfig(path, { os: "linux", warn: (message) => warnings.push(message) });
      assertEquals(warnings.length, 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readConfig() accepts Windows line endings; writeConfig() writes \\n only", async () => {
  const text = '[global]\r\ndefault = "main"\r\n\r\n[main]\r\nhost = "https://repo.example"\r\n' +
    'pat = "pat_x"\r\n';
  const parsed = parseConfig(text, "C:\\Users\\me\\.repoconfig");
  assertEquals(parsed.global.default, "main");
  assertEquals(parsed.instances.get("main")?.host, "https://repo.example");
  assertEquals(parsed.instances.get("main")?.pat, "pat_x");
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/.repoconfig`;
    await Deno.writeTextFile(path, text);
    const read = await readConfig(path, { os: "windows" });
    await writeConfig(path, read);
    const written = await Deno.readTextFile(path);
    assertEquals(written.includes("\r"), false);
    assertEquals(written, stringifyConfig(parsed));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("safeFileName() applies Windows rules to names from the server", () => {
  const windows = { platform: "windows" } as const;
  assertEquals(safeFileName("CON", windows), "_CON");
  assertEquals(safeFileName("nul.txt", windows), "_nul.txt");
  assertEquals(safeFileName("com1.h5", windows), "_com1.h5");
  assertEquals(safeFileName('a<b>c:d"e|f?g*h', windows), "a_b_c_d_e_f_g_h");
  assertEquals(safeFileName("trailing. ", windows), "trailing__");
  assertEquals(safeFileName("dir\\..\\up", windows), "dir_.._up");
  assertEquals(safeFileName("CON", { platform: "posix" }), "CON");
  assertEquals(safeFileName("a:b", { platform: "posix" }), "a:b");
});
