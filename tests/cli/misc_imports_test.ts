// `misc import-json-schema`, `import-shacl` and `reuse-collection` run in-process against the
// local server.
import { fileURLToPath } from "node:url";
import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { runCli } from "../../lib/cli/run.ts";
import { parseRanges } from "../../lib/cli/commands/_misc_imports.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));

async function misc(server: TestServer, args: string[], input?: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["misc", ...args], {
    version: "0.0.0-test",
    stdout: (text) => stdout += text,
    stderr: (text) => stderr += text,
    managerOptions: { host: server.url, pat: server.pat, retry: { maxAttempts: 1 } },
    ...(input === undefined ? {} : { input }),
  });
  return { code, stdout, stderr };
}

Deno.test(
  "misc import-json-schema and import-shacl create templates (-y record) or fail with one line",
  NEEDS_CORPUS,
  async () => {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const schema = await misc(server, [
      "import-json-schema",
      "-p",
      `${CORPUS}json-schema/kit-materials-science/user_description.json`,
    ]);
    assertEquals(schema.code, 0, schema.stderr);
    assertStringIncludes(schema.stdout + schema.stderr, "identifier: 'user_description'");
    const shacl = await misc(server, [
      "import-shacl",
      "--path",
      `${CORPUS}shacl/coscine/radar.ttl`,
      "-y",
      "record",
    ]);
    assertEquals(shacl.code, 0, shacl.stderr);
    const template = await manager.template({ identifier: "radar-application-profile" });
    assertEquals((await template.meta()).type, "record");
    const bad = await misc(server, [
      "import-shacl",
      "-p",
      `${CORPUS}shacl/eln-consortium/goldStandard.data.ttl`,
    ]);
    assertEquals(bad.code, 1);
    assertStringIncludes(bad.stderr, "sh:NodeShape at the root is missing");
    assertEquals(bad.stderr.trim().split("\n").length, 1);
    const usage = await misc(server, ["import-json-schema", "-p", "x.json", "-y", "other"]);
    assertEquals(usage.code, 2);
  },
);

async function collectionWithRecords(server: TestServer) {
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const collection = await manager.collection({ identifier: "run", create: true, title: "Run" });
  const ids: number[] = [];
  for (const name of ["a", "b", "c"]) {
    const record = await manager.record({ identifier: `rec-${name}`, create: true });
    await collection.addRecordLink(record.id);
    ids.push(record.id);
  }
  await (await manager.record({ id: ids[0]! })).linkRecord(ids[1]!, "feeds");
  return { collectionId: collection.id, ids };
}

