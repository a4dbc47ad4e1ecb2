import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { createRecord, managerFor, ok, repo, tempDir } from "./_records.ts";

async function extras(server: TestServer, id: number) {
  await using manager = managerFor(server);
  return (await (await manager.record({ id })).refresh()).extras ?? [];
}

Deno.test("records add-metadatum converts values by -t and takes units for numbers only", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "meta");
  const r = String(id);
  // Issue 9: a unit for a string is refused (usage error), not silently dropped.
  const unitForString = await repo(server, [
    "records",
    "add-metadatum",
    "-r",
    r,
    "-m",
    "s",
    "-v",
    "42",
    "-u",
    "ignored",
  ]);
  assertEquals(unitForString.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  await ok(server, ["add-metadatum", "-r", r, "-m", "s", "-v", "42"]);
  await ok(server, [
    "add-metadatum",
    "-r",
    r,
    "-m",
    "i",
    "-v",
    " +1_000 ",
    "-t",
    "integer",
    "-u",
    "m",
  ]);
  await ok(server, ["add-metadatum", "-r", r, "-m", "f", "-v", "2.5e3", "-t", "float", "-u", "K"]);
  await ok(server, ["add-metadatum", "-r", r, "-m", "b", "-v", "false", "-t", "boolean"]);
  assertEquals(await extras(server, id), [
    { key: "s", type: "str", value: "42" },
    { key: "i", type: "int", value: 1000, unit: "m" },
    { key: "f", type: "float", value: 2500, unit: "K" },
    { key: "b", type: "bool", value: false },
  ]);
  for (
    const [type, value] of [["integer", "1.5"], ["float", "abc"], ["boolean", "True"], [
      "integer",
      "9007199254740993",
    ]]
  ) {
    const bad = await repo(server, [
      "records",
      "add-metadatum",
      "-r",
      r,
      "-m",
      "x",
      "-v",
      value!,
      "-t",
      type!,
    ]);
    assertEquals(bad.code, 1, `${type} ${value}`);
    assertNotIncludes(bad.stderr, "    at ");
  }
  const kept = await repo(server, ["records", "add-metadatum", "-r", r, "-m", "s", "-v", "new"]);
  assertEquals(kept.code, 1); // as in the reference client
  assertStringIncludes(kept.stderr, "has a metadatum 's' already: nothing changed");
  assertStringIncludes(kept.stderr, "-f/--force");
  assertEquals((await extras(server, id)).find((extra) => extra.key === "s")?.value, "42");
  await ok(server, ["add-metadatum", "-r", r, "-m", "s", "-v", "new", "-f"]);
  const after = await extras(server, id);
  assertEquals(after.at(-1), { key: "s", type: "str", value: "new" });
});

Deno.test("records add-metadata takes a JSON string or file; a wrong format prints an example and exits 1", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "bulk");
  const r = String(id);
  const nested = [
    { key: "a", type: "int", value: 1 },
    {
      key: "settings",
      type: "dict",
      value: [{ key: "steps", type: "list", value: [{ type: "str", value: "heat" }] }],
    },
  ];
  await ok(server, ["add-metadata", "-r", r, "-m", JSON.stringify(nested)]);
  const file = `${dir.path}/meta.json`;
  await Deno.writeTextFile(file, JSON.stringify({ key: "a", type: "int", value: 2 }));
  const unchanged = await ok(server, ["add-metadata", "-r", r, "-p", file]);
  assertStringIncludes(unchanged.stderr, "Nothing changed");
  await ok(server, ["add-metadata", "-r", r, "-p", file, "-f"]);
  assertEquals((await extras(server, id)).map((extra) => [extra.key, extra.value]).at(-1), [
    "a",
    2,
  ]);
  // Plain JSON such as '{"plain": 1}' is converted since issue 8 (next test); entries are checked.
  for (const text of ["{not json", '[{"key": "x", "type": "text", "value": 1}]']) {
    const bad = await repo(server, ["records", "add-metadata", "-r", r, "-m", text]);
    assertEquals(bad.code, 1, text);
    assertStringIncludes(bad.stderr, "The metadata have the wrong format");
    assertStringIncludes(bad.stderr, 'for example:\n[{"key":"temperature","type":"float"');
  }
  const both = await repo(server, ["records", "add-metadata", "-r", r, "-m", "[]", "-p", file]);
  assertEquals(both.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  const neither = await repo(server, ["records", "add-metadata", "-r", r]);
  assertEquals(neither.code, 1);
  // A file that does not exist is wrong usage (exit 2), as the Python client's checked path.
  const absent = await repo(server, ["records", "add-metadata", "-r", r, "-p", `${file}.none`]);
  assertEquals(absent.code, 2);
  assertStringIncludes(absent.stderr, "Nothing exists at");
});

