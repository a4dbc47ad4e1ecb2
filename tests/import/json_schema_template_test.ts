// jsonSchemaToTemplate(): the rules of client-reference §5.2 and every file of
// ../shared/corpus/json-schema (pure, no server).
import { assert, assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import { validateExtras } from "../../lib/resources/metadata.ts";
import { shape } from "./_shape.ts";
import { jsonSchemaToTemplate } from "../../lib/import/json_schema_template.ts";
import { stringifyJson } from "../../lib/http/_float_json.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

const CORPUS = new URL("../../../shared/corpus/json-schema/", import.meta.url);

function convert(schema: unknown, fileName = "test.schema.json") {
  return jsonSchemaToTemplate(JSON.stringify(schema), { fileName });
}

Deno.test("jsonSchemaToTemplate() maps types, defaults, units, required, enums and ranges", () => {
  const draft = convert({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "Sample",
    description: "About",
    type: "object",
    required: ["name", "count"],
    properties: {
      name: { type: ["string", "null"], minLength: 1, default: "A-1", description: "Name" },
      count: { type: ["integer", "null"], minimum: 1, maximum: 9, default: 3 },
      mass: { type: "number", unit: { type: "string", default: "g" }, minimum: 0 },
      ok: { type: "boolean", default: true },
      when: { type: "string", format: "date-time", default: "2020-01-01T00:00:00+00:00" },
      mode: { type: "string", enum: ["a", "b", null, 3] },
      link: { type: "string", format: "uri" },
      untyped: { description: 42 },
      other: { type: "null" },
    },
  });
  assertEquals(draft.title, "Sample");
  assertEquals(draft.description, "About");
  assertEquals(draft.extras, [
    { key: "name", type: "str", value: "A-1", description: "Name", validation: { required: true } },
    {
      key: "count",
      type: "int",
      value: 3,
      validation: { required: true, range: { min: 1, max: 9 } },
    },
    {
      key: "mass",
      type: "float",
      value: null,
      unit: "g",
      validation: { range: { min: 0, max: null } },
    },
    { key: "ok", type: "bool", value: true },
    { key: "when", type: "date", value: "2020-01-01T00:00:00+00:00" },
    { key: "mode", type: "str", value: null, validation: { options: ["a", "b", "3"] } },
    { key: "link", type: "str", value: null, validation: { iri: true } },
    { key: "untyped", type: "str", value: null, description: "42" },
    { key: "other", type: "str", value: null },
  ]);
  validateExtras(draft.extras);
});

Deno.test("jsonSchemaToTemplate() follows propertiesOrder per level; unlisted names sort as 0", () => {
  const draft = convert({
    type: "object",
    properties: {
      b: { type: "string" },
      x: { type: "string" },
      "1": { type: "string" },
      d: {
        type: "object",
        properties: { z: { type: "integer" }, y: { type: "integer" } },
        propertiesOrder: ["y", "z"],
      },
      a: { type: "string" },
    },
    propertiesOrder: ["a", "b", "d", "1"],
  });
  // "a" is index 0 and "x" (unlisted) counts as 0 too, so both come first in document order.
  assertEquals(shape(draft.extras), "x:str,a:str,b:str,d:dict(y:int,z:int),1:str");
  assertEquals(draft.title, "test.schema");
});

Deno.test("jsonSchemaToTemplate() converts arrays: items, tuple items, prefixItems, empty arrays", () => {
  const draft = convert({
    type: "object",
    properties: {
      one: { type: "array", items: { type: "object", properties: { k: { type: "number" } } } },
      tuple: { type: "array", items: [{ type: "integer" }, { type: "string" }] },
      prefix: { type: "array", prefixItems: [{ type: "boolean" }, { type: "array" }] },
      empty: { type: "array" },
      inferred: { items: { type: "integer" } },
    },
  });
  assertEquals(
    shape(draft.extras),
    "one:list(:dict(k:float)),tuple:list(:int,:str),prefix:list(:bool,:list()),empty:list()," +
      "inferred:list(:int)",
  );
  validateExtras(draft.extras);
});

Deno.test("jsonSchemaToTemplate() resolves local $ref (pointers, anchors, $id) and merges allOf", () => {
  const draft = convert({
    $id: "https://example.org/s.json",
    type: "object",
    properties: {
      a: { $ref: "#/$defs/len", description: "sibling wins" },
      b: { $ref: "#/definitions/a~1b" },
      c: { $ref: "#anchored" },
      d: { $ref: "https://example.org/s.json#/$defs/len" },
      e: {
        allOf: [{ properties: { p: { type: "integer" } }, required: ["p"] }, { $ref: "#/$defs/q" }],
      },
    },
    $defs: {
      len: { type: "number", description: "Length", unit: { default: "m" } },
      q: { type: "object", properties: { q: { type: "string" } } },
      anchor: { $anchor: "anchored", type: "boolean" },
    },
    definitions: { "a/b": { type: "integer" } },
  });
  assertEquals(draft.extras[0], {
    key: "a",
    type: "float",
    value: null,
    description: "sibling wins",
    unit: "m",
  });
  assertEquals(shape(draft.extras), "a:float,b:int,c:bool,d:float,e:dict(p:int,q:str)");
  assertEquals(
    (draft.extras[4]?.value as Extra[])[0]?.validation,
    { required: true },
  );
});

Deno.test("jsonSchemaToTemplate() refuses remote, broken and recursive $ref and non-objects", () => {
  const remote = assertThrows(
    () => convert({ type: "object", properties: { a: { $ref: "https://example.org/x.json" } } }),
    InputError,
  );
  assertStringIncludes(remote.message, "never fetched");
  assertStringIncludes(remote.message, "#/properties/a");
  assertThrows(
    () => convert({ type: "object", properties: { a: { $ref: "other.json#/a" } } }),
    InputError,
  );
  assertThrows(
    () => convert({ type: "object", properties: { a: { $ref: "#/nothing" } } }),
    InputError,
  );
  const cycle = assertThrows(
    () =>
      convert({
        type: "object",
        properties: { n: { $ref: "#/$defs/node" } },
        $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      }),
    InputError,
  );
  assertStringIncludes(cycle.message, "recursive");
  for (const schema of [[], { type: "string" }, { type: "object", properties: {} }]) {
    const error = assertThrows(() => convert(schema), InputError);
    assertStringIncludes(error.message, "Only objects are supported as top-level types");
  }
  assertThrows(() => jsonSchemaToTemplate("{not json"), InputError);
});

Deno.test("jsonSchemaToTemplate() bounds what $refs can multiply", () => {
  // Each level refers to the next one twice: 2^20 fields if expanded.
  const defs: { [name: string]: unknown } = { l20: { type: "string" } };
  for (let i = 0; i < 20; i++) {
    defs[`l${i}`] = {
      type: "object",
      properties: { a: { $ref: `#/$defs/l${i + 1}` }, b: { $ref: `#/$defs/l${i + 1}` } },
    };
  }
  const error = assertThrows(
    () => convert({ type: "object", properties: { top: { $ref: "#/$defs/l0" } }, $defs: defs }),
    InputError,
  );
  assertStringIncludes(error.message, "more than 10000 fields");
});

// One test per corpus file: a template (key order and types checked) or a clear refusal.
const CORPUS_EXPECTED: { [file: string]: { title?: string; starts?: string; refused?: string } } = {
  "eln-consortium/eln-ro-crate-metadata.schema.json": {
    title: "eln-ro-crate-metadata.schema",
    starts: "@context:str,@graph:list(:dict(@id:str,@type:str,about:dict(@id:str)",
  },
  "kit-materials-science/MRI_schema.json": {
    title: "Magnetic Resonance Imaging (MRI) schema",
    starts: "study:dict(studyID:str,studyTitle:str,studyDateTime:date,program:str,user:dict(",
  },
  "kit-materials-science/SEM_schema.json": {
    title: "sem",
    starts: "entry:dict(technique:str,measurementPurpose:str,",
  },
  "kit-materials-science/user_description.json": {
    title: "user_description",
    starts: "userName:str,givenName:str,familyName:str,age:float,role:str,affiliation:dict(",
  },
  "mdf/material.json": {
    title: "MDF Materials Block",
    starts: "material:dict(common_name:str,composition:str,elements:list(:str)",
  },
  "sampledb/ombe_measurement.sampledb.json": { refused: "is no JSON Schema type" },
};

for (const [file, expected] of Object.entries(CORPUS_EXPECTED)) {
  Deno.test(`jsonSchemaToTemplate() corpus ${file}`, NEEDS_CORPUS, async () => {
    const text = await Deno.readTextFile(new URL(file, CORPUS));
    if (expected.refused !== undefined) {
      const error = assertThrows(() => jsonSchemaToTemplate(text, { fileName: file }), InputError);
      assertStringIncludes(error.message, expected.refused);
      return;
    }
    const draft = jsonSchemaToTemplate(text, { fileName: file });
    assertEquals(draft.title, expected.title);
    const actual = shape(draft.extras);
    assertEquals(actual.slice(0, expected.starts!.length), expected.starts);
    validateExtras(draft.extras); // what the server would accept
  });
}

Deno.test(
  "jsonSchemaToTemplate() corpus: user_description keeps required, enums and descriptions",
  NEEDS_CORPUS,
  async () => {
    const text = await Deno.readTextFile(
      new URL("kit-materials-science/user_description.json", CORPUS),
    );
    const [userName, , , , role] = jsonSchemaToTemplate(text).extras;
    assertEquals(userName?.validation, { required: true });
    assertEquals(role?.validation, {
      required: true,
      options: ["Data Curator", "Instrument Scientist", "Team Leader", "Team Member"],
    });
    assertStringIncludes(role?.description ?? "", "Role of the user");
    const contact = jsonSchemaToTemplate(text).extras.find((extra) => extra.key === "contact");
    // Items without a type but with oneOf branches: their fields joined, none required.
    assertEquals(shape([contact!]), "contact:list(:dict(email:str,orcid:str))");
  },
);

Deno.test(
  "jsonSchemaToTemplate() corpus: SEM resolves its 73 local $refs with non-ASCII enums",
  NEEDS_CORPUS,
  async () => {
    const text = await Deno.readTextFile(new URL("kit-materials-science/SEM_schema.json", CORPUS));
    const json = JSON.stringify(jsonSchemaToTemplate(text).extras);
    assertStringIncludes(json, '"µm"');
    assertEquals(json.includes("$ref"), false);
  },
);

Deno.test("jsonSchemaToTemplate() bounds the nesting depth", () => {
  let schema: unknown = { type: "string" };
  for (let i = 0; i < 80; i++) schema = { type: "object", properties: { n: schema } };
  const error = assertThrows(() => convert(schema), InputError);
  assertStringIncludes(error.message, "deeper than 64 levels");
});

/** `levels` definitions, each the allOf of two $refs to the next: 2^levels paths to the last. */
function fanOutSchema(levels: number): string {
  const defs: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const next = { $ref: `#/$defs/l${level + 1}` };
    defs[`l${level}`] = { allOf: [next, { ...next, description: `level ${level}` }] };
  }
  defs[`l${levels}`] = { type: "object", properties: { x: { type: "string" } } };
  return JSON.stringify({
    type: "object",
    properties: { a: { $ref: "#/$defs/l0" }, b: { $ref: "#/$defs/l0" } },
    $defs: defs,
  });
}

