// client-reference §6 vectors 1–10 (derived from the 0.48.1 code, "D") and the edges of §4.1.
import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { jsonToRepo, parseJson, repoToJson } from "../../lib/convert/mod.ts";

const fromText = (text: string, options = {}) => jsonToRepo(parseJson(text), options);

Deno.test("jsonToRepo() vector 1: null skipped", () => {
  assertEquals(fromText('{"a":1,"b":"x","c":null}'), [
    { key: "a", type: "int", value: 1 },
    { key: "b", type: "str", value: "x" },
  ]);
});

Deno.test("jsonToRepo() vector 2: fallbackValue replaces null", () => {
  assertEquals(fromText('{"a":1,"b":"x","c":null}', { fallbackValue: "" }), [
    { key: "a", type: "int", value: 1 },
    { key: "b", type: "str", value: "x" },
    { key: "c", type: "str", value: "" },
  ]);
  // The fallback is typed like any value, also inside lists.
  assertEquals(fromText("[null]", { fallbackValue: 0 }), [{ key: "1", type: "int", value: 0 }]);
  assertEquals(fromText('{"l":[null]}', { fallbackValue: "2020" }), [
    { key: "l", type: "list", value: [{ type: "date", value: "2020" }] },
  ]);
});

Deno.test("jsonToRepo() vector 3: list children have no key", () => {
  assertEquals(fromText('{"l":[1,"a",[true]]}'), [{
    key: "l",
    type: "list",
    value: [
      { type: "int", value: 1 },
      { type: "str", value: "a" },
      { type: "list", value: [{ type: "bool", value: true }] },
    ],
  }]);
});

Deno.test("jsonToRepo() vector 4 and 5: top-level list and scalar are keyed from 1", () => {
  assertEquals(fromText("[1,2]"), [
    { key: "1", type: "int", value: 1 },
    { key: "2", type: "int", value: 2 },
  ]);
  assertEquals(fromText('"abc"'), [{ key: "1", type: "str", value: "abc" }]);
  assertEquals(fromText("null"), []);
});

Deno.test("jsonToRepo() vector 6 and 7: dates keep the original string; '_' is never a date", () => {
  assertEquals(fromText('{"d":"2020-01-01"}'), [{ key: "d", type: "date", value: "2020-01-01" }]);
  assertEquals(fromText('{"d":"2020_01"}'), [{ key: "d", type: "str", value: "2020_01" }]);
  assertEquals(fromText('{"y":"2020"}'), [{ key: "y", type: "date", value: "2020" }]);
  assertEquals(fromText('{"t":"2020-01-01T10:00_x"}')[0]?.type, "str");
  // normalizeDates stores Python's isoformat() instead.
  assertEquals(fromText('{"w":"2020-W01","d":"2020-01-01 10:30Z"}', { normalizeDates: true }), [
    { key: "w", type: "date", value: "2019-12-30T00:00:00" },
    { key: "d", type: "date", value: "2020-01-01T10:30:00+00:00" },
  ]);
});

Deno.test("jsonToRepo() vector 8: integers beyond ±(2^53−1) become strings only with the flag", () => {
  assertEquals(fromText('{"n":9007199254740992}', { convertInvalidInts: true }), [
    { key: "n", type: "str", value: "9007199254740992" },
  ]);
  assertEquals(fromText('{"n":-123456789012345678901234567890}', { convertInvalidInts: true }), [
    { key: "n", type: "str", value: "-123456789012345678901234567890" },
  ]);
  // Without the flag the reference keeps an int the server then rejects; we refuse it clearly.
  const error = assertThrows(() => fromText('{"a":{"n":9007199254740992}}'), InputError);
  assertStringIncludes(error.message, "'a.n'");
  assertStringIncludes(error.message, "convertInvalidInts");
  // The limits themselves are valid ints.
  assertEquals(fromText("[9007199254740991, -9007199254740991]").map((e) => e.type), [
    "int",
    "int",
  ]);
});

Deno.test("jsonToRepo() vector 9: empty containers and keyless dicts in lists", () => {
  assertEquals(fromText('{"o":{}, "x":[{"k":1}]}'), [
    { key: "o", type: "dict", value: [] },
    {
      key: "x",
      type: "list",
      value: [{ type: "dict", value: [{ key: "k", type: "int", value: 1 }] }],
    },
  ]);
});

Deno.test("jsonToRepo() vector 10: repoToJson() inverts vector 3", () => {
  assertEquals(repoToJson(fromText('{"l":[1,"a",[true]]}')), { l: [1, "a", [true]] });
});

Deno.test("jsonToRepo() keeps int and float as written, and key order", () => {
  assertEquals(fromText('{"b":1.0,"1":2,"e":1e3,"f":-0.5,"i":-0}'), [
    { key: "b", type: "float", value: 1 },
    { key: "1", type: "int", value: 2 },
    { key: "e", type: "float", value: 1000 },
    { key: "f", type: "float", value: -0.5 },
    { key: "i", type: "int", value: 0 },
  ]);
  // Plain JavaScript values: whole numbers are ints, bigints ints, booleans never ints.
  assertEquals(jsonToRepo({ a: 2, b: 2.5, c: 3n, d: false, e: undefined }), [
    { key: "a", type: "int", value: 2 },
    { key: "b", type: "float", value: 2.5 },
    { key: "c", type: "int", value: 3 },
    { key: "d", type: "bool", value: false },
  ]);
});

Deno.test("jsonToRepo() refuses values JSON cannot hold", () => {
  assertThrows(() => jsonToRepo({ f: () => 1 }), InputError);
  assertThrows(() => jsonToRepo({ d: new Date(0) }), InputError);
});

Deno.test("repoToJson() keeps dates as strings, ignores list child keys, guards __proto__", () => {
  const json = repoToJson([
    { key: "d", type: "date", value: "2020-01-01T00:00:00+00:00" },
    { key: "l", type: "list", value: [{ key: "x", type: "float", value: 1.5 }] },
    { key: "__proto__", type: "dict", value: [{ key: "p", type: "bool", value: true }] },
    { key: "n", type: "str", value: null },
  ]);
  assertEquals(Object.keys(json), ["d", "l", "__proto__", "n"]);
  assertEquals(json.l, [1.5]);
  assertEquals(Object.getPrototypeOf(json), Object.prototype);
  assertEquals(json.n, null);
  assertThrows(() => repoToJson([{ type: "int", value: 1 }]), InputError);
});
