import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { Output } from "../../lib/cli/output.ts";
import { transferProgress } from "../../lib/cli/commands/_records_common.ts";
import { createRecord, fileNames, listDir, managerFor, ok, repo, tempDir } from "./_records.ts";

async function fileText(server: Parameters<typeof managerFor>[0], id: number, name: string) {
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  return await new Response(await record.downloadFile(await record.getFileId(name))).text();
}

Deno.test("records add-files: an existing file without -f exits 1 and changes nothing; -f replaces it", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "files");
  const path = `${dir.path}/data.txt`;
  await Deno.writeTextFile(path, "first");
  const first = await ok(server, ["add-files", "-r", String(id), "-n", path, "-d", "About"]);
  assertStringIncludes(first.stderr, "Uploaded 'data.txt'");
  await Deno.writeTextFile(path, "second");
  const uploadsBefore = server.log.filter((entry) => entry.path.endsWith("/uploads")).length;
  const refused = await repo(server, ["records", "add-files", "-r", String(id), "-n", path]);
  assertEquals(refused.code, 1);
  assertStringIncludes(refused.stderr, "already has a file named 'data.txt'");
  assertStringIncludes(refused.stderr, "-f/--force");
  assertNotIncludes(refused.stderr, "    at ");
  assertEquals(server.log.filter((entry) => entry.path.endsWith("/uploads")).length, uploadsBefore);
  assertEquals(await fileText(server, id, "data.txt"), "first");
  await ok(server, ["add-files", "-r", String(id), "-n", path, "-f"]);
  assertEquals(await fileText(server, id, "data.txt"), "second");
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  assertEquals((await record.getFileByName("data.txt")).description, "About");
});

Deno.test("records add-files uploads a folder's files (not subfolders) by pattern and exclude pattern", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  for (const name of ["a.csv", "b.csv", "skip.csv", "c.txt"]) {
    await Deno.writeTextFile(`${dir.path}/${name}`, name);
  }
  await Deno.mkdir(`${dir.path}/sub`);
  await Deno.writeTextFile(`${dir.path}/sub/d.csv`, "d");
  const id = await createRecord(server, "folder");
  await ok(server, [
    "add-files",
    "-r",
    String(id),
    "-n",
    dir.path,
    "-p",
    "*.csv",
    "--exclude_pattern",
    "skip*",
  ]);
  assertEquals(await fileNames(server, id), ["a.csv", "b.csv"]);
  const other = await createRecord(server, "folder-2");
  await ok(server, [
    "add-files",
    "-r",
    String(other),
    "-n",
    dir.path,
    "--exclude-pattern",
    "*.csv",
  ]);
  assertEquals(await fileNames(server, other), ["c.txt"]);
  const none = await repo(server, [
    "records",
    "add-files",
    "-r",
    String(other),
    "-n",
    dir.path,
    "-p",
    "*.h5",
  ]);
  assertEquals(none.code, 0);
  assertStringIncludes(none.stderr, "Warning: No file in the folder");
  const described = await repo(server, [
    "records",
    "add-files",
    "-r",
    String(other),
    "-n",
    dir.path,
    "-d",
    "x",
  ]);
  assertEquals(described.code, 2); // a usage error since issue 9
});

