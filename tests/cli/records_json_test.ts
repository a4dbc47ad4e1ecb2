import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import type { PageJson, RecordJson, RecordLinkJson } from "../../lib/http/protocol.ts";
import { createRecord, managerFor, ok, repo } from "./_records.ts";

Deno.test("records show-info --json prints only the server's record JSON on stdout", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "json-info");
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "x", "-n", "a.txt"]);
  await using manager = managerFor(server);
  const expected = await manager.transport.json<RecordJson>("GET", `/records/${id}`);
  const run = await ok(server, ["show-info", "-r", String(id), "--json", "-d", "-v"]);
  assertEquals(run.stderr, "");
  const parsed = JSON.parse(run.stdout);
  assertEquals(parsed.id, expected.id);
  assertEquals(parsed.identifier, "json-info");
  assertEquals(parsed.visibility, expected.visibility);
  assertEquals(parsed.files, undefined);
  const withFiles = JSON.parse(
    (await ok(server, ["show-info", "-r", String(id), "--json", "-l"]))
      .stdout,
  );
  assertEquals(withFiles.files.map((file: { name: string }) => file.name), ["a.txt"]);
});

Deno.test("records get-metadatum --json prints the entry; an absent one with -d its default", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "json-meta");
  const r = String(id);
  const metadata = [{
    key: "run",
    type: "list",
    value: [{ type: "str", value: "heat" }, { type: "int", value: 7, unit: "s" }],
  }];
  await ok(server, ["add-metadata", "-r", r, "-m", JSON.stringify(metadata)]);
  const entry = await ok(server, ["get-metadatum", "-r", r, "-n", "run.2", "--json"]);
  assertEquals(JSON.parse(entry.stdout), { type: "int", value: 7, unit: "s" });
  assertEquals(entry.stderr, "");
  const list = await ok(server, ["get-metadatum", "-r", r, "-n", "run", "--json"]);
  assertEquals(JSON.parse(list.stdout), metadata[0]);
  const fallback = await ok(server, ["get-metadatum", "-r", r, "-n", "x", "-d", "n/a", "--json"]);
  assertEquals(JSON.parse(fallback.stdout), "n/a");
  const absent = await repo(server, ["records", "get-metadatum", "-r", r, "-n", "x", "--json"]);
  assertEquals([absent.code, absent.stdout], [1, ""]);
  for (const extra of [["-p"], ["-i", "unit"]]) {
    const clash = await repo(server, [
      "records",
      "get-metadatum",
      "-r",
      r,
      "-n",
      "run",
      "--json",
      ...extra,
    ]);
    assertEquals(clash.code, 2, extra.join(" "));
  }
});

Deno.test("records show-record-links-to --json -p prints the server's page; without -p all links", async () => {
  await using server = await startServer();
  const a = await createRecord(server, "json-from");
  const b = await createRecord(server, "json-to");
  await ok(server, ["add-record-link", "-r", String(a), "-l", String(b), "-n", "cites"]);
  const out = await ok(server, ["show-record-links-to", "-r", String(a), "--json", "-p", "1"]);
  const page = JSON.parse(out.stdout) as PageJson<RecordLinkJson>;
  assertEquals(page._pagination.total_items, 1);
  assertEquals(page.items.map((link) => [link.name, link.record_to?.id]), [["cites", b]]);
  const incoming = await ok(server, [
    "show-record-links-to",
    "-r",
    String(b),
    "-d",
    "in",
    "--json",
  ]);
  const inLinks = JSON.parse(incoming.stdout) as RecordLinkJson[];
  assertEquals(inLinks.map((link) => link.record_from?.id), [a]);
});

Deno.test("records get-records --json -p prints the server's page, without -p every record; get-record-ids --json an id array", async () => {
  await using server = await startServer();
  const a = await createRecord(server, "json-a");
  const b = await createRecord(server, "json-b");
  await ok(server, ["add-tag", "-r", String(a), "-t", "keep"]);
  const page = JSON.parse(
    (await ok(server, ["get-records", "-n", "1", "-p", "1", "--json"])).stdout,
  ) as PageJson<RecordJson>;
  assertEquals([page.items.length, page._pagination.total_items], [1, 2]);
  const all = JSON.parse(
    (await ok(server, ["get-records", "-n", "1", "--json"])).stdout,
  ) as RecordJson[];
  assertEquals(all.map((record) => record.id).sort(), [a, b].sort());
  const mine = JSON.parse(
    (await ok(server, ["get-records", "-i", "--json"])).stdout,
  ) as RecordJson[];
  assertEquals(mine.map((record) => record.id).sort(), [a, b].sort());
  const ids = await ok(server, ["get-record-ids", "--json"]);
  assertEquals((JSON.parse(ids.stdout) as number[]).sort(), [a, b].sort());
  assertEquals(JSON.parse((await ok(server, ["get-record-ids", "-t", "keep", "--json"])).stdout), [
    a,
  ]);
  const clash = await repo(server, ["records", "get-record-ids", "--json", "-p"]);
  assertEquals(clash.code, 2);
});

