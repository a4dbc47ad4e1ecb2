/**
 * `lib/import/_rdf.ts` imports n3's private module `n3/lib/N3Parser.js` and takes its parser from
 * `default.default`. These tests fail loudly when an n3 upgrade moves either: the version is
 * pinned exactly, the module resolves, and the export has the shape the importer unwraps.
 */

import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import * as n3Parser from "n3/lib/N3Parser.js";
import { N3_VERSION, n3ParserClass } from "../../lib/import/_rdf.ts";
import config from "../../deno.json" with { type: "json" };

Deno.test("n3 is pinned to the exact version whose private parser module _rdf.ts imports", () => {
  assertEquals(config.imports.n3, `npm:n3@${N3_VERSION}`);
});

Deno.test("n3/lib/N3Parser.js still exports the parser class as default.default", () => {
  const Parser = n3ParserClass(n3Parser);
  const quads = new Parser({ format: "text/turtle" }).parse(
    '<http://example.org/a> <http://example.org/b> "c" .',
  );
  assertEquals(quads.length, 1);
  assertEquals(quads[0]?.object.value, "c");
});

Deno.test("a moved parser export fails with the cause named, not later as 'not a constructor'", () => {
  const error = assertThrows(() => n3ParserClass({ default: { Parser: class {} } }), Error);
  assertStringIncludes(error.message, "n3/lib/N3Parser.js");
});