Deno.test("records add-files on a folder with a clash uploads nothing without -f", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/a.txt`, "a");
  await Deno.writeTextFile(`${dir.path}/b.txt`, "b");
  const id = await createRecord(server, "clash");
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "old", "-n", "b.txt"]);
  const run = await repo(server, ["records", "add-files", "-r", String(id), "-n", dir.path]);
  assertEquals(run.code, 1);
  assertEquals(await fileNames(server, id), ["b.txt"]);
  const missing = await repo(server, [
    "records",
    "add-files",
    "-r",
    String(id),
    "-n",
    `${dir.path}/nope`,
  ]);
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, "No file or folder at");
});

Deno.test("records add-string-as-file stores the text; a clash without -f exits 1", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "strings");
  await ok(server, ["add-string-as-file", "-R", "strings", "-s", "héllo", "-n", "h.txt"]);
  assertEquals(await fileText(server, id, "h.txt"), "héllo");
  const clash = await repo(server, [
    "records",
    "add-string-as-file",
    "-r",
    String(id),
    "-s",
    "x",
    "-n",
    "h.txt",
  ]);
  assertEquals(clash.code, 1);
  assertStringIncludes(clash.stderr, "already has a file named 'h.txt'");
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "new", "-n", "h.txt", "-f"]);
  assertEquals(await fileText(server, id, "h.txt"), "new");
});

Deno.test("records get-file downloads by pattern, into a record folder, and pipes the paths", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "down");
  for (const name of ["x.csv", "y.csv", "z.txt"]) {
    await ok(server, ["add-string-as-file", "-r", String(id), "-s", `data ${name}`, "-n", name]);
  }
  const piped = await ok(server, [
    "get-file",
    "-r",
    String(id),
    "-p",
    dir.path,
    "-P",
    "*.csv",
    "-e",
    "y*",
    "-u",
    "-E",
  ]);
  assertEquals(piped.stdout, `${dir.path}/down/x.csv\n`);
  assertStringIncludes(piped.stderr, "Downloaded");
  assertEquals(await Deno.readTextFile(`${dir.path}/down/x.csv`), "data x.csv");
  const all = await ok(server, ["get-file", "-r", String(id), "-p", dir.path, "-E"]);
  assertEquals(all.stdout.trim().split(",").length, 3);
  assertEquals(await listDir(dir.path), ["down", "x.csv", "y.csv", "z.txt"]);
  const again = await ok(server, [
    "get-file",
    "-r",
    String(id),
    "-p",
    dir.path,
    "-n",
    "z.txt",
    "-E",
  ]);
  // The same content is already here: kept, not downloaded again as z_2.txt.
  assertEquals(again.stdout, `${dir.path}/z.txt\n`);
  const forced = await ok(server, [
    "get-file",
    "-r",
    String(id),
    "-p",
    dir.path,
    "-n",
    "z.txt",
    "-f",
    "-E",
  ]);
  assertEquals(forced.stdout, `${dir.path}/z.txt\n`);
  // Other content in the way: -f replaces it (the same content would be kept as already here).
  await Deno.writeTextFile(`${dir.path}/x.csv`, "edited");
  const plain = await ok(server, ["get-file", "-r", String(id), "-p", dir.path, "-P", "x*", "-f"]);
  // One short line per file (its path in the folder), and the summary naming the record.
  assertStringIncludes(plain.stderr, "\nDownloaded 'x.csv'\n");
  assertStringIncludes(plain.stderr, "\nDownloaded 1 file, 10 B in ");
});

Deno.test("records get-file -T downloads from several records; a missing folder is created", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const a = await createRecord(server, "rec-a");
  const b = await createRecord(server, "rec-b");
  await ok(server, ["add-string-as-file", "-r", String(a), "-s", "a", "-n", "same.txt"]);
  await ok(server, ["add-string-as-file", "-r", String(b), "-s", "b", "-n", "same.txt"]);
  const run = await ok(server, ["get-file", "-T", `${a},${b}`, "-p", dir.path, "-u", "-E"]);
  assertEquals(run.stdout, `${dir.path}/rec-a/same.txt,${dir.path}/rec-b/same.txt\n`);
  const fileId = await (async () => {
    await using manager = managerFor(server);
    return await (await manager.record({ id: a })).getFileId("same.txt");
  })();
  const byId = await ok(server, ["get-file", "-r", String(a), "-i", fileId, "-p", dir.path, "-E"]);
  assertEquals(await Deno.readTextFile(byId.stdout.trim()), "a");
  const missing = await repo(server, [
    "records",
    "get-file",
    "-r",
    String(a),
    "-p",
    `${dir.path}/no`,
  ]);
  // Issue 9: get-file creates its target folder, as export does.
  assertEquals(missing.code, 0, missing.stderr);
  assertEquals((await Deno.stat(`${dir.path}/no/same.txt`)).isFile, true);
  const nothing = await repo(server, [
    "records",
    "get-file",
    "-r",
    String(a),
    "-p",
    dir.path,
    "-P",
    "*.h5",
  ]);
  assertEquals(nothing.code, 0);
  assertStringIncludes(nothing.stderr, "Warning: No file of the record");
});

Deno.test("records get-file -n with a '/' in the name writes into subfolders, like a whole download", async () => {
  // Found against the real server: -n raw/deep/run2.txt wrote raw_deep_run2.txt.
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "tree");
  await ok(server, [
    "add-string-as-file",
    "-r",
    String(id),
    "-s",
    "run 2",
    "-n",
    "raw/deep/run2.txt",
  ]);
  const one = await ok(server, [
    "get-file",
    "-r",
    String(id),
    "-n",
    "raw/deep/run2.txt",
    "-p",
    dir.path,
    "-E",
  ]);
  assertEquals(one.stdout, `${dir.path}/raw/deep/run2.txt\n`);
  assertEquals(await Deno.readTextFile(`${dir.path}/raw/deep/run2.txt`), "run 2");
  const flat = await ok(server, [
    "get-file",
    "-r",
    String(id),
    "-n",
    "raw/deep/run2.txt",
    "-p",
    dir.path,
    "--flat",
    "-E",
  ]);
  assertEquals(flat.stdout, `${dir.path}/raw_deep_run2.txt\n`);
  assertEquals(await listDir(dir.path), ["raw", "raw_deep_run2.txt"]);
});

Deno.test("records edit-file, delete-file and delete-files (--i-am-sure)", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "manage");
  for (const name of ["a.txt", "b.txt", "c.txt"]) {
    await ok(server, ["add-string-as-file", "-r", String(id), "-s", name, "-n", name]);
  }
  await ok(server, [
    "edit-file",
    "-r",
    String(id),
    "-n",
    "a.txt",
    "-a",
    "renamed.txt",
    "-m",
    "text/plain",
  ]);
  const taken = await repo(server, [
    "records",
    "edit-file",
    "-r",
    String(id),
    "-n",
    "b.txt",
    "-a",
    "c.txt",
  ]);
  assertEquals(taken.code, 1);
  assertStringIncludes(taken.stderr, "already has a file named 'c.txt'");
  await ok(server, ["delete-file", "-r", String(id), "-n", "b.txt"]);
  assertEquals(await fileNames(server, id), ["c.txt", "renamed.txt"]);
  const unsure = await repo(server, ["records", "delete-files", "-r", String(id)]);
  assertEquals(unsure.code, 1);
  assertEquals((await fileNames(server, id)).length, 2);
  const done = await ok(server, ["delete-files", "-r", String(id), "--i-am-sure"]);
  assertStringIncludes(done.stderr, "Deleted 2 file(s)");
  assertEquals(await fileNames(server, id), []);
  const noFile = await repo(server, ["records", "delete-file", "-r", String(id)]);
  assertEquals(noFile.code, 1); // exit 1 as the Python client: its code wins (issue 31)
});

Deno.test("transferProgress() draws a bar on a terminal only and clears it when done", () => {
  let drawn = "";
  const tty = new Output({ stderr: (text) => drawn += text, stderrIsTerminal: true });
  const bar = transferProgress(tty, "Uploading a.bin", 200);
  bar.onProgress({ bytes: 50 });
  bar.onProgress({ bytes: 200 });
  bar.done();
  assertStringIncludes(drawn, "Uploading a.bin [");
  assertStringIncludes(drawn, " 25%");
  assertStringIncludes(drawn, "100%");
  let piped = "";
  const pipe = new Output({ stderr: (text) => piped += text, stderrIsTerminal: false });
  const silent = transferProgress(pipe, "Uploading a.bin", 200);
  silent.onProgress({ bytes: 200 });
  silent.done();
  assertEquals(piped, "");
});