Deno.test("jsonSchemaToTemplate(): 24 levels of allOf of two $refs expand each reference once", () => {
  const draft = jsonSchemaToTemplate(fanOutSchema(24));
  assertEquals(
    shape(draft.extras),
    shape([
      { key: "a", type: "dict", value: [{ key: "x", type: "str", value: null }] },
      { key: "b", type: "dict", value: [{ key: "x", type: "str", value: null }] },
    ]),
  );
});

Deno.test("jsonSchemaToTemplate() refuses beyond maxNodes, a $ref chain too deep, never an engine error", () => {
  const many = assertThrows(
    () => jsonSchemaToTemplate(fanOutSchema(24), { maxNodes: 50 }),
    InputError,
  );
  assertStringIncludes(many.message, "needs more than 50 steps to expand");
  const defs: Record<string, unknown> = {};
  for (let level = 0; level < 5000; level++) defs[`l${level}`] = { $ref: `#/$defs/l${level + 1}` };
  defs["l5000"] = { type: "string" };
  const chain = assertThrows(
    () =>
      jsonSchemaToTemplate(JSON.stringify({
        type: "object",
        properties: { a: { $ref: "#/$defs/l0" } },
        $defs: defs,
      })),
    InputError,
  );
  assertStringIncludes(chain.message, "deeper than 256 levels");
  const nested = `{"type": "object", "properties": {"a": ${"[".repeat(200_000)}${
    "]".repeat(200_000)
  }}}`;
  const deep = assertThrows(() => jsonSchemaToTemplate(nested), InputError);
  assert(!deep.message.includes("Maximum call stack"), deep.message);
});

