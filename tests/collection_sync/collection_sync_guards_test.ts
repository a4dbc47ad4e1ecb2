// The guard rails of records sync (--max-delete, the empty-source rule, --backup-dir) in a
// collection sync, over real HTTP against the local server.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { syncCollection } from "../../lib/collection_sync/sync_collection.ts";
import { tempDir } from "../_temp.ts";
import { writeTree } from "../transfer/_trees.ts";
import { fileNames, managerOf } from "./_helpers.ts";

const PROJECT = {
  "sample-1/a.txt": "a",
  "sample-1/b.txt": "b",
  "sample-2/c.txt": "c",
};

Deno.test("collection sync --max-delete counts deletions over the whole run: more deletes none", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const up = { direction: "up", delete: true } as const;
  await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  await Deno.remove(`${dir.path}/sample-1/a.txt`);
  await Deno.remove(`${dir.path}/sample-1/b.txt`);
  await Deno.remove(`${dir.path}/sample-2/c.txt`);
  await writeTree(dir.path, { "sample-1/new.txt": "n", "sample-2/new.txt": "n" });
  // Two records with one deletion or two each: three over the run, more than 2.
  const held = await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    ...up,
    maxDelete: 2,
  });
  assertEquals(held.complete, false);
  assertStringIncludes(held.problems.at(-1)!.reason, "more than --max-delete 2");
  assertEquals(await fileNames(manager, "sample-1"), ["a.txt", "b.txt", "new.txt"]);
  assertEquals(await fileNames(manager, "sample-2"), ["c.txt", "new.txt"]);
  const run = await syncCollection(manager, { identifier: "campaign" }, dir.path, {
    ...up,
    maxDelete: 3,
  });
  assert(run.complete, JSON.stringify(run.problems));
  assertEquals(await fileNames(manager, "sample-1"), ["new.txt"]);
  assertEquals(await fileNames(manager, "sample-2"), ["new.txt"]);
});

Deno.test("collection sync --from an empty folder with --delete removes no record from the collection unless allowEmptySource", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using dir = await tempDir();
  await writeTree(dir.path, PROJECT);
  const up = { direction: "up", delete: true } as const;
  await syncCollection(manager, { identifier: "campaign" }, dir.path, up);
  const collection = await manager.collection({ identifier: "campaign" });
  const members = async () =>
    (await Array.fromAsync(collection.records())).map((r) => r.identifier).sort();
  // An unmounted share looks like an empty folder.
  await using empty = await tempDir();
  const held = await syncCollection(manager, { identifier: "campaign" }, empty.path, up);
  assertEquals(held.complete, false);
  assertStringIncludes(held.problems[0]!.reason, "holds no record folders");
  assertEquals(await members(), ["sample-1", "sample-2"]);
  const run = await syncCollection(manager, { identifier: "campaign" }, empty.path, {
    ...up,
    allowEmptySource: true,
  });
  assert(run.complete, JSON.stringify(run.problems));
  assertEquals(await members(), []);
});

Deno.test("collection sync --to --backup-dir moves replaced and deleted local files under each record's folder", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using src = await tempDir();
  await using out = await tempDir();
  await using backup = await tempDir();
  await writeTree(src.path, PROJECT);
  await syncCollection(manager, { identifier: "campaign" }, src.path, { direction: "up" });
  await writeTree(out.path, { "sample-1/stale.txt": "old", "sample-2/c.txt": "changed here" });
  const run = await syncCollection(manager, { identifier: "campaign" }, out.path, {
    direction: "down",
    delete: true,
    backupDir: backup.path,
  });
  assert(run.complete, JSON.stringify(run.problems));
  assertEquals(await Deno.readTextFile(`${out.path}/sample-2/c.txt`), "c");
  assertEquals(await Deno.readTextFile(`${backup.path}/sample-2/c.txt`), "changed here");
  assertEquals(await Deno.readTextFile(`${backup.path}/sample-1/stale.txt`), "old");
  await assertRejects(() => Deno.stat(`${out.path}/sample-1/stale.txt`), Deno.errors.NotFound);
});

Deno.test("collection sync refuses a backup folder inside the synced folder, or going up, before anything changes", async () => {
  await using server = await startServer();
  await using manager = managerOf(server);
  await using out = await tempDir();
  const inside = await assertRejects(
    () =>
      syncCollection(manager, { identifier: "campaign" }, out.path, {
        direction: "down",
        backupDir: `${out.path}/backup`,
      }),
    InputError,
  );
  assertStringIncludes(inside.message, "overlap");
  const up = await assertRejects(
    () =>
      syncCollection(manager, { identifier: "campaign" }, out.path, {
        direction: "up",
        backupDir: `${out.path}/backup`,
      }),
    InputError,
  );
  assertStringIncludes(up.message, "for downloads");
  assertEquals([...Deno.readDirSync(out.path)], []);
});
