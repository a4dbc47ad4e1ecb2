// `--json`/`--jsonl` of list commands over real HTTP: one JSON array (or one object per line)
// streamed from the library's iterator, pages fetched at most PAGES_AHEAD ahead of the output, `-p`
// for one page, nothing else on stdout, and a closed stdout ending the run quietly.

import { assert, assertEquals } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import type { PageJson, RecordJson } from "../../lib/http/protocol.ts";
import { runCli as runInProcess } from "../../lib/cli/run.ts";
import { createRecord, managerFor, repo } from "./_records.ts";
import { spawnCli, tempHome, writeLocalConfig } from "./_run.ts";
import { PAGES_AHEAD } from "../../lib/resources/capabilities/context.ts";

/** GET requests for the record list the server has seen so far. */
function listRequests(server: TestServer): string[] {
  return server.log
    .filter((entry) => entry.method === "GET" && /\/records$/.test(entry.path))
    .map((entry) => entry.query);
}

async function createRecords(server: TestServer, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 1; index <= count; index++) {
    ids.push(await createRecord(server, `stream-${index}`));
  }
  return ids;
}

Deno.test("get-records --json streams every record of every page as one JSON array", async () => {
  await using server = await startServer();
  const ids = await createRecords(server, 5);
  await using manager = managerFor(server);
  const run = await repo(server, ["records", "get-records", "-n", "2", "--json"]);
  assertEquals(run.code, 0, run.stderr);
  const records = JSON.parse(run.stdout) as RecordJson[];
  assertEquals(records.map((record) => record.id).sort(), [...ids].sort());
  // The same text as the whole array printed at once: indented, newline at the end, nothing else.
  assertEquals(run.stdout, `${JSON.stringify(records, null, 2)}\n`);
  // The server's wire names, unchanged.
  const one = await manager.transport.json<RecordJson>("GET", `/records/${ids[0]}`);
  const streamed = records.find((record) => record.id === ids[0]);
  assertEquals(Object.keys(streamed ?? {}).sort(), Object.keys(one).sort());
  assertEquals(listRequests(server).length, 3);
  const empty = await repo(server, ["records", "get-records", "-q", "no-such-thing", "--json"]);
  assertEquals(empty.stdout, "[]\n");
});

Deno.test("--jsonl prints one object per line; with -p only that page", async () => {
  await using server = await startServer();
  const ids = await createRecords(server, 5);
  const all = await repo(server, ["records", "get-records", "-n", "2", "--jsonl"]);
  assertEquals(all.code, 0, all.stderr);
  const lines = all.stdout.split("\n");
  assertEquals(lines.pop(), "");
  const parsed = lines.map((line) => JSON.parse(line) as RecordJson);
  assertEquals(parsed.map((record) => record.id).sort(), [...ids].sort());
  const page = await repo(server, ["records", "get-records", "-n", "2", "-p", "2", "--jsonl"]);
  assertEquals(page.stdout.trim().split("\n").length, 2);
  const pageJson = await repo(server, ["records", "get-records", "-n", "2", "-p", "3", "--json"]);
  const third = JSON.parse(pageJson.stdout) as PageJson<RecordJson>;
  assertEquals([third.items.length, third._pagination.total_items], [1, 5]);
  const both = await repo(server, ["records", "get-records", "--json", "--jsonl"]);
  assertEquals(both.code, 2);
  const ids1 = await repo(server, ["records", "get-record-ids", "--jsonl"]);
  assertEquals(ids1.stdout.trim().split("\n").map(Number).sort(), [...ids].sort());
});

Deno.test("list --jsonl reads at most PAGES_AHEAD pages ahead of the items it has written", async () => {
  await using server = await startServer();
  const count = PAGES_AHEAD + 8;
  await createRecords(server, count);
  const seenAtWrite: number[] = [];
  let stdout = "";
  const code = await runInProcess(["records", "get-records", "-n", "1", "--jsonl"], {
    version: "0.0.0-test",
    stdout: (text) => {
      seenAtWrite.push(listRequests(server).length);
      stdout += text;
    },
    stderr: () => {},
    managerOptions: { host: server.url, pat: server.pat, retry: { maxAttempts: 1 } },
  });
  assertEquals(code, 0);
  assertEquals(stdout.trim().split("\n").length, count);
  assertEquals(listRequests(server).length, count, "every page once");
  // When item k (one per page) is written, pages up to k + PAGES_AHEAD may have been asked for,
  // never more: a listing is not read whole before its first items are written.
  seenAtWrite.forEach((pages, index) => {
    assert(pages <= index + 1 + PAGES_AHEAD, `item ${index + 1} written after ${pages} pages`);
  });
  assert(seenAtWrite[0]! < count, "the first item is written before the last page is asked for");
});

