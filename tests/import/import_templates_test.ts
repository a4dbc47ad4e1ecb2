// importJsonSchema() / importShacl() against the local server over real HTTP, and the round
// trips: a template exported as json-schema or shacl and imported again has the same extras.
import { fileURLToPath } from "node:url";
import { assertEquals, assertRejects, assertStringIncludes, assertTrue } from "../_assert.ts";
import { MAX_FIELD_OPTIONS } from "../../lib/import/template_draft.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { InputError } from "../../lib/errors.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { importJsonSchema, importShacl } from "../../lib/import/mod.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));

/** Every kind of field, with units, ranges, options, required, IRIs, nesting and lists. */
const EXTRAS: Extra[] = [
  {
    key: "temp",
    type: "float",
    value: 20.5,
    unit: "K",
    description: "Temperature",
    validation: { required: true, range: { min: 0, max: null } },
  },
  { key: "mode", type: "str", value: null, validation: { options: ["a", "b"] } },
  { key: "count", type: "int", value: 3, unit: null, validation: { range: { min: 1, max: 5 } } },
  { key: "when", type: "date", value: "2024-05-01T10:20:30+00:00" },
  { key: "site", type: "str", value: null, validation: { iri: true } },
  { key: "10", type: "bool", value: false },
  {
    key: "setup",
    type: "dict",
    value: [
      { key: "on", type: "bool", value: true, validation: { required: true } },
      {
        key: "steps",
        type: "list",
        value: [{ type: "int", value: 1 }, { type: "str", value: "x" }],
      },
      { key: "ratio", type: "float", value: null, unit: "%", validation: { options: [0.5, 1.5] } },
    ],
  },
];

async function fixture(server: TestServer) {
  const manager = new RepoManager({ host: server.url, pat: server.pat });
  const template = await manager.template({
    identifier: "original",
    create: true,
    title: "Original",
    description: "All kinds",
    type: "extras",
    data: EXTRAS,
  });
  return { manager, template };
}

async function exported(
  template: { exportStream(type: "json-schema" | "shacl"): Promise<ReadableStream<Uint8Array>> },
  type: "json-schema" | "shacl",
) {
  // Named as the server names the download: `<identifier>.<json|ttl>`.
  const dir = await Deno.makeTempDir();
  const path = `${dir}/original.${type === "shacl" ? "ttl" : "json"}`;
  await Deno.writeFile(path, await template.exportStream(type));
  return path;
}

/** Drops what an export format cannot carry (units in SHACL). */
function withoutUnits(extras: Extra[]): Extra[] {
  return extras.map(({ unit: _unit, ...extra }) =>
    extra.type === "dict" || extra.type === "list"
      ? { ...extra, value: withoutUnits(extra.value as Extra[]) }
      : extra
  );
}

/** Drops the IRI check, which Kadi 1.13.0's JSON Schema export does not write (no `format`). */
function withoutIri(extras: Extra[]): Extra[] {
  return extras.map((extra) => {
    if (extra.type === "dict" || extra.type === "list") {
      return { ...extra, value: withoutIri(extra.value as Extra[]) };
    }
    if (!extra.validation?.iri) return extra;
    const { iri: _iri, ...validation } = extra.validation;
    const { validation: _v, ...rest } = extra;
    return Object.keys(validation).length > 0 ? { ...rest, validation } : rest;
  });
}

