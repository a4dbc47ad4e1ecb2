// The pure part of the ELN import: parseCrate() and planEln() on small crates written for each
// rule (nested and flattened graphs, @type arrays, keywords, publishers, sizes, duplicate ids,
// variableMeasured extras, collection rules, skipped files).
import { assertEquals, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { parseCrate } from "../../lib/import/eln/_crate.ts";
import { planEln } from "../../lib/import/eln/_plan.ts";
import { keepFloats } from "../../lib/http/_float_json.ts";

const CONTEXT = "https://w3id.org/ro/crate/1.1/context";

function plan(graph: unknown[], files: Record<string, number> = {}) {
  const crate = parseCrate(JSON.stringify({ "@context": CONTEXT, "@graph": graph }));
  return planEln({
    crate,
    root: "crate",
    files: new Map(Object.entries(files).map(([path, size]) => [path, { size }])),
  });
}

const descriptor = (publisher?: unknown) => ({
  "@id": "ro-crate-metadata.json",
  "@type": "CreativeWork",
  about: { "@id": "./" },
  ...(publisher === undefined ? {} : { sdPublisher: publisher }),
});

Deno.test("planEln() resolves nested (inline) and flattened (referenced) files alike", () => {
  const nested = plan([descriptor(), {
    "@id": "./",
    "@type": "Dataset",
    hasPart: [{
      "@id": "./a/",
      "@type": "Dataset",
      name: "A",
      hasPart: [{ "@id": "./a/x.txt", "@type": "File", name: "x.txt", contentSize: 999 }],
    }],
  }], { "a/x.txt": 3 });
  const flat = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] },
    { "@id": "./a/", "@type": "Dataset", name: "A", hasPart: [{ "@id": "./a/x.txt" }] },
    { "@id": "./a/x.txt", "@type": "File", name: "x.txt", contentSize: "999" },
  ], { "a/x.txt": 3 });
  for (const p of [nested, flat]) {
    assertEquals(p.records.map((r) => [r.title, r.files]), [
      ["A", [{ path: "a/x.txt", name: "x.txt", size: 3 }]],
    ]);
  }
});

Deno.test("planEln() takes @type arrays, ids without './' or '/', and URL-encoded, '//' paths", () => {
  const p = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./Data" }, { "@id": "msg/" }] },
    {
      "@id": "./Data/",
      "@type": ["Dataset", "Message"],
      name: "Data",
      hasPart: [{ "@id": "./Data/a%20b.txt" }],
    },
    { "@id": "./Data/a%20b.txt", "@type": ["File", "ImageObject"] },
    { "@id": "msg", "@type": "Dataset" },
  ], { "Data/a b.txt": 1 });
  assertEquals(p.records.map((r) => r.title), ["Data", "msg"]);
  assertEquals(p.records[0]!.files[0]!.name, "a b.txt");
});

Deno.test("planEln() splits keywords given as a string or an array", () => {
  const p = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }, { "@id": "./b/" }] },
    { "@id": "./a/", "@type": "Dataset", keywords: "x, y,,z" },
    { "@id": "./b/", "@type": "Dataset", keywords: ["x", "y, w"] },
  ]);
  assertEquals(p.records.map((r) => r.tags), [["x", "y", "z"], ["x", "y", "w"]]);
});

Deno.test("planEln() recognises the repository's exports by an inline or referenced publisher", () => {
  const root = { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] };
  const a = { "@id": "./a/", "@type": "Dataset" };
  assertEquals(plan([descriptor({ name: "Kadi4Mat" }), root, a]).repositoryExport, true);
  assertEquals(
    plan([descriptor({ "@id": "#p" }), { "@id": "#p", name: "Kadi4Mat" }, root, a])
      .repositoryExport,
    true,
  );
  assertEquals(plan([descriptor(), root, a]).repositoryExport, false);
  assertEquals(plan([descriptor({ "@id": "Other" }), root, a]).repositoryExport, false);
});

Deno.test("parseCrate() merges duplicate @ids (first value wins) and warns", () => {
  const p = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] },
    { "@id": "./a/", "@type": "Dataset", name: "First" },
    { "@id": "./a/", "@type": "Dataset", name: "Second", keywords: "k" },
  ]);
  assertEquals(p.records.map((r) => [r.title, r.tags]), [["First", ["k"]]]);
  assertEquals(p.warnings.length, 1);
});

Deno.test("planEln() turns variableMeasured into nested extras with types, units, ranges, terms", () => {
  const p = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] },
    {
      "@id": "./a/",
      "@type": "Dataset",
      variableMeasured: [
        { "@id": "#1" },
        { "@type": "PropertyValue", propertyID: "cfg.p.set", value: 2.5, unitText: "bar" },
        { "@type": "PropertyValue", propertyID: "temps.0", value: 20, minValue: 0, maxValue: 99 },
        { "@type": "PropertyValue", propertyID: "temps.1", value: "warm" },
        { "@type": "PropertyValue", propertyID: "ok", value: true, identifier: "https://x.org/ok" },
        { "@type": "PropertyValue", propertyID: "empty", value: null },
      ],
    },
    { "@id": "#1", "@type": "PropertyValue", name: "when", value: "2024-05-01T10:00:00+02:00" },
  ]);
  assertEquals(p.records[0]!.extras, [
    { key: "when", type: "date", value: "2024-05-01T10:00:00+02:00" },
    {
      key: "cfg",
      type: "dict",
      value: [{
        key: "p",
        type: "dict",
        value: [{ key: "set", type: "float", value: 2.5, unit: "bar" }],
      }],
    },
    {
      key: "temps",
      type: "list",
      value: [
        { type: "int", value: 20, validation: { range: { min: 0, max: 99 } } },
        { type: "str", value: "warm" },
      ],
    },
    { key: "ok", type: "bool", value: true, term: "https://x.org/ok" },
  ]);
});

