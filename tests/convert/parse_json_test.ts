import { assertEquals, assertStringIncludes, assertThrows, assertTrue } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { JsonNumber, parseJson } from "../../lib/convert/parse_json.ts";

Deno.test("parseJson() keeps number text, key order and the last value of a repeated key", () => {
  const value = parseJson('{"b": 1.0, "1": 12345678901234567890, "b": 2, "s": "\\u00e9\\n"}');
  assertTrue(value instanceof Map);
  assertEquals([...value.keys()], ["b", "1", "s"]);
  const b = value.get("b") as JsonNumber;
  assertEquals([b.text, b.isInteger], ["2", true]);
  assertEquals((value.get("1") as JsonNumber).toBigInt(), 12345678901234567890n);
  assertEquals(value.get("s"), "é\n");
  assertEquals(new JsonNumber("1.0").isInteger, false);
  assertEquals(new JsonNumber("1e2").isInteger, false);
});

Deno.test("parseJson() accepts what Python's json accepts", () => {
  const value = parseJson(' [NaN, Infinity, -Infinity, true, false, null, [], {}, "", -0.5e-3] ');
  assertTrue(Array.isArray(value));
  assertEquals(value.length, 10);
  assertEquals((value[0] as JsonNumber).toNumber(), NaN);
  assertEquals((value[2] as JsonNumber).toNumber(), -Infinity);
  assertEquals((value[9] as JsonNumber).toNumber(), -0.0005);
});

Deno.test("parseJson() rejects invalid JSON with a position", () => {
  for (
    const text of ["", "{", "[1,]", "{'a': 1}", '"\t"', "01", "1 2", '{"a" 1}', "tru", '"\\x"']
  ) {
    assertThrows(() => parseJson(text), InputError);
  }
  const error = assertThrows(() => parseJson('{\n "a": x}'), InputError);
  assertStringIncludes(error.message, "line 2 column 7");
  assertThrows(() => parseJson("[".repeat(600) + "]".repeat(600)), InputError);
  assertEquals(Array.isArray(parseJson("[".repeat(20) + "]".repeat(20))), true);
});
