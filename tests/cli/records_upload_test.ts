// `records add-files` reliability: folder uploads that resume when run again, the resume
// line of a rerun, and several processes resuming one interrupted upload.
import { assertEquals, assertNotIncludes, assertStringIncludes, assertTrue } from "../_assert.ts";
import { Transport } from "../../lib/http/transport.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { UploadError, UploadFilesError } from "../../lib/transfer/errors.ts";
import { interruptMessage } from "../../lib/cli/_errors.ts";
import type { FileJson, UploadJson } from "../../lib/http/protocol.ts";
import { RepoRecord } from "../../lib/model/record.ts";
import { sha256, sha256File, writeRandomFile } from "../transfer/_helpers.ts";
import { createRecord, fileNames, managerFor, ok, repo, tempDir } from "./_records.ts";
import { runCli, tempHome } from "./_run.ts";
import { openResource } from "../../lib/resources/resource.ts";

function posted(server: TestServer, from: number): number {
  return server.log.slice(from).filter((entry) =>
    entry.method === "POST" && entry.path.endsWith("/uploads")
  ).length;
}

/** Leaves an upload of `path` (55 MB, 6 chunks) on the server with chunks 0 to 2 stored. */
async function interruptedUpload(server: TestServer, id: number, path: string): Promise<void> {
  await writeRandomFile(path, 55_000_000, 83);
  server.addFault({ method: "PUT", chunkIndex: 3, drop: true });
  await using transport = new Transport({
    settings: { host: server.url, pat: server.pat },
    retry: { maxAttempts: 1 },
  });
  const record = await openResource(transport, RepoRecord, { id });
  await record.uploadFile(path, { concurrency: 1 }).then(
    () => Promise.reject(new Error("the upload should have failed")),
    (error) => assertTrue(error instanceof UploadError, String(error)),
  );
  server.clearFaults();
}

Deno.test("records add-files on a folder: the same command again continues and counts the skipped files", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  for (const name of ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]) {
    await Deno.writeTextFile(`${dir.path}/${name}`, `content of ${name}`);
  }
  const id = await createRecord(server, "folder-resume");
  // The third file's upload fails: the first two are in the record.
  server.addFault({ method: "POST", path: "/uploads", status: 500, nth: 3 });
  const args = ["records", "add-files", "-r", String(id), "-n", dir.path, "--concurrency", "1"];
  const failed = await repo(server, args);
  assertEquals(failed.code, 1);
  assertStringIncludes(failed.stderr, "run the same command again to continue");
  assertNotIncludes(failed.stderr, "--skip-existing");
  assertEquals(await fileNames(server, id), ["a.txt", "b.txt"]);

  // The same command again skips the files already there with the same content.
  const before = server.log.length;
  const resumed = await repo(server, args);
  assertEquals(resumed.code, 0, resumed.stderr);
  assertStringIncludes(resumed.stderr, "Uploaded 3 files, 48 B in ");
  assertStringIncludes(resumed.stderr, "skipped 2 already there");
  assertEquals(resumed.stdout, "");
  assertEquals(posted(server, before), 3);
  assertEquals(await fileNames(server, id), ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]);

  // Run once more, with nothing left to do: exit 0, nothing sent.
  const finished = await repo(server, args);
  assertEquals(finished.code, 0, finished.stderr);
  assertStringIncludes(finished.stderr, "All 5 files are already in the record");

  // A file that changed locally is not skipped: it clashes unless -f replaces it.
  await Deno.writeTextFile(`${dir.path}/a.txt`, "changed");
  const clash = await repo(server, args);
  assertEquals(clash.code, 1);
  assertStringIncludes(clash.stderr, "a file named 'a.txt' with other content than the local file");
  assertStringIncludes(clash.stderr, "add -f/--force to replace it");
  assertNotIncludes(clash.stderr, "add --skip-existing");
  const replaced = await ok(server, [...args.slice(1), "--skip-existing", "-f"]);
  assertStringIncludes(replaced.stderr, "Uploaded 1 file, 7 B in ");
  assertStringIncludes(replaced.stderr, "skipped 4 already there");
});

