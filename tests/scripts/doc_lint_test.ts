// scripts/doc_lint.ts: which exported functions, classes and methods count as missing an example.
import { assertEquals } from "../_assert.ts";
import { type DocSymbol, exampleFindings } from "../../scripts/doc_lint.ts";

const example = (code: string) => ({ doc: "Summary.", tags: [{ kind: "example", doc: code }] });
const RUNS = "Usage\n```ts\nassert(true);\n```\n";

Deno.test("doc lint: functions, classes and public methods need an example (a linked one that names them will do; a method's may be its class's); types do not", () => {
  const symbols: DocSymbol[] = [
    { name: "documented", declarations: [{ kind: "function", jsDoc: example(RUNS) }] },
    { name: "bare", declarations: [{ kind: "function", jsDoc: { doc: "Summary." } }] },
    { name: "Options", declarations: [{ kind: "interface", jsDoc: { doc: "Summary." } }] },
    {
      name: "Family",
      declarations: [{ kind: "class", jsDoc: example("Usage\n```ts\nnew Member();\n```\n") }],
    },
    {
      name: "Member",
      declarations: [{ kind: "class", jsDoc: { doc: "See {@linkcode Family}." } }],
    },
    { name: "Stray", declarations: [{ kind: "class", jsDoc: { doc: "See {@linkcode Family}." } }] },
    {
      name: "Thing",
      declarations: [{
        kind: "class",
        jsDoc: example("Usage\n```ts\nnew Thing().onClass();\n```\n"),
        def: {
          methods: [
            { name: "shown", kind: "method", jsDoc: example(RUNS) },
            { name: "overloaded", kind: "method", jsDoc: { doc: "First overload." } },
            { name: "overloaded", kind: "method", jsDoc: example(RUNS) },
            { name: "hidden", kind: "method", accessibility: "private" },
            { name: "[Symbol.asyncDispose]", kind: "method" },
            { name: "missing", kind: "getter", jsDoc: { doc: "No example." } },
            { name: "forwarder", kind: "method", jsDoc: { doc: "Does it ({@linkcode doIt})." } },
            { name: "onClass", kind: "method", jsDoc: { doc: "Shown in the class's example." } },
          ],
        },
      }],
    },
  ];
  assertEquals(exampleFindings("mod.ts", symbols), [
    { key: "mod.ts:bare", problem: "no example" },
    { key: "mod.ts:Stray", problem: "no example" },
    { key: "mod.ts:Thing.missing", problem: "no example" },
  ]);
});

Deno.test("doc lint: an ignored example must name the real host it needs", () => {
  const ignored = (comment: string) => ({
    name: "remote",
    declarations: [{
      kind: "function",
      jsDoc: example(`Usage\n\`\`\`ts ignore\n${comment}\nrun();\n\`\`\`\n`),
    }],
  });
  assertEquals(exampleFindings("mod.ts", [ignored("// just because")]), [
    { key: "mod.ts:remote", problem: "ignored example without a real-host reason" },
  ]);
  assertEquals(
    exampleFindings("mod.ts", [ignored("// ignore: needs a real host (https://repo.example.org)")]),
    [],
  );
});
