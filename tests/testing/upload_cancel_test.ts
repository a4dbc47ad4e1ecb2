// A direct upload cancelled while its data is still streaming in creates no file (as a chunk of a
// cancelled chunked upload stores nothing), and the quota no longer counts it.
import { assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

Deno.test("direct upload: cancelled while the data streams in → 404, no file, quota freed", async () => {
  await using server = await startServer({ quota: 100 });
  const record = await createRecord(server, "cancel-mid");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "late.bin", size: 60 },
  });
  assertEquals(upload.status, 201);
  let release = () => {};
  const held = new Promise<void>((resolve) => release = resolve);
  let step = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (step++ === 0) return controller.enqueue(new Uint8Array(30));
      await held;
      controller.enqueue(new Uint8Array(30));
      controller.close();
    },
  });
  const put = fetch(upload.body._actions.upload_data, {
    method: "PUT",
    headers: { Authorization: `Bearer ${server.pat}` },
    body,
  });
  // The PUT is logged when its handler starts (the upload was still active then); the second half
  // of its body waits until the upload is cancelled.
  while (server.log.at(-1)?.method !== "PUT") await new Promise((r) => setTimeout(r, 5));
  assertEquals((await call(server, "DELETE", upload.body._links.self)).status, 204);
  release();
  const answer = await put;
  await answer.body?.cancel();
  assertEquals(answer.status, 404);
  const files = await call(server, "GET", `/records/${record.id}/files`);
  assertEquals(files.body.items, []);
  // Nothing of the cancelled upload counts against the quota.
  const full = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "full.bin", size: 100 },
  });
  assertEquals(full.status, 201);
});