Deno.test("planEln() makes a collection by genre or for several records", () => {
  const two = (genre?: string) =>
    plan([
      descriptor(),
      {
        "@id": "./",
        "@type": "Dataset",
        name: "Crate",
        ...(genre ? { genre } : {}),
        hasPart: [{ "@id": "./a/" }, { "@id": "./b/" }],
      },
      { "@id": "./a/", "@type": "Dataset" },
      { "@id": "./b/", "@type": "Dataset" },
    ]);
  assertEquals(two().collection?.title, "Crate");
  assertEquals(two("record").collection, undefined);
  const one = plan([descriptor(), {
    "@id": "./",
    "@type": "Dataset",
    genre: "collection",
    hasPart: [{ "@id": "./a/" }],
  }, { "@id": "./a/", "@type": "Dataset" }]);
  assertEquals(one.collection?.title, "crate");
});

Deno.test("planEln() skips external and missing files and MD5 values with a note each", () => {
  const p = plan([
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] },
    {
      "@id": "./a/",
      "@type": "Dataset",
      hasPart: [{ "@id": "https://example.org/x.png" }, { "@id": "./a/gone.txt" }, {
        "@id": "./a/md5.txt",
      }],
    },
    { "@id": "https://example.org/x.png", "@type": "File" },
    { "@id": "./a/gone.txt", "@type": "File" },
    { "@id": "./a/md5.txt", "@type": "File", sha256: "0123456789abcdef0123456789abcdef" },
  ], { "a/md5.txt": 1 });
  assertEquals(p.records[0]!.files.map((f) => [f.name, f.sha256]), [["md5.txt", undefined]]);
  assertEquals(p.warnings.length, 3);
});

Deno.test("parseCrate() refuses pre-specification layouts with a clear reason", () => {
  assertThrows(() => parseCrate('{"context": "x", "@graph": []}'), InputError);
  const error = assertThrows(() => parseCrate('{"@context": "x", "files": []}'), InputError);
  assertEquals(error.message.includes("no '@graph'"), true);
  assertThrows(() => parseCrate("not json"), InputError);
  assertThrows(
    () => parseCrate(JSON.stringify({ "@context": CONTEXT, "@graph": [descriptor()] })),
    InputError,
  );
});

Deno.test("planEln() numbers equal file names and caps the numbering with a clear error", () => {
  const graph = (names: string[]) => [
    descriptor(),
    { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./a/" }] },
    {
      "@id": "./a/",
      "@type": "Dataset",
      name: "A",
      hasPart: names.map((_, i) => ({ "@id": `./a/${i}/f` })),
    },
    ...names.map((name, i) => ({ "@id": `./a/${i}/f`, "@type": "File", name })),
  ];
  const sizes = (names: string[]) => Object.fromEntries(names.map((_, i) => [`a/${i}/f`, 1]));
  const few = ["x.txt", "x.txt", "x_2.txt", "x.txt", "README", "README"];
  assertEquals(
    plan(graph(few), sizes(few)).records[0]!.files.map((f) => f.name),
    ["x.txt", "x_2.txt", "x_2_2.txt", "x_3.txt", "README", "README_2"],
  );
  // `x.txt`, `x_2.txt` … `x_10000.txt` are all taken: one more `x.txt` has no number left.
  const many = ["x.txt", ...Array.from({ length: 9_999 }, (_, i) => `x_${i + 2}.txt`), "x.txt"];
  const error = assertThrows(() => plan(graph(many), sizes(many)), InputError);
  assertEquals(
    error.message,
    "The record 'A' has more than 10000 files named 'x.txt' (or named like its numbered copies): " +
      "rename them in the crate",
  );
});

Deno.test("planEln() keeps a PropertyValue's float a float (100.0, -0.0, 1e3) and a big integer's digits", () => {
  const text = `{"@context": "${CONTEXT}", "@graph": [
    {"@id": "ro-crate-metadata.json", "@type": "CreativeWork", "about": {"@id": "./"}},
    {"@id": "./", "@type": "Dataset", "hasPart": [{"@id": "./a/"}]},
    {"@id": "./a/", "@type": "Dataset", "variableMeasured": [
      {"@type": "PropertyValue", "propertyID": "whole", "value": 100.0},
      {"@type": "PropertyValue", "propertyID": "one", "value": 1.0},
      {"@type": "PropertyValue", "propertyID": "zero", "value": -0.0},
      {"@type": "PropertyValue", "propertyID": "exp", "value": 1e3},
      {"@type": "PropertyValue", "propertyID": "int", "value": 100},
      {"@type": "PropertyValue", "propertyID": "big", "value": 9007199254740993}
    ]}
  ]}`;
  const p = planEln({ crate: parseCrate(text), root: "crate", files: new Map() });
  const extras = p.records[0]!.extras;
  assertEquals(extras.map((extra) => [extra.key, extra.type]), [
    ["whole", "float"],
    ["one", "float"],
    ["zero", "float"],
    ["exp", "float"],
    ["int", "int"],
    ["big", "str"],
  ]);
  assertEquals(Object.is(extras[2]!.value, -0), true);
  assertEquals(extras[3]!.value, 1000);
  assertEquals(extras[5]!.value, "9007199254740993"); // not rounded to ...992
  assertEquals(
    JSON.stringify(keepFloats(extras.slice(0, 4))),
    '[{"key":"whole","type":"float","value":100.0},{"key":"one","type":"float","value":1.0},' +
      '{"key":"zero","type":"float","value":-0.0},{"key":"exp","type":"float","value":1000.0}]',
  );
});