Deno.test("jsonSchemaToTemplate() keeps floats floats (1.0, -0.0, 1e3) and never rounds a big integer", () => {
  const draft = jsonSchemaToTemplate(
    `{"type": "object", "properties": {
      "a": {"type": "number", "default": 1.0, "minimum": -0.0, "maximum": 1e3},
      "b": {"type": "integer", "default": 9007199254740993},
      "c": {"type": "number", "enum": [1.0, 2.5]}
    }}`,
    { fileName: "floats.schema.json" },
  );
  assertEquals(
    stringifyJson(draft.extras),
    '[{"key":"a","type":"float","value":1.0,"validation":{"range":{"min":-0.0,"max":1000.0}}},' +
      '{"key":"b","type":"int","value":null},' +
      '{"key":"c","type":"float","value":null,"validation":{"options":[1.0,2.5]}}]',
  );
});

Deno.test("jsonSchemaToTemplate(): a definition shared by an allOf part and a property is no recursion (issue 31)", () => {
  const l0 = { type: "object", properties: { a: { type: "string" } } };
  for (
    const defs of [
      // l1 = allOf[$ref l0] plus a property x1: $ref l0.
      { l0, l1: { allOf: [{ $ref: "#/$defs/l0" }], properties: { x1: { $ref: "#/$defs/l0" } } } },
      // The same through a chain of three.
      {
        l0,
        l1: { allOf: [{ $ref: "#/$defs/l0" }], properties: { x1: { $ref: "#/$defs/l0" } } },
        l2: { allOf: [{ $ref: "#/$defs/l1" }], properties: { x2: { $ref: "#/$defs/l1" } } },
      },
      // Only the nesting: a property refers to l0, whose allOf also refers to it.
      {
        l0,
        l1: {
          type: "object",
          allOf: [{ $ref: "#/$defs/l0" }, { properties: { x1: { $ref: "#/$defs/l0" } } }],
        },
      },
    ]
  ) {
    const top = Object.keys(defs).at(-1)!;
    const draft = convert({
      type: "object",
      properties: { p: { $ref: `#/$defs/${top}` } },
      $defs: defs,
    });
    const p = draft.extras.find((extra) => extra.key === "p");
    assertEquals(p?.type, "dict");
    const keys = (p?.value as Extra[]).map((extra) => extra.key);
    assert(keys.includes("a") && keys.includes("x1"), keys.join(","));
  }
  // A real cycle through allOf is still refused.
  const cycle = assertThrows(
    () =>
      convert({
        type: "object",
        properties: { p: { $ref: "#/$defs/l1" } },
        $defs: {
          l1: { allOf: [{ $ref: "#/$defs/l0" }] },
          l0: { properties: { back: { $ref: "#/$defs/l1" } } },
        },
      }),
    InputError,
  );
  assertStringIncludes(cycle.message, "recursive");
});
