// `records get-file` and `records export` against a hostile server: identifiers and names that
// try to leave the target folder, and names too long for the file system.
import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { runCli, tempHome } from "./_run.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, listDir, ok, tempDir } from "./_records.ts";

const HOSTILE = "../../../victim";
const SAFE = ".._.._.._victim";

Deno.test("records get-file -u (-n, -i, -P) and export -u -n keep a hostile identifier inside -p", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "safe");
  const added = await ok(server, [
    "add-string-as-file",
    "-r",
    String(id),
    "-s",
    "data",
    "-n",
    "a.txt",
  ]);
  const fileId = /id: ([0-9a-f-]+)/.exec(added.stderr)?.[1] ?? "";
  const target = `${dir.path}/one/two/three`;
  await Deno.mkdir(target, { recursive: true });
  server.addFault({ method: "GET", path: "/records/", jsonFields: { identifier: HOSTILE } });
  const record = ["-r", String(id), "-p", target, "-u"];
  await ok(server, ["get-file", ...record, "-n", "a.txt"]);
  await ok(server, ["get-file", ...record, "-i", fileId, "-f"]);
  // Other content in the way, so -P writes a second file (the same content would be kept).
  await Deno.writeTextFile(`${target}/${SAFE}/a.txt`, "edited");
  await ok(server, ["get-file", ...record, "-P", "*"]);
  await ok(server, ["export", "-r", String(id), "-p", target, "-u", "-n", "named", "-f"]);
  await ok(server, ["export-metadata", "-r", String(id), "-p", target, "-u"]);
  assertEquals(await listDir(dir.path), ["one"]);
  assertEquals(await listDir(`${dir.path}/one`), ["two"]);
  assertEquals(await listDir(target), [SAFE]);
  assertEquals(await listDir(`${target}/${SAFE}`), [
    `${SAFE}-extras.json`,
    "a.txt",
    "a_2.txt",
    "named.json",
  ]);
});

Deno.test("records get-file shortens a name too long for the file system with a warning", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "long");
  const name = `${"ö".repeat(200)}.txt`;
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "long", "-n", name]);
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "short", "-n", "b.txt"]);
  const run = await ok(server, ["get-file", "-r", String(id), "-p", dir.path]);
  assertStringIncludes(run.stderr, "too long for the local file system");
  const names = await listDir(dir.path);
  assertEquals(names.length, 2);
  assertEquals(names.includes("b.txt"), true);
});

Deno.test("get-file to a special file says so in CLI terms, not Deno's --allow-all advice", async () => {
  await using server = await startServer();
  await using home = await tempHome();
  const id = String(await createRecord(server, "special"));
  await ok(server, ["add-string-as-file", "-r", id, "-s", "x", "-n", "a.txt"]);
  await Deno.writeTextFile(
    home.configPath,
    `[global]\ndefault = "t"\n[t]\nhost = "${server.url}"\npat = "${server.pat}"\n`,
    { mode: 0o600 },
  );
  const run = await runCli(home.dir, ["records", "get-file", "-r", id, "-p", "/dev/full"], {
    permissions: [
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-write",
      "--allow-env=REPO_APY_CONFIG,HOME",
    ],
  });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "'/dev/full' is a special file");
  assertNotIncludes(run.stderr, "--allow-all");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
});