Deno.test("misc reuse-collection non-interactive: suffix required, ids of -l reused", async () => {
  await using server = await startServer();
  const { collectionId, ids } = await collectionWithRecords(server);
  const missing = await misc(server, ["reuse-collection", "-c", String(collectionId)]);
  assertEquals(missing.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  assertStringIncludes(missing.stderr, "-s/--suffix");
  const run = await misc(server, [
    "reuse-collection",
    "-c",
    String(collectionId),
    "-s",
    "v2",
    "-r",
    `${ids[0]},${ids[1]}`,
    "--linked_records",
    String(ids[2]),
    "-v",
  ]);
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(
    run.stdout + run.stderr,
    "with 2 copied and 1 reused record(s) and 1 link(s)",
  );
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const copy = await manager.collection({ identifier: "run_v2" });
  assertEquals((await Array.fromAsync(copy.records())).length, 3);
  const kebab = await misc(server, [
    "reuse-collection",
    "-c",
    String(collectionId),
    "-s",
    "v3",
    "-r",
    "x",
  ]);
  assertEquals(kebab.code, 1); // as the Python client's "Invalid input format." (issue 31)
  assertStringIncludes(kebab.stderr, "is not a record id");
  // As in kadi-apy 0.51.0: without -r nothing is copied, and one of -r and -l is needed.
  const none = await misc(server, ["reuse-collection", "-c", String(collectionId), "-s", "v4"]);
  assertEquals(none.code, 1);
  assertStringIncludes(none.stderr, "No records provided. Use --records or --linked_records");
  const linkedOnly = await misc(server, [
    "reuse-collection",
    "-c",
    String(collectionId),
    "-s",
    "v5",
    "-l",
    String(ids[2]),
  ]);
  assertEquals(linkedOnly.code, 0, linkedOnly.stderr);
  assertEquals(linkedOnly.stdout, "");
  assertStringIncludes(linkedOnly.stderr, "with 0 copied and 1 reused record(s)");
  const overlap = await misc(server, [
    "reuse-collection",
    "-c",
    String(collectionId),
    "-s",
    "v6",
    "-r",
    "all",
    "-l",
    String(ids[2]),
  ]);
  assertEquals(overlap.code, 1);
  assertStringIncludes(overlap.stderr, `Invalid record IDs: ${ids[2]}.`);
});

Deno.test("misc reuse-collection -i asks with ranges like 1-2", async () => {
  await using server = await startServer();
  const { collectionId } = await collectionWithRecords(server);
  const run = await misc(
    server,
    ["reuse-collection", "-c", String(collectionId), "-i"],
    // kadi-apy 0.51.0's questions, in its order: modify all? which? link others? which?
    // copy extras values? suffix.
    ["n", "1-2", "y", "1", "maybe", "", "next"],
  );
  assertEquals(run.code, 0, run.stderr);
  // Questions and the numbered records are no data: they go to stderr (issue 21).
  assertEquals(run.stdout, "");
  const listed = run.stderr.split("\n").filter((line) => /^\d+: rec-/.test(line));
  assertEquals(listed.length, 4); // three records, then the one left for linking
  assertEquals(
    run.stderr.split("\n").filter((line) => line.endsWith("?") || line.endsWith(":")),
    [
      "Records available in the collection:",
      "Do you want to modify all records? [Y/n]:",
      "Enter record numbers or ranges separated by a comma (e.g. 1-3,5), or press Enter to skip modifying records:",
      "Do you also want to link some records to the collection without modification? [y/N]:",
      "Records available for linking:",
      "Enter record numbers or ranges to link, separated by commas (e.g. 1-3,5):",
      "Do you want to copy values from record extra metadata? [y/N]:",
      "Do you want to copy values from record extra metadata? [y/N]:",
      "Enter a suffix to append to identifiers of modified records and collection:",
    ],
  );
  assertStringIncludes(run.stderr, "Error: invalid input");
  assertStringIncludes(run.stdout + run.stderr, "'run_next'");
  assertStringIncludes(
    run.stdout + run.stderr,
    "with 2 copied and 1 reused record(s)",
  );
  const all = await misc(
    server,
    ["reuse-collection", "-c", String(collectionId), "-i", "-s", "all"],
    ["", "y"],
  );
  assertEquals(all.code, 0, all.stderr);
  assertEquals(all.stdout, "");
  assertStringIncludes(all.stderr, "with 3 copied and 0 reused record(s) and 1 link(s)");
  const wrong = await misc(
    server,
    ["reuse-collection", "-c", String(collectionId), "-i"],
    ["n", "4"],
  );
  assertEquals(wrong.code, 1);
  assertStringIncludes(wrong.stderr, "between 1 and 3");
  const nothing = await misc(
    server,
    ["reuse-collection", "-c", String(collectionId), "-i"],
    ["n", "", "n"],
  );
  assertEquals(nothing.code, 1);
  assertStringIncludes(nothing.stderr, "No records were selected for linkage or modification.");
});

Deno.test("parseRanges() reads 1-3,5 style answers", () => {
  assertEquals(parseRanges("1-3,5", 5), [1, 2, 3, 5]);
  assertEquals(parseRanges(" 2 , 1-2 ", 3), [2, 1]);
  for (const bad of ["0", "3-1", "6", "a", "1-"]) {
    let failed = false;
    try {
      parseRanges(bad, 5);
    } catch {
      failed = true;
    }
    assertEquals(failed, true, bad);
  }
});

Deno.test("misc reuse-collection -i -q still shows its questions and the numbered records (a question is no status message)", async () => {
  await using server = await startServer();
  const { collectionId } = await collectionWithRecords(server);
  const run = await misc(
    server,
    ["reuse-collection", "-c", String(collectionId), "-i", "-q", "-s", "quiet"],
    ["n", "1", "n", "n"],
  );
  assertEquals(run.code, 0, run.stderr);
  assertEquals(run.stdout, "");
  assertStringIncludes(run.stderr, "Do you want to modify all records? [Y/n]:");
  assertStringIncludes(run.stderr, "Records available in the collection:");
  assertEquals(run.stderr.split("\n").filter((line) => /^\d+: rec-/.test(line)).length, 3);
  assertStringIncludes(run.stderr, "Do you want to copy values from record extra metadata? [y/N]:");
});
