// The local server's file index against a recount after every change: a record's files in order,
// its active file per name, its uploads, and each user's bytes against the quota.
import { assertEquals } from "../_assert.ts";
import { FileIndex } from "../../lib/testing/_file_index.ts";
import type { StoredFile, Upload } from "../../lib/testing/_state.ts";

/** A deterministic pseudo-random generator (xorshift), so a failure repeats. */
function generator(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

function file(id: number, recordId: number, name: string, creatorId: number): StoredFile {
  return {
    id: `f${id}`,
    recordId,
    name,
    description: "",
    mimetype: "text/plain",
    magicMimetype: "text/plain",
    size: id * 3,
    checksum: "",
    path: "",
    state: "active",
    createdAt: "",
    lastModified: "",
    creatorId,
  };
}

function upload(id: number, recordId: number, creatorId: number): Upload {
  return {
    id: `u${id}`,
    recordId,
    name: `u${id}`,
    size: id * 5,
    description: "",
    mimetype: "text/plain",
    checksum: null,
    chunkCount: 1,
    uploadType: "direct",
    state: "active",
    createdAt: "",
    lastModified: "",
    creatorId,
    fileId: null,
    chunks: new Map(),
    task: null,
  };
}

Deno.test("FileIndex keeps files, names, uploads and used bytes equal to a recount", () => {
  const index = new FileIndex();
  const files: StoredFile[] = [];
  const uploads: Upload[] = [];
  const purgedFiles: StoredFile[] = [];
  const purgedUploads: Upload[] = [];
  const random = generator(0xf11e);
  const names = ["a", "b", "c", "d"];
  const check = (step: number) => {
    for (const recordId of [1, 2, 3]) {
      assertEquals(
        [...index.filesOf(recordId)],
        files.filter((f) => f.recordId === recordId),
        `files, step ${step}`,
      );
      assertEquals(
        [...index.uploadsOf(recordId)],
        uploads.filter((u) => u.recordId === recordId),
        `uploads, step ${step}`,
      );
      for (const name of names) {
        const active = files.filter((f) =>
          f.recordId === recordId && f.state === "active" && f.name === name
        );
        assertEquals(index.activeFileNamed(recordId, name), active.at(-1), `name, step ${step}`);
      }
    }
    for (const userId of [1, 2]) {
      const used = files.filter((f) => f.creatorId === userId && f.state === "active")
        .reduce((sum, f) => sum + f.size, 0) +
        uploads.filter((u) => u.creatorId === userId && u.state !== "inactive")
          .reduce((sum, u) => sum + u.size, 0);
      assertEquals(index.usedBytes(userId), used, `used bytes, step ${step}`);
    }
  };
  for (let step = 1; step <= 3000; step++) {
    const op = random(10);
    const someFile = files[random(files.length || 1)];
    const someUpload = uploads[random(uploads.length || 1)];
    if (op === 0 || files.length === 0) {
      const recordId = 1 + random(3);
      const name = names[random(names.length)]!;
      // Names of active files stay unique per record, as the server keeps them.
      if (index.activeFileNamed(recordId, name) === undefined) {
        const f = file(step, recordId, name, 1 + random(2));
        files.push(f);
        index.addFile(f);
      }
    } else if (op === 1 && someFile) {
      const name = names[random(names.length)]!;
      const taken = index.activeFileNamed(someFile.recordId, name);
      if (taken === undefined || taken === someFile) {
        index.updateFile(someFile, () => someFile.name = name);
      }
    } else if (op === 2 && someFile) {
      const state = someFile.state === "active" ? "deleted" : "active";
      if (state === "deleted" || !index.activeFileNamed(someFile.recordId, someFile.name)) {
        index.updateFile(someFile, () => someFile.state = state);
      }
    } else if (op === 3 && someFile) {
      index.updateFile(someFile, () => someFile.size = random(100));
    } else if (op === 4 && someFile) {
      files.splice(files.indexOf(someFile), 1);
      purgedFiles.push(someFile);
      index.purgeFile(someFile);
    } else if (op === 5) {
      const u = upload(step, 1 + random(3), 1 + random(2));
      uploads.push(u);
      index.addUpload(u);
    } else if (op === 6 && someUpload) {
      const states = ["active", "processing", "inactive"] as const;
      index.updateUpload(someUpload, () => someUpload.state = states[random(3)]!);
    } else if (op === 7 && someUpload) {
      uploads.splice(uploads.indexOf(someUpload), 1);
      purgedUploads.push(someUpload);
      index.purgeUpload(someUpload);
    } else if (op === 8 && purgedFiles.length > 0) {
      // A task that finishes after the purge changes what is no longer there.
      const gone = purgedFiles[random(purgedFiles.length)]!;
      index.updateFile(gone, () => {
        gone.size = random(100);
        gone.state = "active";
      });
    } else if (op === 9 && purgedUploads.length > 0) {
      const gone = purgedUploads[random(purgedUploads.length)]!;
      index.updateUpload(
        gone,
        () => gone.state = gone.state === "inactive" ? "active" : "inactive",
      );
    }
    check(step);
  }
});
