// What the composed RepoRecord gained: restore and purge, the export-metadata stream, and the
// identifier lookup that reads the server's `scopes` key (not the message text).
import { assertEquals, assertRejects } from "../_assert.ts";
import { RequestError } from "../../lib/http/errors.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { setup } from "../resources/_setup.ts";

Deno.test("RepoRecord.restore() brings a deleted record back; purge() removes it", async () => {
  await using env = await setup();
  const record = await env.manager.record({ identifier: "r", create: true, title: "R" });
  await record.delete();
  const restored = await record.restore();
  assertEquals([restored.id, restored.state], [record.id, "active"]);
  assertEquals((await record.meta()).title, "R");
  await record.delete();
  await record.purge();
  const gone = await assertRejects(() => env.manager.record({ id: record.id }), RequestError);
  assertEquals(gone.status, 404);
});

Deno.test("exportMetadataStream() streams the same JSON as exportMetadata()", async () => {
  await using env = await setup();
  const record = await env.manager.record({
    identifier: "m",
    create: true,
    extras: [{ key: "a", type: "int", value: 1 }],
  });
  const dir = await Deno.makeTempDir();
  try {
    const path = await record.exportMetadata(dir, { format: "plain" });
    const streamed = await new Response(await record.exportMetadataStream({ format: "plain" }))
      .text();
    assertEquals(JSON.parse(streamed), { a: 1 });
    assertEquals(streamed, await Deno.readTextFile(path));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a token without the read scope still creates by identifier (401 with scopes)", async () => {
  await using env = await setup();
  const pat = env.server.createToken({ scopes: ["record.create"] });
  await using limited = new RepoManager({ host: env.server.url, pat });
  const record = await limited.record({ identifier: "blind", create: true });
  assertEquals(record.created, true);
  const lookups = env.server.log.filter((entry) => entry.path.endsWith("/identifier/blind"));
  assertEquals(lookups.map((entry) => entry.status), [401]);
});

Deno.test("an expired token's 401 (no scopes key) is not taken for a missing record", async () => {
  await using env = await setup();
  const pat = env.server.createToken({ expired: true });
  await using expired = new RepoManager({ host: env.server.url, pat });
  const error = await assertRejects(
    () => expired.record({ identifier: "x", create: true }),
    RequestError,
  );
  assertEquals(error.status, 401);
  assertEquals(env.server.log.filter((entry) => entry.method === "POST").length, 0);
});
