// Tests of the local server's template exports: json, json-schema and shacl, their shapes and
// file names, and a JSON Schema round trip through the import rules of client-reference §5.2.
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call } from "./_helpers.ts";

const EXTRAS = [
  {
    key: "temp",
    type: "float",
    value: 20.5,
    unit: "K",
    description: "Temperature",
    validation: { required: true, range: { min: 0, max: null } },
  },
  { key: "mode", type: "str", value: null, validation: { options: ["a", "b"] } },
  { key: "count", type: "int", value: 3, unit: null, term: "http://example.org/count" },
  { key: "when", type: "date", value: null },
  { key: "site", type: "str", value: null, validation: { iri: true } },
  {
    key: "setup",
    type: "dict",
    value: [
      { key: "on", type: "bool", value: true },
      { key: "steps", type: "list", value: [{ type: "int", value: 1, unit: null }] },
    ],
  },
];

async function fetchExport(server: TestServer, id: number, type: string) {
  const response = await fetch(`${server.url}/api/v1/templates/${id}/export/${type}`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  return { response, text: await response.text() };
}

async function createTemplate(server: TestServer, type: "extras" | "record") {
  const data = type === "extras" ? EXTRAS : { title: "R", extras: EXTRAS };
  const answer = await call(server, "POST", "/templates", {
    body: { identifier: `tpl-${type}`, title: "Template", description: "About", type, data },
  });
  assertEquals(answer.status, 201);
  return answer.body;
}

// The JSON Schema import rules of client-reference §5.2, enough to check the round trip.
/** A decoded JSON object, or an empty one for anything else. */
function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function importSchema(schema: unknown): unknown[] {
  const s = asObject(schema);
  const order = asStrings(s.propertiesOrder);
  const properties = asObject(s.properties);
  const names = Object.keys(properties);
  names.sort((a, b) => Math.max(0, order.indexOf(a)) - Math.max(0, order.indexOf(b)));
  return names.map((name) => importProperty(name, properties[name], asStrings(s.required)));
}

function importProperty(
  key: string | null,
  property: unknown,
  required: string[],
): Record<string, unknown> {
  const p = asObject(property);
  const out: Record<string, unknown> = key === null ? {} : { key };
  const rawType = Array.isArray(p.type) ? p.type[0] : p.type ?? "string";
  const type = typeof rawType === "string" ? rawType : "string";
  if (type === "object") return { ...out, type: "dict", value: importSchema(p) };
  if (type === "array") {
    const items = Array.isArray(p.prefixItems) ? p.prefixItems : [];
    return { ...out, type: "list", value: items.map((i: unknown) => importProperty(null, i, [])) };
  }
  const types: Record<string, string> = { integer: "int", number: "float", boolean: "bool" };
  out.type = type === "string" ? (p.format === "date-time" ? "date" : "str") : types[type] ?? "str";
  out.value = p.default ?? null;
  const unit = asObject(p.unit);
  if (unit.default !== undefined) out.unit = unit.default;
  if (p.description !== undefined) out.description = String(p.description);
  const validation: Record<string, unknown> = {};
  if (key !== null && required.includes(key)) validation.required = true;
  if (p.enum) validation.options = p.enum;
  if (p.minimum !== undefined || p.maximum !== undefined) {
    validation.range = { min: p.minimum ?? null, max: p.maximum ?? null };
  }
  if (Object.keys(validation).length > 0) out.validation = validation;
  return out;
}

Deno.test("template exports: names and content types; unknown type is 404", async () => {
  await using server = await startServer();
  const t = await createTemplate(server, "extras");
  const expected: Record<string, [string, string]> = {
    json: ["application/json", "tpl-extras.json"],
    "json-schema": ["application/json", "tpl-extras.json"],
    shacl: ["text/turtle", "tpl-extras.ttl"],
  };
  for (const [type, [contentType, name]] of Object.entries(expected)) {
    const { response } = await fetchExport(server, t.id, type);
    assertEquals(response.status, 200);
    assertEquals(response.headers.get("content-type"), contentType);
    assertStringIncludes(response.headers.get("content-disposition") ?? "", name);
  }
  assertEquals((await fetchExport(server, t.id, "rdf")).response.status, 404);
  assertEquals((await fetchExport(server, 99, "json")).response.status, 404);
});

Deno.test("template json export drops links, actions and state and reduces the creator", async () => {
  await using server = await startServer();
  const t = await createTemplate(server, "record");
  const json = JSON.parse((await fetchExport(server, t.id, "json")).text);
  assertEquals(json.identifier, "tpl-record");
  assertEquals(json.type, "record");
  assertEquals(json.data.title, "R");
  for (const key of ["_links", "_actions", "state", "visibility", "plain_description"]) {
    assertEquals(key in json, false, key);
  }
  assertEquals(Object.keys(json.creator).sort(), ["displayname", "id", "orcid"]);
  const filtered = await fetch(
    `${server.url}/api/v1/templates/${t.id}/export/json?filter=${
      encodeURIComponent('{"user":true}')
    }`,
    { headers: { Authorization: `Bearer ${server.pat}` } },
  );
  assertEquals("creator" in await filtered.json(), false);
});

Deno.test("template json-schema export has order, required, ranges, enums, units and defaults", async () => {
  await using server = await startServer();
  for (const type of ["extras", "record"] as const) {
    const t = await createTemplate(server, type);
    const schema = JSON.parse((await fetchExport(server, t.id, "json-schema")).text);
    assertEquals(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
    assertEquals(schema.type, "object");
    assertEquals(schema.propertiesOrder, ["temp", "mode", "count", "when", "site", "setup"]);
    assertEquals(schema.required, ["temp"]);
    assertEquals(schema.properties.temp, {
      type: "number",
      description: "Temperature",
      default: 20.5,
      unit: { type: "string", minLength: 1, default: "K" },
      minimum: 0,
    });
    assertEquals(schema.properties.mode, {
      type: "string",
      minLength: 1,
      enum: ["a", "b"],
    });
    assertEquals(schema.properties.when, { type: "string", format: "date-time" });
    // Kadi 1.13.0 writes no format for an IRI-validated string.
    assertEquals(schema.properties.site, { type: "string", minLength: 1 });
    assertEquals(schema.properties.setup.type, "object");
    assertEquals(schema.properties.setup.propertiesOrder, ["on", "steps"]);
    assertEquals(schema.properties.setup.properties.steps.type, "array");
    assertEquals(schema.properties.setup.properties.steps.prefixItems, [{
      type: "integer",
      default: 1,
      unit: { type: "string", minLength: 1 }, // every int and float has a unit key, null or not
    }]);
    const imported = importSchema(schema);
    const expected = [
      EXTRAS[0], // every field of it survives
      { key: "mode", type: "str", value: null, validation: { options: ["a", "b"] } },
      { key: "count", type: "int", value: 3 },
      { key: "when", type: "date", value: null },
      { key: "site", type: "str", value: null },
      {
        key: "setup",
        type: "dict",
        value: [
          { key: "on", type: "bool", value: true },
          { key: "steps", type: "list", value: [{ type: "int", value: 1 }] },
        ],
      },
    ];
    assertEquals(imported, expected);
  }
});

Deno.test("template shacl export is a NodeShape with ordered, typed property shapes", async () => {
  await using server = await startServer();
  const t = await createTemplate(server, "extras");
  const ttl = (await fetchExport(server, t.id, "shacl")).text;
  const root = `${server.url}/api/v1/templates/${t.id}`;
  assertStringIncludes(ttl, "@prefix sh: <http://www.w3.org/ns/shacl#> .");
  for (
    const part of [
      `<${root}> a sh:NodeShape ;`,
      'dcterms:title "Template" ;',
      'dcterms:description "About" ;',
      'dcterms:creator "Test User" ;',
      `owl:imports <${root}#shapes/setup> ;`,
      `owl:imports <${root}#shapes/setup.steps> ;`,
      `<${root}#shapes/setup> a sh:NodeShape ;`,
      `<${root}#shapes/setup.steps> a sh:NodeShape ;`,
    ]
  ) assertStringIncludes(ttl, part);
  const blocks = ttl.split("sh:property [").slice(1);
  assertEquals(blocks.length, 9);
  const shape = (name: string) => {
    const found = blocks.find((b) => b.includes(`sh:name "${name}"@en ;`));
    assert(found, name);
    return found;
  };
  for (
    const part of [
      `sh:path <${root}#temp> ;`,
      "sh:order 0 ;",
      "sh:maxCount 1 ;",
      "sh:datatype xsd:float ;",
      'sh:defaultValue "20.5"^^xsd:float ;',
      "sh:minCount 1 ;",
      'sh:minInclusive "0"^^xsd:float ;',
      'sh:description "Temperature" ;',
    ]
  ) assertStringIncludes(shape("temp"), part);
  assertEquals(shape("temp").includes("sh:maxInclusive"), false);
  assertStringIncludes(shape("mode"), 'sh:in ( "a" "b" ) ;');
  assertStringIncludes(shape("mode"), "sh:order 1 ;");
  assertStringIncludes(shape("count"), "sh:path <http://example.org/count> ;");
  assertStringIncludes(shape("count"), "sh:defaultValue 3 ;");
  assertStringIncludes(shape("when"), "sh:datatype xsd:dateTime ;");
  assertStringIncludes(shape("site"), "sh:datatype xsd:anyURI ;");
  assertStringIncludes(shape("setup"), `sh:qualifiedValueShape <${root}#shapes/setup> ;`);
  assertStringIncludes(shape("on"), `sh:path <${root}#setup.on> ;`);
  assertStringIncludes(shape("steps"), `sh:qualifiedValueShape <${root}#shapes/setup.steps> ;`);
  assertStringIncludes(shape("0"), "sh:datatype xsd:integer ;");
  const noUser = await fetch(
    `${root}/export/shacl?filter=${encodeURIComponent('{"user":true}')}`,
    { headers: { Authorization: `Bearer ${server.pat}` } },
  );
  assertEquals((await noUser.text()).includes("dcterms:creator"), false);
});

Deno.test("template json-schema export of an empty template is only $schema", async () => {
  await using server = await startServer();
  const answer = await call(server, "POST", "/templates", {
    body: { identifier: "empty", title: "Empty", type: "record", data: {} },
  });
  const schema = JSON.parse((await fetchExport(server, answer.body.id, "json-schema")).text);
  assertEquals(schema, { $schema: "https://json-schema.org/draft/2020-12/schema" });
});

Deno.test("template shacl export escapes quotes, backslashes and line breaks in literals", async () => {
  await using server = await startServer();
  const answer = await call(server, "POST", "/templates", {
    body: {
      identifier: "esc",
      title: 'Say "hi"',
      description: "line 1\r\nline 2 \\ end",
      type: "extras",
      data: [{ key: "k", type: "str", value: null, description: "a\rb" }],
    },
  });
  const ttl = (await fetchExport(server, answer.body.id, "shacl")).text;
  assertEquals(ttl.includes("\r"), false);
  assertStringIncludes(ttl, 'dcterms:title "Say \\"hi\\"" ;');
  assertStringIncludes(ttl, 'dcterms:description "line 1\\r\\nline 2 \\\\ end" ;');
  assertStringIncludes(ttl, 'sh:description "a\\rb" ;');
});
