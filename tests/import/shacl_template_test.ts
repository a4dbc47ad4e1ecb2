// shaclToTemplate(): the rules of client-reference §5.3 and every file of
// ../shared/corpus/shacl (pure, no server).
import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { validateExtras } from "../../lib/resources/metadata.ts";
import { shape } from "./_shape.ts";
import { shaclToTemplate } from "../../lib/import/shacl_template.ts";
import { stringifyJson } from "../../lib/http/_float_json.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

const CORPUS = new URL("../../../shared/corpus/shacl/", import.meta.url);
const PREFIXES = `@prefix sh: <http://www.w3.org/ns/shacl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix ex: <https://example.org/> .
`;

Deno.test("shaclToTemplate() keeps sh:order and maps datatypes, defaults, options, ranges, IRIs", () => {
  const draft = shaclToTemplate(
    `${PREFIXES}
ex:shape a sh:NodeShape ; dcterms:title "Probe"@de, "Sample"@en ; dcterms:description "About" ;
  sh:property [ sh:name "c" ; sh:order 2 ; sh:datatype xsd:integer ; sh:defaultValue 3 ;
                sh:minInclusive 1 ; sh:maxInclusive 9 ; sh:in ( 1 3 5 ) ; sh:minCount 1 ] ,
              [ sh:name "a"@de, "A"@en ; sh:order 0 ; sh:path ex:a ; sh:datatype xsd:string ;
                sh:description "first" ] ,
              [ sh:name "b" ; sh:order 1 ; sh:datatype xsd:double ; sh:defaultValue "2.5"^^xsd:double ] ,
              [ sh:name "d" ; sh:order 3 ; sh:datatype xsd:boolean ; sh:defaultValue true ] ,
              [ sh:name "e" ; sh:order 4 ; sh:datatype xsd:dateTime ; sh:defaultValue "2020-01-01T10:00:00Z" ] ,
              [ sh:name "f" ; sh:order 5 ; sh:datatype xsd:anyURI ] ,
              [ sh:name "g" ; sh:order 6 ; sh:datatype xsd:decimal ; sh:defaultValue "{TODAY}" ] ,
              [ sh:order 7 ; sh:path ex:fromPath ] ,
              [ sh:order 8 ; sh:path ( ex:complex ex:path ) ] .
`,
    { fileName: "probe.ttl" },
  );
  assertEquals(draft.title, "Sample");
  assertEquals(draft.description, "About");
  assertEquals(draft.extras, [
    { key: "A", type: "str", value: null, term: "https://example.org/a", description: "first" },
    { key: "b", type: "float", value: 2.5 },
    {
      key: "c",
      type: "int",
      value: 3,
      validation: { required: true, options: [1, 3, 5], range: { min: 1, max: 9 } },
    },
    { key: "d", type: "bool", value: true },
    { key: "e", type: "date", value: "2020-01-01T10:00:00+00:00" },
    { key: "f", type: "str", value: null, validation: { iri: true } },
    { key: "g", type: "float", value: null },
    { key: "fromPath", type: "str", value: null, term: "https://example.org/fromPath" },
  ]);
  validateExtras(draft.extras);
});

Deno.test("shaclToTemplate() nests sh:node and sh:qualifiedValueShape; index names make a list", () => {
  const draft = shaclToTemplate(`${PREFIXES}
ex:root a sh:NodeShape ; sh:node ex:base ;
  sh:property [ sh:name "dict" ; sh:order 1 ; sh:qualifiedValueShape ex:inner ] ,
              [ sh:name "list" ; sh:order 2 ; sh:node [ a sh:NodeShape ;
                  sh:property [ sh:name "0" ; sh:order 0 ; sh:datatype xsd:integer ] ,
                              [ sh:name "1" ; sh:order 1 ; sh:datatype xsd:string ] ] ] .
ex:base a sh:NodeShape ; sh:property [ sh:name "inherited" ] .
ex:inner a sh:NodeShape ; sh:property [ sh:name "x" ; sh:datatype xsd:boolean ] .
`);
  assertEquals(
    shape(draft.extras),
    "inherited:str,dict:dict(x:bool),list:list(:int,:str)",
  );
  validateExtras(draft.extras);
});

