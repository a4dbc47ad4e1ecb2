import { InputError } from "../../lib/errors.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import {
  flattenExtras,
  getExtra,
  MAX_EXTRAS_DEPTH,
  mergeExtras,
  metadataPathText,
  validateExtras,
} from "../../lib/resources/metadata.ts";
import { MetadataError } from "../../lib/resources/errors.ts";
import { repoToJson } from "../../lib/convert/repo_to_json.ts";
import { EXTRA_TYPES } from "../../lib/http/protocol.ts";
import { assertEquals, assertStringIncludes, assertThrows } from "../_assert.ts";

const nested: Extra[] = [
  {
    key: "a",
    type: "dict",
    value: [{ key: "b", type: "list", value: [{ type: "int", value: 5 }] }],
  },
];

function message(fn: () => unknown): string {
  return assertThrows(fn, InputError).message;
}

Deno.test("validateExtras() accepts every type and returns a copy", () => {
  const extras: Extra[] = [
    { key: "s", type: "str", value: "x" },
    { key: "i", type: "int", value: -9007199254740991, unit: "K" },
    { key: "f", type: "float", value: 1.5, unit: null },
    { key: "b", type: "bool", value: false },
    { key: "d", type: "date", value: "2024-05-01T10:20:30.5+02:00" },
    { key: "d2", type: "date", value: "2024-02-29" },
    { key: "dict", type: "dict", value: [{ key: "x", type: "str", value: "y" }] },
    { key: "list", type: "list", value: [{ type: "int", value: 1 }, { type: "int", value: 1 }] },
  ];
  const copy = validateExtras(extras);
  assertEquals(copy, extras);
  assertEquals(copy === extras, false);
});

Deno.test("validateExtras() passes null values through unvalidated", () => {
  const extras: Extra[] = [
    { key: "i", type: "int", value: null },
    { key: "d", type: "date", value: null },
    { key: "l", type: "list", value: null },
    { key: "u", type: "str" },
  ];
  assertEquals(validateExtras(extras), extras);
});

Deno.test("validateExtras() names an integer outside ±(2^53−1) with its path", () => {
  const extras = [
    { key: "a", type: "str", value: "x" },
    { key: "b", type: "int", value: 1 },
    { key: "temperature", type: "int", value: 9007199254740993n },
  ];
  assertEquals(
    message(() => validateExtras(extras)),
    "Invalid metadatum 'temperature' (extras[2].value): 9007199254740993 is outside ±(2^53−1); store it as a string",
  );
  assertStringIncludes(
    message(() => validateExtras([{ key: "n", type: "int", value: 2 ** 53 }])),
    "outside ±(2^53−1)",
  );
});

Deno.test("validateExtras() turns an in-range bigint into a number", () => {
  assertEquals(validateExtras([{ key: "n", type: "int", value: 42n }]), [
    { key: "n", type: "int", value: 42 },
  ]);
});

Deno.test("validateExtras() rejects wrong values per type", () => {
  const cases: [unknown, string][] = [
    [{ key: "k", type: "int", value: 1.5 }, "1.5 is not an integer; use the type 'float'"],
    [{ key: "k", type: "int", value: "12" }, "'12' is not an integer"],
    [{ key: "k", type: "float", value: Infinity }, "Infinity is not a finite number"],
    [{ key: "k", type: "float", value: Number.NaN }, "NaN is not a finite number"],
    [{ key: "k", type: "float", value: "1" }, "'1' is not a number"],
    [{ key: "k", type: "bool", value: "true" }, "'true' is not a boolean"],
    [{ key: "k", type: "str", value: 5 }, "5 is not a string"],
    [{ key: "k", type: "date", value: "2020-13-01" }, "'2020-13-01' is not an ISO 8601 date"],
    [{ key: "k", type: "date", value: "2021-02-29" }, "'2021-02-29' is not an ISO 8601 date"],
    [{ key: "k", type: "date", value: 5 }, "5 is not an ISO 8601 date"],
    [{ key: "k", type: "text", value: "x" }, "'text' is not a metadata type"],
    [{ key: "k", type: "dict", value: "x" }, "expected an array of metadata entries"],
    [{ key: "k", type: "str", value: "x", unit: "m" }, "a unit is only allowed with int and float"],
    [{ type: "str", value: "x" }, "a non-empty string key is required"],
    [{ key: " ", type: "str", value: "x" }, "a non-empty string key is required"],
    ["nope", "expected an object"],
  ];
  for (const [entry, expected] of cases) {
    assertStringIncludes(message(() => validateExtras([entry])), expected);
  }
});

