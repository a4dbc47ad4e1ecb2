// Floats kept as floats in JSON text: only entries of type float change, nothing is mutated, and a
// value without them is written as plain JSON.stringify writes it.
import { assert, assertEquals } from "../_assert.ts";
import { keepFloats, stringifyJson } from "../../lib/http/_float_json.ts";

Deno.test("keepFloats returns a value without float entries itself, and copies only what it changes", () => {
  const plain = { id: 1, extras: [{ key: "n", type: "int", value: 3 }], tags: ["float"] };
  assert(keepFloats(plain) === plain, "the same object");
  const nested = {
    id: 2,
    meta: { title: "x" },
    extras: [{ key: "n", type: "int", value: 3 }, { key: "t", type: "float", value: 3 }],
  };
  const kept = keepFloats(nested) as typeof nested;
  assert(kept.meta === nested.meta, "an untouched branch is shared");
  assert(kept.extras[0] === nested.extras[0], "an untouched entry is shared");
  assertEquals(nested.extras[1], { key: "t", type: "float", value: 3 }, "the input is not mutated");
  assertEquals(
    JSON.stringify(kept),
    '{"id":2,"meta":{"title":"x"},"extras":[{"key":"n","type":"int","value":3},' +
      '{"key":"t","type":"float","value":3.0}]}',
  );
});

Deno.test("stringifyJson writes whole floats as floats, and other values as JSON.stringify does", () => {
  const values: unknown[] = [
    { id: 1, title: "float", tags: ["float"], value: 3 },
    [{ key: "t", type: "float", value: -0, validation: { range: { min: 1, max: 2.5 } } }],
    { key: "t", type: "float", value: [1, 2.5] },
    { title: 'say "float"', n: 3 },
    "float",
    null,
  ];
  assertEquals(values.map((value) => stringifyJson(value)), [
    '{"id":1,"title":"float","tags":["float"],"value":3}',
    '[{"key":"t","type":"float","value":-0.0,"validation":{"range":{"min":1.0,"max":2.5}}}]',
    '{"key":"t","type":"float","value":[1.0,2.5]}',
    '{"title":"say \\"float\\"","n":3}',
    '"float"',
    "null",
  ]);
  assertEquals(
    stringifyJson({ type: "float", value: 2 }, 2),
    '{\n  "type": "float",\n  "value": 2.0\n}',
  );
});