Deno.test("records add-files sends several small files of a folder at once", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  for (const name of ["a", "b", "c", "d", "e", "f"]) {
    await Deno.writeTextFile(`${dir.path}/${name}.txt`, name);
  }
  const id = await createRecord(server, "folder-concurrent");
  const before = server.log.length;
  await ok(server, ["add-files", "-r", String(id), "-n", dir.path]);
  // Requests arrive in order: with 4 files in flight the first four are initiations.
  const uploads = server.log.slice(before).filter((entry) => entry.path.includes("/uploads"));
  assertEquals(uploads.slice(0, 4).map((entry) => entry.method), ["POST", "POST", "POST", "POST"]);
  assertEquals((await fileNames(server, id)).length, 6);
  const sequential = await createRecord(server, "folder-sequential");
  const from = server.log.length;
  await ok(server, ["add-files", "-r", String(sequential), "-n", dir.path, "--concurrency", "1"]);
  const one = server.log.slice(from).filter((entry) => entry.path.includes("/uploads"));
  assertEquals(one.slice(0, 4).map((entry) => entry.method), ["POST", "PUT", "POST", "PUT"]);
});

Deno.test("records add-files run again after an interruption says it resumes and how much is there", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "resume-line");
  const path = `${dir.path}/big.bin`;
  await interruptedUpload(server, id, path);
  const run = await ok(server, ["add-files", "-r", String(id), "-n", path]);
  assertStringIncludes(
    run.stderr,
    "Resuming the upload of 'big.bin': 30.0 MB of 55.0 MB already on the server",
  );
  assertStringIncludes(run.stderr, "Uploaded 'big.bin'");
});

Deno.test("records add-files: 4 concurrent CLI processes resuming one interrupted upload all succeed", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const id = await createRecord(server, "resumers");
  const path = `${home.dir}/big.bin`;
  await interruptedUpload(server, id, path);
  await Deno.writeTextFile(
    home.configPath,
    `[global]\ndefault = "local"\n\n[local]\nhost = "${server.url}"\npat = "${server.pat}"\n`,
  );
  const before = server.log.length;
  const runs = await Promise.all(
    Array.from(
      { length: 4 },
      () => runCli(home.dir, ["records", "add-files", "-r", String(id), "-n", path]),
    ),
  );
  for (const run of runs) assertEquals(run.code, 0, run.stderr);
  assertEquals(await fileNames(server, id), ["big.bin"]);
  assertEquals(posted(server, before), 0);
  const puts = server.log.slice(before).filter((entry) => entry.chunkIndex !== undefined)
    .map((entry) => entry.chunkIndex as number);
  // Chunks 3 to 5 were missing; no process sends a chunk the server had when it looked.
  assertTrue(puts.every((index) => index >= 3), `chunk PUTs ${puts}`);
  assertTrue(puts.length <= 12, `${puts.length} chunk PUTs`);
  await using manager = managerFor(server);
  const record = await manager.record({ id });
  const file = await record.getFileByName("big.bin");
  assertEquals(await sha256(await record.downloadFile(file.id)), await sha256File(path));
});

Deno.test("records add-files succeeds when the answer to finish is lost, and a rerun says it is there", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "lost-finish");
  const path = `${dir.path}/big.bin`;
  await writeRandomFile(path, 51_000_000, 89);
  server.addFault({ method: "POST", path: "/uploads/", dropAfterProcessing: true, times: 1 });
  const run = await ok(server, ["add-files", "-r", String(id), "-n", path]);
  assertStringIncludes(run.stderr, "Uploaded 'big.bin'");
  const before = server.log.length;
  const again = await ok(server, ["add-files", "-r", String(id), "-n", path]);
  assertStringIncludes(again.stderr, "Skipped 'big.bin'");
  assertEquals(posted(server, before), 0);
  assertEquals(await fileNames(server, id), ["big.bin"]);
});

Deno.test("interruptMessage() of an interrupted folder upload says what is left and that the same command continues", () => {
  const upload = { name: "big.bin", chunk_count: 6, chunks: [] } as unknown as UploadJson;
  const aborted = new UploadError("cancelled", {
    upload,
    resumable: true,
    aborted: true,
    left: { uploadId: "u", chunks: 2, chunkCount: 6, bytes: 20_000_000 },
  });
  const done = { uploaded: [{ name: "a.txt" } as FileJson], skipped: [] };
  const inFile = new UploadFilesError("stopped", "/data/big.bin", done, aborted);
  assertEquals(
    interruptMessage(new Error("wrapped", { cause: inFile })),
    "Interrupted: the upload of 'big.bin' stays on the server (2 of 6 chunks); 1 file(s) are in the record; run the same command again to continue (files already in the record are skipped)",
  );
  const between = new UploadFilesError("cancelled", undefined, done, new Error("SIGINT"));
  assertEquals(
    interruptMessage(between),
    "Interrupted: 1 file(s) are in the record; run the same command again to continue (files already in the record are skipped)",
  );
});
