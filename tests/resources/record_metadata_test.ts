import { InputError } from "../../lib/errors.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { countRequests, setup } from "./_setup.ts";

const nested: Extra[] = [
  {
    key: "a",
    type: "dict",
    value: [{ key: "b", type: "list", value: [{ type: "int", value: 5 }] }],
  },
];

Deno.test("addMetadatum() adds; keeps an existing key without force, replaces with force", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "meta", create: true });
  await record.addMetadatum({ key: "t", type: "float", value: 1.5, unit: "K" });
  await record.addMetadatum({ key: "s", type: "str", value: "x" });
  assertEquals(await record.checkMetadatum("t"), true);
  const patches = countRequests(env.server, "PATCH", `/records/${record.id}`);
  const kept = await record.addMetadatum({ key: "t", type: "int", value: 2 });
  assertEquals(kept.extras?.map((e) => [e.key, e.value]), [["t", 1.5], ["s", "x"]]);
  assertEquals(countRequests(env.server, "PATCH", `/records/${record.id}`), patches);
  const forced = await record.addMetadatum({ key: "t", type: "int", value: 2 }, { force: true });
  assertEquals(forced.extras?.map((e) => [e.key, e.value]), [["s", "x"], ["t", 2]]);
  assertEquals((await record.getMetadatum("t"))?.type, "int");
});

Deno.test("addMetadata() merges by the force rules with one PATCH", async () => {
  await using env = await setup();
  const record = await env.manager.record({
    identifier: "merge",
    create: true,
    extras: [
      { key: "flat", type: "int", value: 1 },
      { key: "nested", type: "dict", value: [{ key: "x", type: "str", value: "old" }] },
    ],
  });
  const added: Extra[] = [
    { key: "flat", type: "int", value: 2 },
    { key: "nested", type: "str", value: "new" },
    { key: "fresh", type: "bool", value: true },
  ];
  const patches = countRequests(env.server, "PATCH", `/records/${record.id}`);
  const plain = await record.addMetadata(added);
  assertEquals(plain.extras?.map((e) => e.key), ["flat", "nested", "fresh"]);
  assertEquals((await record.getMetadatum("flat"))?.value, 1);
  assertEquals(countRequests(env.server, "PATCH", `/records/${record.id}`), patches + 1);
  const forced = await record.addMetadata(added, { force: true });
  assertEquals(forced.extras?.map((e) => e.key), ["nested", "flat", "fresh"]);
  assertEquals((await record.getMetadatum("flat"))?.value, 2);
  assertEquals((await record.getMetadatum("nested"))?.type, "dict");
  assertEquals(countRequests(env.server, "PATCH", `/records/${record.id}`), patches + 2);
  const single = await record.addMetadata({ key: "one", type: "str", value: "1" });
  assertEquals(single.extras?.at(-1)?.key, "one");
});

Deno.test("getMetadatum() follows nested paths with 1-based list indices", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "nested", create: true });
  await record.addMetadata(nested);
  assertEquals(await record.getMetadatum(["a", "b", "1"]), { type: "int", value: 5, unit: null });
  assertEquals((await record.getMetadatum("a.b.1"))?.value, 5);
  assertEquals(await record.getMetadatum(["a", "b", "2"]), undefined);
  assertEquals(await record.getMetadatum("missing"), undefined);
});

Deno.test("flattenExtras() flattens the record's metadata (vector 18)", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "flat", create: true, extras: nested });
  assertEquals(await record.flattenExtras(), [{ key: "a.b.1", type: "int", value: 5, unit: null }]);
  assertEquals((await record.flattenExtras({ separator: "/" }))[0]?.key, "a/b/1");
});

Deno.test("addMetadata() refuses bad metadata naming the entry, without any request", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "bad", create: true });
  const before = env.server.log.length;
  const error = await assertRejects(
    () =>
      record.addMetadata([
        { key: "a", type: "str", value: "x" },
        { key: "b", type: "int", value: 1 },
        { key: "temperature", type: "int", value: 9007199254740993n },
      ]),
    InputError,
  );
  assertEquals(
    error.message,
    "Invalid metadatum 'temperature' (extras[2].value): 9007199254740993 is outside ±(2^53−1); store it as a string",
  );
  await assertRejects(
    () => record.addMetadatum({ key: "u", type: "str", value: "x", unit: "m" }),
    InputError,
  );
  await assertRejects(
    () => record.edit({ extras: [{ key: "d", type: "date", value: "x" }] }),
    InputError,
  );
  assertEquals(env.server.log.length, before);
});

Deno.test("addMetadata() accepts null values unvalidated", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "nulls", create: true });
  const meta = await record.addMetadata([
    { key: "i", type: "int", value: null },
    { key: "d", type: "date", value: null },
  ]);
  assertEquals(meta.extras?.map((e) => [e.key, e.value]), [["i", null], ["d", null]]);
});

Deno.test("removeMetadatum() and removeAllMetadata() remove entries", async () => {
  await using env = await setup();
  const record = await env.manager.record({
    identifier: "remove",
    create: true,
    extras: [{ key: "a", type: "str", value: "1" }, { key: "b", type: "str", value: "2" }],
  });
  assertEquals((await record.removeMetadatum("a")).extras?.map((e) => e.key), ["b"]);
  const patches = countRequests(env.server, "PATCH", `/records/${record.id}`);
  await record.removeMetadatum("missing");
  assertEquals(countRequests(env.server, "PATCH", `/records/${record.id}`), patches);
  assertEquals((await record.removeAllMetadata()).extras, []);
  assertEquals(await record.checkMetadatum("b"), false);
});

Deno.test("getMetadatum() on a fresh record returns undefined", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "empty", create: true });
  assertEquals(await record.getMetadatum(["x", "y"]), undefined);
  assertStringIncludes(String(record), "empty");
});
