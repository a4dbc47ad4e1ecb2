// scripts/check_layers.ts: which imports run up a layer, and which files import each other.
import { assertEquals } from "../_assert.ts";
import { importSpecifiers, layerOf, layerProblems } from "../../scripts/check_layers.ts";

Deno.test("check_layers: top-level imports and re-exports count; examples in comments do not", () => {
  const source = [
    "/**",
    ' * import { x } from "./mod.ts";',
    " */",
    'import { a, type B } from "../http/errors.ts";',
    'import type {\n  C,\n  D,\n} from "./c.ts";',
    'export * from "./d.ts";',
    'export { e } from "./e.ts";',
    'import * as f from "./f.ts";',
    'import "./g.ts";',
    'const h = await import("./h.ts");',
  ].join("\n");
  assertEquals(importSpecifiers(source), [
    "../http/errors.ts",
    "./c.ts",
    "./d.ts",
    "./e.ts",
    "./f.ts",
    "./g.ts",
  ]);
});

Deno.test("check_layers: a folder's layer, the bottom first", () => {
  assertEquals(layerOf("errors.ts"), 0);
  assertEquals(layerOf("http/transport.ts"), 1);
  assertEquals(layerOf("utils/glob.ts"), 2);
  assertEquals(layerOf("model/record.ts"), 6);
  assertEquals(layerOf("cli/commands/records.ts"), 9);
  assertEquals(layerOf("testing/_app.ts"), "testing");
  assertEquals(layerOf("elsewhere/x.ts"), undefined);
});

Deno.test("check_layers: upward imports, the test server's reach and two-file circles fail", () => {
  assertEquals(
    layerProblems([
      { file: "errors.ts", imports: [] },
      { file: "http/a.ts", imports: ["errors.ts", "http/b.ts"] },
      { file: "http/b.ts", imports: ["http/a.ts", "config/c.ts"] },
      { file: "config/c.ts", imports: ["http/a.ts"] },
      { file: "manager/m.ts", imports: ["testing/t.ts"] },
      { file: "testing/t.ts", imports: ["http/a.ts", "resources/r.ts"] },
      { file: "resources/r.ts", imports: [] },
      { file: "other/o.ts", imports: [] },
    ]),
    [
      "http/a.ts <-> http/b.ts: import each other",
      "http/b.ts -> config/c.ts: runs up from http to config",
      "manager/m.ts -> testing/t.ts: the library imports the test server",
      "other/o.ts: in no layer (add its folder to LAYERS)",
      "testing/t.ts -> resources/r.ts: the test server imports above utils/",
    ],
  );
});