Deno.test("records add-metadata converts plain JSON with jsonToRepo and its two flags", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "plain");
  const r = String(id);
  await ok(server, ["add-metadata", "-r", r, "-m", '{"sample": "A-17", "mass": 3}']);
  const file = `${dir.path}/plain.json`;
  await Deno.writeTextFile(
    file,
    '{"ratio": 1.0, "when": "2020-W01", "gone": null, "list": [1, {"k": true}]}',
  );
  await ok(server, ["add-metadata", "-r", r, "-p", file]);
  const stored = await extras(server, id);
  assertEquals(stored.map((extra) => [extra.key, extra.type]), [
    ["sample", "str"],
    ["mass", "int"],
    ["ratio", "float"],
    ["when", "date"],
    ["list", "list"],
  ]);
  const huge = '{"big": 9007199254740993}';
  const refused = await repo(server, ["records", "add-metadata", "-r", r, "-m", huge]);
  assertEquals(refused.code, 1);
  assertStringIncludes(refused.stderr, "--convert-invalid-ints");
  await ok(server, ["add-metadata", "-r", r, "-m", huge, "--convert-invalid-ints"]);
  await ok(server, ["add-metadata", "-r", r, "-m", '{"empty": null}', "--fallback-value", "0"]);
  // Looks like an entry, but --plain converts it as data.
  await ok(server, ["add-metadata", "-r", r, "-m", '{"type": "steel", "value": 3}', "--plain"]);
  const after = await extras(server, id);
  assertEquals(after.slice(5), [
    { key: "big", type: "str", value: "9007199254740993" },
    { key: "empty", type: "int", value: 0, unit: null },
    { key: "type", type: "str", value: "steel" },
    { key: "value", type: "int", value: 3, unit: null },
  ]);
});

Deno.test("records get-metadatum reads nested entries by path, their unit and type, with a default", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "nested");
  const r = String(id);
  const metadata = [
    { key: "temp", type: "float", value: 21.5, unit: "degC" },
    {
      key: "run",
      type: "dict",
      value: [{
        key: "steps",
        type: "list",
        value: [{ type: "str", value: "heat" }, { type: "int", value: 7, unit: "s" }],
      }],
    },
  ];
  await ok(server, ["add-metadata", "-r", r, "-m", JSON.stringify(metadata)]);
  assertEquals(
    (await ok(server, ["get-metadatum", "-r", r, "-n", "run.steps.2", "-p"])).stdout,
    "7\n",
  );
  assertEquals(
    (await ok(server, ["get-metadatum", "-r", r, "-n", "run.steps.2", "-i", "unit", "-p"])).stdout,
    "s\n",
  );
  assertEquals(
    (await ok(server, ["get-metadatum", "-r", r, "-n", "run.steps.1", "-i", "type", "-p"])).stdout,
    "str\n",
  );
  const plain = await ok(server, ["get-metadatum", "-r", r, "-n", "temp"]);
  // The whole output is the value, with or without -p: `$(repo-apy … get-metadatum …)` works.
  assertEquals([plain.stdout, plain.stderr], ["21.5\n", ""]);
  const absent = await repo(server, ["records", "get-metadatum", "-r", r, "-n", "run.steps.3"]);
  assertEquals(absent.code, 1);
  assertStringIncludes(absent.stderr, "has no metadatum 'run.steps.3'");
  const fallback = await ok(server, ["get-metadatum", "-r", r, "-n", "missing", "-d", "n/a", "-p"]);
  assertEquals(fallback.stdout, "n/a\n");
});

Deno.test("records delete-metadatum removes one key; delete-all-metadata needs --i-am-sure", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "cleanup");
  const r = String(id);
  await ok(server, ["add-metadatum", "-r", r, "-m", "a", "-v", "1"]);
  await ok(server, ["add-metadatum", "-r", r, "-m", "b", "-v", "2"]);
  await ok(server, ["delete-metadatum", "-r", r, "-m", "a"]);
  assertEquals((await extras(server, id)).map((extra) => extra.key), ["b"]);
  const absent = await repo(server, ["records", "delete-metadatum", "-r", r, "-m", "a"]);
  assertEquals(absent.code, 0);
  assertStringIncludes(absent.stderr, "has no metadatum 'a'");
  const unsure = await repo(server, ["records", "delete-all-metadata", "-r", r]);
  assertEquals(unsure.code, 1);
  await ok(server, ["delete-all-metadata", "-r", r, "--i-am-sure"]);
  assertEquals(await extras(server, id), []);
});

Deno.test("records add-metadata: entries without a type fail (exit 1, as the Python client), not plain JSON", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "typeless");
  const r = String(id);
  for (
    const text of [
      '[{"key":"x","value":1}]',
      '{"key":"x","value":1,"unit":"g"}',
      '[{"key":"a","type":"int","value":1},{"key":"x","value":1}]',
    ]
  ) {
    const run = await repo(server, ["records", "add-metadata", "-r", r, "-m", text]);
    assertEquals(run.code, 1, `${text}: ${run.stderr}`);
    assertStringIncludes(run.stderr, "the entry with the key 'x' has no 'type'");
    assertStringIncludes(run.stderr, '[{"key":"x","type":"int","value":1}]');
    assertStringIncludes(run.stderr, "--plain");
  }
  assertEquals(await extras(server, id), []);
  // With --plain the same JSON is data: the keys "key" and "value".
  await ok(server, ["add-metadata", "-r", r, "-m", '[{"key":"x","value":1}]', "--plain"]);
  assertEquals((await extras(server, id)).length, 1);
});

Deno.test("records add-metadata: empty metadata say so; the file is read with a size cap", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "empty");
  const r = String(id);
  for (const text of ["[]", "{}", "null", '"x"']) {
    const run = await repo(server, ["records", "add-metadata", "-r", r, "-m", text]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stderr, "Nothing changed: the metadata given are empty");
    assertNotIncludes(run.stderr, "has these keys already");
  }
  const big = `${dir.path}/big.json`;
  await Deno.writeTextFile(big, `{"a": "${"x".repeat(16 * 1024 * 1024)}"}`);
  const run = await repo(server, ["records", "add-metadata", "-r", r, "-p", big]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "more than the 16777216 read");
  const folder = await repo(server, ["records", "add-metadata", "-r", r, "-p", dir.path]);
  assertEquals(folder.code, 1);
  assertStringIncludes(folder.stderr, "is not a file");
  assertEquals(await extras(server, id), []);
});