Deno.test("shaclToTemplate() refuses recursive shapes, naming the shape (as JSON Schema does)", () => {
  const cycles = [
    // A property nesting the shape it belongs to.
    `ex:root a sh:NodeShape ; sh:property [ sh:name "a" ] ,
       [ sh:name "loop" ; sh:node ex:root ] .`,
    // Through a second shape and sh:qualifiedValueShape.
    `ex:root a sh:NodeShape ; sh:property [ sh:name "child" ; sh:qualifiedValueShape ex:child ] .
     ex:child a sh:NodeShape ; sh:property [ sh:name "parent" ; sh:node ex:root ] .`,
    // sh:node inheritance in a circle.
    `ex:root a sh:NodeShape ; sh:node ex:base ; sh:property [ sh:name "a" ] .
     ex:base a sh:NodeShape ; sh:node ex:root ; sh:property [ sh:name "b" ] .`,
  ];
  for (const cycle of cycles) {
    const error = assertThrows(() => shaclToTemplate(`${PREFIXES}${cycle}`), InputError);
    assertStringIncludes(error.message, "The shapes are recursive");
    assertStringIncludes(error.message, "https://example.org/");
    assertStringIncludes(error.message, "remove the cycle");
  }
  // The same shape used twice side by side is no cycle.
  const draft = shaclToTemplate(`${PREFIXES}
ex:root a sh:NodeShape ; sh:property [ sh:name "p" ; sh:node ex:point ] ,
                                     [ sh:name "q" ; sh:node ex:point ] .
ex:point a sh:NodeShape ; sh:property [ sh:name "x" ; sh:datatype xsd:integer ] .
`);
  assertEquals(shape(draft.extras), "p:dict(x:int),q:dict(x:int)");
});

Deno.test("shaclToTemplate() makes one dict per root shape when several are unreferenced", () => {
  const draft = shaclToTemplate(
    `${PREFIXES}
ex:First a sh:NodeShape ; sh:property [ sh:path ex:one ] .
ex:Second a sh:NodeShape ; sh:name "Named" ; sh:property [ sh:path ex:two ] .
`,
    { fileName: "two.ttl" },
  );
  assertEquals(shape(draft.extras), "First:dict(one:str),Named:dict(two:str)");
  assertEquals(draft.title, "two");
});

Deno.test("shaclToTemplate() refuses files without shapes, invalid RDF and unsupported syntaxes", () => {
  const none = assertThrows(
    () => shaclToTemplate(`${PREFIXES} ex:a ex:b ex:c .`, { fileName: "data.ttl" }),
    InputError,
  );
  assertStringIncludes(none.message, "sh:NodeShape at the root is missing");
  assertThrows(() => shaclToTemplate("@prefix broken", { fileName: "x.ttl" }), InputError);
  const jsonld = assertThrows(() => shaclToTemplate("{}", { fileName: "x.jsonld" }), InputError);
  assertStringIncludes(jsonld.message, "convert the shapes to Turtle");
  // N-Triples is read by extension.
  const nt = shaclToTemplate(
    "<https://e.org/s> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/ns/shacl#NodeShape> .\n" +
      "<https://e.org/s> <http://www.w3.org/ns/shacl#property> _:p .\n" +
      '_:p <http://www.w3.org/ns/shacl#name> "n" .\n',
    { fileName: "s.nt" },
  );
  assertEquals(shape(nt.extras), "n:str");
});