Deno.test("records get-records: every filter excludes the user options, in either order", async () => {
  await using server = await startServer();
  const filters = [["-t", "x"], ["-m", "text/plain"], ["-c", "1"], ["-C"], ["-v", "public"], [
    "-q",
    "a",
  ]];
  const users = [["-u", "1"], ["-U", "testuser", "-D", "local"], ["-i"]];
  for (const filter of filters) {
    for (const user of users) {
      for (const args of [[...filter, ...user], [...user, ...filter]]) {
        const run = await repo(server, ["records", "get-records", ...args]);
        assertEquals(run.code, 2, args.join(" "));
        assertStringIncludes(run.stderr, "cannot be used with");
      }
    }
  }
  const help = await repo(server, ["records", "get-records", "--help"]);
  assertStringIncludes(help.stdout, "exclude the user options");
  assertEquals(server.log.filter((entry) => entry.path.endsWith("records")).length, 0);
});

Deno.test("records underscore flags take the kebab spelling too", async () => {
  await using server = await startServer();
  const a = await createRecord(server, "kebab");
  const plain = await ok(server, ["get-record-ids", "--child-collections", "-c", "1", "-p"]);
  assertEquals(plain.stdout, "\n");
  const underscore = await ok(server, ["get-records", "--child_collections", "-c", "1"]);
  assertStringIncludes(underscore.stdout, "Found 0 record(s)");
  assertEquals(
    server.log.filter((entry) => entry.query.includes("child_collections=true")).length,
    2,
  );
  for (const name of ["a.txt", "b.txt", "c.csv"]) {
    await ok(server, ["add-string-as-file", "-r", String(a), "-s", name, "-n", name]);
  }
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "repo-apy-kebab-" }));
  try {
    const run = await ok(server, [
      "get-file",
      "-r",
      String(a),
      "-p",
      dir,
      "-P",
      "*.txt",
      "--exclude-pattern=b*",
      "-E",
    ]);
    assertEquals(run.stdout, `${dir}/a.txt\n`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("records errors exit 1 with one message and no stack trace", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "errors");
  const cases = [
    ["show-info", "-r", "999"],
    ["show-info", "-R", "no-such-record", "--json"],
    ["get-file", "-r", String(id), "-i", "00000000-0000-0000-0000-000000000000", "-p", "/tmp"],
    ["delete-record-link", "-r", String(id), "-l", "42"],
    ["add-collection-link", "-r", String(id), "-C", "no-such-collection"],
    ["get-records", "-U", "nobody", "-D", "local"],
  ];
  for (const args of cases) {
    const run = await repo(server, ["records", ...args]);
    assertEquals([run.code, run.stdout], [1, ""], args.join(" "));
    assertStringIncludes(run.stderr, "Error: ");
    assertNotIncludes(run.stderr, "    at ");
  }
});

Deno.test("records commands exit 1 with a connection hint when the server is down", async () => {
  let url: string;
  {
    await using server = await startServer();
    url = server.url;
  }
  const { runCli } = await import("../../lib/cli/run.ts");
  let stdout = "";
  let stderr = "";
  const code = await runCli(["records", "get-record-ids", "-p"], {
    version: "0.0.0-test",
    stdout: (text) => stdout += text,
    stderr: (text) => stderr += text,
    managerOptions: { host: url, pat: "pat_down_test", retry: { maxAttempts: 1 } },
  });
  assertEquals([code, stdout], [1, ""]);
  assertStringIncludes(stderr, "Could not connect");
  assertNotIncludes(stderr, "    at ");
});

Deno.test("records add-metadatum names an out-of-range integer before any request", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "bounds");
  const before = server.log.length;
  const run = await repo(server, [
    "records",
    "add-metadatum",
    "-r",
    String(id),
    "-m",
    "count",
    "-v",
    "-9007199254740992",
    "-t",
    "integer",
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "'count'");
  assertStringIncludes(run.stderr, "2^53");
  const nested = JSON.stringify([{
    key: "outer",
    type: "dict",
    value: [{ key: "inner", type: "int", value: 9007199254740992 }],
  }]);
  const many = await repo(server, ["records", "add-metadata", "-r", String(id), "-m", nested]);
  assertEquals(many.code, 1);
  assertStringIncludes(many.stderr, "'outer.inner'");
  assertEquals(server.log.length, before);
});
