// The timeout measures idle time: a slow upload that keeps moving never times out.
import { assertEquals, assertRejects } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Transport } from "../../lib/http/transport.ts";
import { TimeoutError } from "../../lib/http/errors.ts";
import type { UploadJson } from "../../lib/http/protocol.ts";

const SIZE = 48_000_000;

async function startUpload(transport: Transport): Promise<string> {
  const record = await transport.json<{ id: number }>("POST", "/records", {
    json: { identifier: "slow", title: "slow" },
  });
  const upload = await transport.json<UploadJson>("POST", `/records/${record.id}/uploads`, {
    json: { name: "slow.bin", size: SIZE },
  });
  return upload._actions.upload_data ?? "";
}

Deno.test("Transport: an upload the server reads slowly outlasts the timeout while bytes move", async () => {
  await using server = await startServer({
    faults: [{ method: "PUT", path: "/uploads/", slowRequestBytesPerSecond: 8_000_000 }],
  });
  // The upload takes about six seconds; the timeout is 4 s without a byte moving. (The OS
  // buffers a few MB of the body, which the server drains at 8 MB/s well within the timeout.)
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat, timeout: 4 },
  });
  const target = await startUpload(transport);
  const bytes = new Uint8Array(SIZE).fill(7);
  const file = await transport.json<{ size: number }>("PUT", target, { body: bytes });
  assertEquals(file.size, SIZE);
});

Deno.test("Transport: a server that stops answering still times out", async () => {
  await using server = await startServer({ faults: [{ path: "/info", delayMs: 1500 }] });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat, timeout: 0.3 },
  });
  await assertRejects(() => transport.json("GET", "/info"), TimeoutError);
});
