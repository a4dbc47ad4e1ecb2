// Numbers keep their type on every path through the CLI and the local server: a whole-number
// float is sent, stored, answered and printed as a float (1.0), as the server and the Python
// client keep it; an integer beyond 2^53 is never rounded silently.

import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { keepFloats, stringifyJson } from "../../lib/http/_float_json.ts";
import { createRecord, repo } from "./_records.ts";

const FLOATS =
  '[{"key":"one","type":"float","value":1.0},{"key":"zero","type":"float","value":-0.0},' +
  '{"key":"exp","type":"float","value":1e3,"validation":{"range":{"min":0.0,"max":1e4}}},' +
  '{"key":"n","type":"int","value":3}]';

Deno.test("float metadata is stored, answered and printed with --json as floats (1.0, -0.0, 1e3)", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "floats");
  const added = await repo(server, ["records", "add-metadata", "-r", String(id), "-m", FLOATS]);
  assertEquals(added.code, 0, added.stderr);
  const answer = await (await fetch(`${server.url}/api/v1/records/${id}`, {
    headers: { authorization: `Bearer ${server.pat}` },
  })).text();
  for (
    const text of [
      // The server writes its keys sorted, as the real Kadi4Mat does (issue 23).
      '"key":"one","type":"float","unit":null,"value":1.0',
      '"key":"zero","type":"float","unit":null,"value":-0.0',
      '"value":1000.0',
      '"range":{"max":10000.0,"min":0.0}',
      '"key":"n","type":"int","unit":null,"value":3}',
    ]
  ) assertStringIncludes(answer, text);
  for (const args of [["--json"], ["--jsonl"]]) {
    const shown = await repo(server, ["records", "show-info", "-r", String(id), ...args]);
    assertEquals(shown.code, 0, shown.stderr);
    const compact = shown.stdout.replace(/\s+/g, "");
    assertStringIncludes(compact, '"key":"one","type":"float","unit":null,"value":1.0');
    assertStringIncludes(compact, '"key":"zero","type":"float","unit":null,"value":-0.0');
    assertStringIncludes(compact, '"value":1000.0');
    assertStringIncludes(compact, '"range":{"max":10000.0,"min":0.0}');
    assertStringIncludes(compact, '"key":"n","type":"int","unit":null,"value":3}');
  }
  const single = await repo(server, [
    "records",
    "add-metadatum",
    "-r",
    String(id),
    "-m",
    "t",
    "-v",
    "1",
    "-t",
    "float",
  ]);
  assertEquals(single.code, 0, single.stderr);
  const exported = await repo(server, ["records", "export", "-r", String(id), "-P"]);
  assertStringIncludes(
    exported.stdout.replace(/\s+/g, ""),
    '"key":"t","type":"float","unit":null,"value":1.0',
  );
});

Deno.test("an integer beyond 2^53 is refused, never rounded", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "big");
  const big = await repo(server, [
    "records",
    "add-metadata",
    "-r",
    String(id),
    "-m",
    '[{"key":"big","type":"int","value":9007199254740993}]',
  ]);
  assertEquals(big.code, 1);
  const one = await repo(server, [
    "records",
    "add-metadatum",
    "-r",
    String(id),
    "-m",
    "b",
    "-v",
    "9007199254740993",
    "-t",
    "integer",
  ]);
  assertEquals(one.code, 1);
  const answer = await (await fetch(`${server.url}/api/v1/records/${id}`, {
    headers: { authorization: `Bearer ${server.pat}` },
  })).json();
  assertEquals(answer.extras, []);
});

Deno.test("keepFloats() marks float entries only, at any depth, and leaves other values alone", () => {
  const date = new Date(0);
  assertEquals(
    stringifyJson({ when: date, list: [{ type: "list", value: [{ type: "float", value: 2 }] }] }),
    '{"when":"1970-01-01T00:00:00.000Z","list":[{"type":"list","value":[{"type":"float","value":2.0}]}]}',
  );
  assertEquals(stringifyJson({ type: "float", value: 2.5 }), '{"type":"float","value":2.5}');
  assertEquals(stringifyJson({ type: "float", value: null }), '{"type":"float","value":null}');
  assertEquals(stringifyJson({ type: "int", value: 2 }), '{"type":"int","value":2}');
  assertEquals(JSON.stringify(keepFloats([1, "a", null])), '[1,"a",null]');
});

Deno.test("text output prints float metadata as the Python client does: 1000.0, 1e-05; an absent unit as an empty line (issue 31)", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "text-floats");
  const r = String(id);
  const metadata = '[{"key":"mass","type":"float","value":1000.0},' +
    '{"key":"tiny","type":"float","value":1e-5,"unit":"g"},{"key":"n","type":"int","value":3},' +
    '{"key":"flag","type":"bool","value":true}]';
  assertEquals((await repo(server, ["records", "add-metadata", "-r", r, "-m", metadata])).code, 0);
  const printed = async (...args: string[]) => {
    const run = await repo(server, ["records", "get-metadatum", "-r", r, ...args]);
    assertEquals(run.code, 0, run.stderr);
    return run.stdout;
  };
  assertEquals(await printed("-n", "mass"), "1000.0\n");
  assertEquals(await printed("-n", "mass", "-p"), "1000.0\n");
  assertEquals(await printed("-n", "tiny", "-p"), "1e-05\n");
  assertEquals(await printed("-n", "n", "-p"), "3\n");
  assertEquals(await printed("-n", "flag", "-p"), "True\n");
  assertEquals(await printed("-n", "mass", "-i", "unit", "-p"), "\n");
  assertEquals(await printed("-n", "tiny", "-i", "unit", "-p"), "g\n");
  // A bool entry has no unit at all: exit 1, as kadi-apy ("not present in metadatum").
  const noUnit = await repo(server, [
    "records",
    "get-metadatum",
    "-r",
    r,
    "-n",
    "flag",
    "-i",
    "unit",
  ]);
  assertEquals([noUnit.code, noUnit.stdout], [1, ""]);
  assertStringIncludes(noUnit.stderr, "has no unit (a bool entry has none)");
  const shown = await repo(server, ["records", "show-info", "-r", r, "-m"]);
  assertEquals(shown.code, 0, shown.stderr);
  assertStringIncludes(shown.stdout, '"value": 1000.0');
  assertStringIncludes(shown.stdout, '"value": 3\n');
});