const CORPUS_EXPECTED: { [file: string]: { title?: string; starts?: string; refused?: string } } = {
  "coscine/radar.ttl": {
    title: "radar application profile",
    starts: "Creator:str,Title:str,Production Date:str,Subject Area:str,Resource:str,Rights:str",
  },
  "coscine/engmeta.ttl": {
    title: "engmeta application profile",
    starts: "Contact:str,Creator:str,Worked:bool,Worked Note:str,Title:str,",
  },
  "coscine/sfb1394-SEM.ttl": {
    title: "SFB1394 SEM",
    // sh:order is 0-based and not in file order: Operator (0) comes before Experiment ID (1).
    starts: "Operator:str,Experiment ID:str,Specimen ID:str,Parent sample specimen ID:str,",
  },
  "eln-consortium/goldStandardShapes.ttl": {
    title: "goldStandardShapes",
    starts: "ChemicalSubstanceShape:dict(alternateName:str,description:str,",
  },
  "eln-consortium/goldStandard.data.ttl": { refused: "sh:NodeShape at the root is missing" },
  "rocrate-validator/ro-crate-1.1-must-1_file-descriptor_metadata.ttl": {
    title: "ro-crate-1.1-must-1_file-descriptor_metadata",
    starts: "RO-Crate Metadata File Descriptor entity existence:dict(",
  },
  "rocrate-validator/ro-crate-1.1-must-4_data_entity_metadata.ttl": {
    title: "ro-crate-1.1-must-4_data_entity_metadata",
    starts: "Data Entity: REQUIRED properties:dict(Data Entity: @id value restriction:str)",
  },
};

for (const [file, expected] of Object.entries(CORPUS_EXPECTED)) {
  Deno.test(`shaclToTemplate() corpus ${file}`, NEEDS_CORPUS, async () => {
    const text = await Deno.readTextFile(new URL(file, CORPUS));
    if (expected.refused !== undefined) {
      const error = assertThrows(() => shaclToTemplate(text, { fileName: file }), InputError);
      assertStringIncludes(error.message, expected.refused);
      return;
    }
    const draft = shaclToTemplate(text, { fileName: file });
    assertEquals(draft.title, expected.title);
    assertEquals(shape(draft.extras).slice(0, expected.starts!.length), expected.starts);
    validateExtras(draft.extras);
  });
}

Deno.test(
  "shaclToTemplate() corpus: radar keeps required fields, terms and placeholder defaults",
  NEEDS_CORPUS,
  async () => {
    const text = await Deno.readTextFile(new URL("coscine/radar.ttl", CORPUS));
    const [creator] = shaclToTemplate(text, { fileName: "radar.ttl" }).extras;
    assertEquals(creator, {
      key: "Creator",
      type: "str",
      value: "{ME}",
      term: "http://purl.org/dc/terms/creator",
      validation: { required: true },
    });
  },
);

Deno.test("shaclToTemplate() bounds nesting and the number of fields", () => {
  let nested = "ex:s0 a sh:NodeShape .\n";
  for (let i = 0; i < 80; i++) {
    nested += `ex:s${i} sh:property [ sh:name "n" ; sh:node ex:s${i + 1} ] .\n`;
  }
  const deep = assertThrows(() => shaclToTemplate(PREFIXES + nested), InputError);
  assertStringIncludes(deep.message, "deeper than 64 levels");
  const many = Array.from({ length: 20 }, (_, i) => `[ sh:name "f${i}" ]`).join(", ");
  const wide = assertThrows(
    () =>
      shaclToTemplate(`${PREFIXES} ex:s a sh:NodeShape ; sh:property ${many} .`, { maxExtras: 10 }),
    InputError,
  );
  assertStringIncludes(wide.message, "more than 10 fields");
});

Deno.test("shaclToTemplate() keeps float literals floats (1.0, -0.0, 1e3) and never rounds a big integer", () => {
  const draft = shaclToTemplate(
    `${PREFIXES}
ex:shape a sh:NodeShape ; dcterms:title "Floats" ;
  sh:property [ sh:name "a" ; sh:order 0 ; sh:datatype xsd:decimal ; sh:defaultValue 1.0 ;
                sh:minInclusive -0.0 ; sh:maxInclusive 1e3 ] ,
              [ sh:name "b" ; sh:order 1 ; sh:datatype xsd:double ; sh:defaultValue "1"^^xsd:double ] ,
              [ sh:name "c" ; sh:order 2 ; sh:datatype xsd:integer ; sh:defaultValue 9007199254740993 ] .
`,
  );
  const text = stringifyJson(draft.extras);
  assertStringIncludes(text, '"key":"a","type":"float","value":1.0');
  assertStringIncludes(text, '"range":{"min":-0.0,"max":1000.0}');
  assertStringIncludes(text, '"key":"b","type":"float","value":1.0');
  assertEquals(text.includes("9007199254740992"), false, text);
});