Deno.test("validateExtras() names nested entries by key path and array path", () => {
  const extras = [{
    key: "a",
    type: "dict",
    value: [{
      key: "b",
      type: "list",
      value: [{ type: "int", value: 1 }, { type: "bool", value: 1 }],
    }],
  }];
  assertEquals(
    message(() => validateExtras(extras)),
    "Invalid metadatum 'a.b.2' (extras[0].value[0].value[1].value): 1 is not a boolean (true or false)",
  );
});

Deno.test("validateExtras() rejects duplicate keys per array but not across levels", () => {
  assertStringIncludes(
    message(() =>
      validateExtras([{ key: "a", type: "str" }, { key: "a", type: "int" }], "metadata")
    ),
    "(metadata[1].key): the key is used twice",
  );
  validateExtras([{ key: "a", type: "dict", value: [{ key: "a", type: "str" }] }]);
});

Deno.test("validateExtras() rejects a non-array", () => {
  assertStringIncludes(message(() => validateExtras({ key: "a" })), "(extras): expected an array");
});

Deno.test("getExtra() follows nested paths with 1-based list indices", () => {
  assertEquals(getExtra(nested, ["a", "b", "1"]), { type: "int", value: 5 });
  assertEquals(getExtra(nested, "a.b.1"), { type: "int", value: 5 });
  assertEquals(getExtra(nested, "a")?.type, "dict");
  assertEquals(getExtra(nested, ["a", "b", "0"]), undefined);
  assertEquals(getExtra(nested, ["a", "b", "2"]), undefined);
  assertEquals(getExtra(nested, ["a", "x"]), undefined);
  assertEquals(getExtra(nested, "missing"), undefined);
  assertEquals(getExtra(nested, []), undefined);
});

Deno.test("getExtra() prefers a top-level key that contains a dot", () => {
  const extras: Extra[] = [
    { key: "a.b", type: "str", value: "dotted" },
    { key: "a", type: "dict", value: [{ key: "b", type: "str", value: "nested" }] },
  ];
  assertEquals(getExtra(extras, "a.b")?.value, "dotted");
  assertEquals(getExtra(extras, ["a", "b"])?.value, "nested");
});

Deno.test("flattenExtras() matches client-reference vector 18", () => {
  assertEquals(flattenExtras(nested), [{ key: "a.b.1", type: "int", value: 5 }]);
  assertEquals(flattenExtras(nested, "/"), [{ key: "a/b/1", type: "int", value: 5 }]);
});

Deno.test("flattenExtras() keeps flat entries and drops empty containers", () => {
  const extras: Extra[] = [
    { key: "x", type: "str", value: "1", unit: null },
    { key: "e", type: "dict", value: [] },
    {
      key: "l",
      type: "list",
      value: [{ type: "dict", value: [{ key: "k", type: "bool", value: true }] }],
    },
  ];
  assertEquals(flattenExtras(extras), [
    { key: "x", type: "str", value: "1", unit: null },
    { key: "l.1.k", type: "bool", value: true },
  ]);
});

Deno.test("mergeExtras() drops clashing new entries without force", () => {
  const old: Extra[] = [{ key: "a", type: "int", value: 1 }, { key: "n", type: "dict", value: [] }];
  const added: Extra[] = [
    { key: "a", type: "int", value: 2 },
    { key: "n", type: "str", value: "x" },
    { key: "b", type: "str", value: "y" },
  ];
  assertEquals(mergeExtras(old, added), [...old, { key: "b", type: "str", value: "y" }]);
});