Deno.test("importJsonSchema() round trip: the json-schema export imports to the same extras", async () => {
  await using server = await startServer();
  const { manager, template } = await fixture(server);
  await using _ = manager;
  const path = await exported(template, "json-schema");
  try {
    const copy = await importJsonSchema(manager, path);
    const meta = await copy.meta();
    // The repository's JSON Schema carries no title: the file name gives it.
    assertEquals([meta.title, meta.description, meta.type], ["original", "", "extras"]);
    assertEquals(meta.identifier, "original-1"); // "original" is taken
    const expected = withoutIri((await template.meta()).data as Extra[]);
    assertEquals(meta.data, expected);
    const record = await importJsonSchema(manager, path, { templateType: "record" });
    const recordMeta = await record.meta();
    assertEquals(recordMeta.type, "record");
    assertEquals((recordMeta.data as { extras: Extra[] }).extras, expected);
  } finally {
    await Deno.remove(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  }
});

Deno.test("importShacl() round trip: the shacl export imports to the same extras (no units)", async () => {
  await using server = await startServer();
  const { manager, template } = await fixture(server);
  await using _ = manager;
  const path = await exported(template, "shacl");
  try {
    const copy = await importShacl(manager, path);
    const meta = await copy.meta();
    assertEquals([meta.title, meta.description], ["Original", "All kinds"]);
    assertEquals(
      withoutUnits(meta.data as Extra[]),
      withoutUnits((await template.meta()).data as Extra[]),
    );
  } finally {
    await Deno.remove(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  }
});

Deno.test(
  "importJsonSchema() and importShacl() create a template from every importable corpus file",
  NEEDS_CORPUS,
  async () => {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const files = [
      [
        "json-schema/eln-consortium/eln-ro-crate-metadata.schema.json",
        "eln-ro-crate-metadataschema",
      ],
      [
        "json-schema/kit-materials-science/MRI_schema.json",
        "magnetic-resonance-imaging-mri-schema",
      ],
      ["json-schema/kit-materials-science/SEM_schema.json", "sem"],
      ["json-schema/kit-materials-science/user_description.json", "user_description"],
      ["json-schema/mdf/material.json", "mdf-materials-block"],
      ["shacl/coscine/radar.ttl", "radar-application-profile"],
      ["shacl/coscine/engmeta.ttl", "engmeta-application-profile"],
      ["shacl/coscine/sfb1394-SEM.ttl", "sfb1394-sem"],
      ["shacl/eln-consortium/goldStandardShapes.ttl", "goldstandardshapes"],
      [
        "shacl/rocrate-validator/ro-crate-1.1-must-1_file-descriptor_metadata.ttl",
        "ro-crate-11-must-1_file-descriptor_metadata",
      ],
      [
        "shacl/rocrate-validator/ro-crate-1.1-must-4_data_entity_metadata.ttl",
        "ro-crate-11-must-4_data_entity_metadata",
      ],
    ];
    for (const [file, identifier] of files) {
      const importer = file!.startsWith("shacl/") ? importShacl : importJsonSchema;
      const template = await importer(manager, `${CORPUS}${file}`);
      const meta = await template.meta();
      assertEquals(meta.identifier, identifier, file);
      assertTrue(Array.isArray(meta.data) && meta.data.length > 0, file);
    }
  },
);

Deno.test(
  "importJsonSchema() and importShacl() refuse before creating anything",
  NEEDS_CORPUS,
  async () => {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const refusals: [typeof importShacl, string, string][] = [
      [
        importJsonSchema,
        "json-schema/sampledb/ombe_measurement.sampledb.json",
        "no JSON Schema type",
      ],
      [importShacl, "shacl/eln-consortium/goldStandard.data.ttl", "sh:NodeShape at the root"],
      [importShacl, "shacl/missing.ttl", "No file at"],
    ];
    for (const [importer, file, message] of refusals) {
      try {
        await importer(manager, `${CORPUS}${file}`);
        throw new Error(`${file} was imported`);
      } catch (error) {
        assertTrue(error instanceof InputError, String(error));
        assertStringIncludes(error.message, message);
      }
    }
    assertEquals((await Array.fromAsync(manager.search.searchResources("template"))).length, 0);
  },
);

Deno.test("an enum or sh:in beyond MAX_FIELD_OPTIONS is refused on both paths; no template is created", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const dir = await Deno.makeTempDir();
  try {
    const over = MAX_FIELD_OPTIONS + 1;
    const schema = `${dir}/big.schema.json`;
    await Deno.writeTextFile(
      schema,
      JSON.stringify({
        title: "Big",
        type: "object",
        properties: {
          c: { type: "string", enum: Array.from({ length: over }, (_, i) => `v${i}`) },
        },
      }),
    );
    const shapes = `${dir}/big.ttl`;
    const members = Array.from({ length: over }, (_, i) => `"v${i}"`).join(" ");
    await Deno.writeTextFile(
      shapes,
      `@prefix sh: <http://www.w3.org/ns/shacl#> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n` +
        `<#Big> a sh:NodeShape ; sh:property [ sh:path <#c> ; sh:name "c" ; sh:datatype xsd:string ; sh:in (${members}) ] .\n`,
    );
    for (
      const [run, keyword] of [
        [() => importJsonSchema(manager, schema), "enum"],
        [() => importShacl(manager, shapes), "sh:in"],
      ] as const
    ) {
      const error = await assertRejects(run, InputError);
      assertStringIncludes(
        error.message,
        `more than ${MAX_FIELD_OPTIONS} options (${keyword}): too many for a template's selection list; no template was created`,
      );
    }
    assertEquals(server.log.filter((entry) => entry.method !== "GET"), []);
    assertEquals(
      (await manager.transport.json<{ items: unknown[] }>("GET", "/templates")).items,
      [],
    );
    // At the limit, every option is kept.
    await Deno.writeTextFile(
      shapes,
      (await Deno.readTextFile(shapes)).replace(` "v${over - 1}"`, ""),
    );
    const template = await importShacl(manager, shapes);
    const [field] = (await template.meta()).data as Extra[];
    assertEquals(field?.validation?.options?.length, MAX_FIELD_OPTIONS);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
