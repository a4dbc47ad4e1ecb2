// A chunked upload's merge that ends after its record was purged adds no file: the file would
// belong to no record, and its bytes would count against its creator's quota for good.
import { assertEquals } from "../_assert.ts";
import { merge } from "../../lib/testing/_upload_data.ts";
import { State, type Upload } from "../../lib/testing/_state.ts";
import { storeBody } from "../../lib/testing/_storage.ts";

Deno.test("merge(): a record purged while its chunks merge gets no file, the quota no bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const state = new State(dir, 1000);
    const stored = await storeBody(state, new Blob([new Uint8Array(40)]).stream(), "chunk0");
    const upload: Upload = {
      id: crypto.randomUUID(),
      recordId: 7,
      name: "late.bin",
      size: 40,
      description: "",
      mimetype: "application/octet-stream",
      checksum: null,
      chunkCount: 1,
      uploadType: "chunked",
      state: "processing",
      createdAt: "",
      lastModified: "",
      creatorId: 1,
      fileId: null,
      chunks: new Map([[0, { index: 0, size: 40, checksum: "00", path: stored.path }]]),
      task: { state: "pending" },
    };
    state.addUpload(upload);
    const merging = merge(state, upload, undefined);
    // What purging the record does before it removes the chunks (the merge may have read them).
    state.purgeUpload(upload);
    await merging;
    assertEquals([...state.files.values()], []);
    assertEquals(state.usedBytes(1), 0);
    assertEquals(upload.task?.state, "failure");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