Deno.test("mergeExtras() with force replaces flat entries and keeps nested ones", () => {
  const old: Extra[] = [
    { key: "a", type: "int", value: 1 },
    { key: "n", type: "dict", value: [] },
    { key: "z", type: "bool", value: true },
  ];
  const added: Extra[] = [
    { key: "a", type: "int", value: 2 },
    { key: "n", type: "str", value: "x" },
    { key: "b", type: "str", value: "y" },
  ];
  assertEquals(mergeExtras(old, added, { force: true }), [
    { key: "n", type: "dict", value: [] },
    { key: "z", type: "bool", value: true },
    { key: "a", type: "int", value: 2 },
    { key: "b", type: "str", value: "y" },
  ]);
});

Deno.test("flattenExtras() numbers list items by position even when they carry a key", () => {
  const extras: Extra[] = [{
    key: "l",
    type: "list",
    value: [{ key: "x", type: "int", value: 1 }, {
      type: "dict",
      value: [{ key: "k", type: "str", value: "v" }],
    }],
  }];
  assertEquals(flattenExtras(extras).map((extra) => extra.key), ["l.1", "l.2.k"]);
  assertEquals(getExtra(extras, "l.2.k")?.value, "v");
});

function nestedDeep(depth: number): Extra[] {
  let value: Extra[] = [{ key: "leaf", type: "int", value: 1 }];
  for (let i = 0; i < depth; i++) value = [{ key: `k${i}`, type: "dict", value }];
  return value;
}

Deno.test("validateExtras() and flattenExtras() refuse metadata nested too deep with a clear message", () => {
  assertEquals(validateExtras(nestedDeep(MAX_EXTRAS_DEPTH)).length, 1);
  assertEquals(flattenExtras(nestedDeep(MAX_EXTRAS_DEPTH)).length, 1);
  for (const depth of [MAX_EXTRAS_DEPTH + 1, 100_000]) {
    const extras = nestedDeep(depth);
    const error = assertThrows(() => validateExtras(extras), InputError);
    assertStringIncludes(error.message, `nested deeper than ${MAX_EXTRAS_DEPTH} levels`);
    assertThrows(() => flattenExtras(extras), InputError);
  }
});

Deno.test("validateExtras(): a MetadataError carries the entry's path, key path and reason", () => {
  const missing = assertThrows(
    () => validateExtras([{ key: "d", type: "dict", value: [{ key: "e", value: 1 }] }]),
    MetadataError,
  );
  assertEquals(missing.path, ["extras", 0, "value", 0, "type"]);
  assertEquals(missing.keyPath, ["d", "e"]);
  assertEquals(missing.givenType, undefined);
  assertEquals(missing.allowedTypes, [...EXTRA_TYPES]);
  assertEquals(missing instanceof InputError, true);
  // The library's message stays as it was, for library users.
  assertStringIncludes(missing.message, "(extras[0].value[0].type): nothing is not a metadata");
  const wrong = assertThrows(
    () => validateExtras([{ key: "k", type: "text", value: "x" }]),
    MetadataError,
  );
  assertEquals(wrong.givenType, "text");
  const list = assertThrows(
    () => validateExtras([{ key: "l", type: "list", value: [{ type: "int", value: 1 }, 2] }]),
    MetadataError,
  );
  assertEquals([list.path, list.keyPath], [["extras", 0, "value", 1], ["l", "2"]]);
  assertEquals(list.allowedTypes, undefined);
  assertStringIncludes(list.reason, "expected an object");
  const unit = assertThrows(
    () => validateExtras([{ key: "s", type: "str", value: "x", unit: "m" }], "meta"),
    MetadataError,
  );
  assertEquals(unit.path, ["meta", 0, "unit"]);
  const twice = assertThrows(
    () =>
      validateExtras([{ key: "a", type: "int", value: 1 }, { key: "a", type: "int", value: 2 }]),
    MetadataError,
  );
  assertEquals([twice.path, twice.keyPath], [["extras", 1, "key"], ["a"]]);
});

Deno.test("repoToJson(): a bad entry is a MetadataError with its path", () => {
  const error = assertThrows(
    () => repoToJson([{ key: "d", type: "dict", value: [{ type: "int", value: 1 }] }] as Extra[]),
    MetadataError,
  );
  assertEquals(error.path, ["extras", 0, "value", 0]);
  assertEquals(error.message, "The metadata entry extras[0].value[0] has no key");
  assertEquals(metadataPathText(["extras", 2, "value", 0, "type"]), "extras[2].value[0].type");
});
