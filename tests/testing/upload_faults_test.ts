// Tests of the local server's upload faults: damaged storage and answers lost after processing.
import { assertEquals, assertNotEquals, assertRejects } from "../_assert.ts";
import { createHash } from "node:crypto";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

Deno.test("faults: corruptStorage stores other bytes, ignores the checksum header and reports the stored checksum", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "corrupt");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 5 },
  });
  server.addFault({ method: "PUT", path: "/uploads/", corruptStorage: true });
  const stored = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: "hello",
    headers: { "Kadi-MD5-Checksum": md5("hello") },
  });
  assertEquals(stored.status, 201);
  assertNotEquals(stored.body.checksum, md5("hello"));
  const download = await fetch(stored.body._links.download, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  const bytes = new Uint8Array(await download.arrayBuffer());
  assertEquals(stored.body.checksum, createHash("md5").update(bytes).digest("hex"));
  assertEquals(new TextDecoder().decode(bytes.subarray(1)), "ello");
});

Deno.test("faults: dropAfterProcessing processes the request, then closes without an answer", async () => {
  await using server = await startServer();
  server.addFault({ method: "POST", path: "/records", dropAfterProcessing: true, times: 1 });
  await assertRejects(
    () =>
      fetch(`${server.url}/api/v1/records`, {
        method: "POST",
        headers: { Authorization: `Bearer ${server.pat}` },
        body: JSON.stringify({ identifier: "kept", title: "kept" }),
      }),
    TypeError,
  );
  const list = await call(server, "GET", "/records");
  assertEquals(list.body.items.map((item: { identifier: string }) => item.identifier), ["kept"]);
});