Deno.test("every list command streams with --json and honours -p", async () => {
  await using server = await startServer();
  const [a, b, c] = await createRecords(server, 3);
  await repo(server, ["records", "add-tag", "-r", String(a), "-t", "t1,t2,t3"]);
  await repo(server, ["records", "add-record-link", "-r", String(a), "-l", String(b), "-n", "x"]);
  await repo(server, ["collections", "create", "-i", "c1"]);
  await repo(server, ["collections", "create", "-i", "c2"]);
  await repo(server, ["templates", "create", "-i", "t1"]);
  await repo(server, ["groups", "create", "-i", "g1"]);
  await repo(server, ["records", "delete", "-r", String(c), "--i-am-sure"]);
  const lists: [string[], number][] = [
    [["records", "show-record-links-to", "-r", String(a)], 1],
    [["collections", "get-collections"], 2],
    [["collections", "get-collections", "-i"], 2],
    [["templates", "get-templates"], 1],
    [["groups", "get-groups"], 1],
    [["groups", "get-groups", "-i"], 1],
    [["users", "get-users"], 1],
    [["misc", "get-deleted-resources"], 1],
    [["misc", "get-tags"], 3],
  ];
  for (const [args, count] of lists) {
    const run = await repo(server, [...args, "-n", "1", "--json"]);
    assertEquals(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
    const items = JSON.parse(run.stdout) as unknown[];
    assertEquals(items.length, count, args.join(" "));
    const page = await repo(server, [...args, "-n", "1", "-p", "1", "--json"]);
    const first = JSON.parse(page.stdout) as PageJson<unknown>;
    assertEquals(first._pagination.total_items, count, args.join(" "));
  }
  const licenses = JSON.parse(
    (await repo(server, ["misc", "get-licenses", "-n", "1", "--json"])).stdout,
  );
  const licensePage = await repo(server, ["misc", "get-licenses", "-n", "1", "-p", "1", "--json"]);
  const total = (JSON.parse(licensePage.stdout) as PageJson<unknown>)._pagination.total_items;
  assert(Array.isArray(licenses) && total > 1, "several licenses");
  assertEquals(licenses.length, total);
});

Deno.test("a closed stdout ends a streaming list quietly, and no page beyond the read-ahead is requested", async () => {
  await using server = await startServer();
  await createRecords(server, 2 * (PAGES_AHEAD + 4));
  await using home = await tempHome();
  await writeLocalConfig(home.configPath, server.url, server.pat);
  // Page 2 is held until the reader is gone, so its items are written after the close, however
  // slow the machine: no timing is involved.
  const gone = Promise.withResolvers<void>();
  server.addFault({ method: "GET", path: /\/records$/, nth: 2, waitFor: gone.promise });
  const child = spawnCli(home.dir, ["records", "get-records", "-n", "2", "--jsonl"]);
  const reader = child.stdout.getReader();
  const first = await reader.read();
  assert(first.value !== undefined && first.value.length > 0, "the first page arrives");
  await reader.cancel();
  gone.resolve();
  const status = await child.status;
  const stderr = new TextDecoder().decode(
    new Uint8Array(await new Response(child.stderr).arrayBuffer()),
  );
  assertEquals(status.code, 0, stderr);
  assertEquals(stderr, "");
  // The run stops at the first write after the close (page 2's items at the latest): pages beyond
  // that page and the PAGES_AHEAD read ahead of it are never asked for, out of PAGES_AHEAD + 4.
  const requested = listRequests(server).length;
  assert(requested <= 2 + PAGES_AHEAD, `pages requested: ${requested}`);
});

Deno.test("a server whose page links loop ends --json with exit 1 instead of streaming forever", async () => {
  await using server = await startServer();
  await createRecords(server, 2);
  server.addFault({
    method: "GET",
    path: /\/records$/,
    jsonFields: {
      _pagination: {
        page: 1,
        per_page: 1,
        total_pages: 2,
        total_items: 2,
        _links: { next: `${server.url}/api/records?page=1&per_page=1` },
      },
    },
  });
  const run = await repo(server, ["records", "get-records", "-n", "1", "--jsonl"]);
  assertEquals(run.code, 1);
  assertEquals(
    run.stderr,
    "Error: The server's page links loop: page 2 links back to an earlier page\n",
  );
  assertEquals(listRequests(server).length, 2);
});
