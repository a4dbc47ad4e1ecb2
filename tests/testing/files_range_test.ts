// The local server's file download honours HTTP Range (206, 416) unless a fault says otherwise,
// and the jsonFields fault makes it answer hostile identifiers and names.
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { call } from "./_helpers.ts";

async function fixture() {
  const server = await startServer();
  const manager = new RepoManager({ host: server.url, pat: server.pat });
  const record = await manager.record({ identifier: "range", create: true });
  const file = await record.uploadString("0123456789", "digits.txt");
  return {
    server,
    manager,
    record,
    path: `/records/${record.id}/files/${file.id}/download`,
    async [Symbol.asyncDispose]() {
      await manager.close();
      await server.close();
    },
  };
}

Deno.test("GET .../download answers a Range with 206 and Content-Range, past the end with 416", async () => {
  await using env = await fixture();
  const cases: [string, number, string, string | null][] = [
    ["bytes=4-", 206, "456789", "bytes 4-9/10"],
    ["bytes=2-4", 206, "234", "bytes 2-4/10"],
    ["bytes=-3", 206, "789", "bytes 7-9/10"],
    ["bytes=10-", 416, "", "bytes */10"],
    ["bytes=0-1,4-5", 200, "0123456789", null],
  ];
  for (const [range, status, body, contentRange] of cases) {
    const answer = await call(env.server, "GET", env.path, { headers: { Range: range } });
    assertEquals(answer.status, status, range);
    assertEquals(String(answer.body), body, range);
    assertEquals(answer.headers.get("content-range"), contentRange, range);
  }
});

Deno.test("faults: ignoreRange sends the whole file with 200; jsonFields rewrites answers", async () => {
  await using env = await fixture();
  env.server.addFault({ path: "/download", ignoreRange: true });
  const answer = await call(env.server, "GET", env.path, { headers: { Range: "bytes=4-" } });
  assertEquals([answer.status, String(answer.body)], [200, "0123456789"]);
  env.server.addFault({ path: "/records", jsonFields: { identifier: "../x", name: "../y" } });
  const record = await call(env.server, "GET", `/records/${env.record.id}`);
  assertEquals(record.body.identifier, "../x");
  const files = await call(env.server, "GET", `/records/${env.record.id}/files`);
  assertEquals(files.body.items[0].name, "../y");
});
