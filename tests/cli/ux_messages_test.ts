// What a user saw (issue 9): every CLI message speaks in CLI terms and says what to do.

import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { reportError } from "../../lib/cli/_errors.ts";
import { Output } from "../../lib/cli/output.ts";
import { createRecord, managerFor, ok, repo, tempDir } from "./_records.ts";

Deno.test("records edit -l not-a-license prints the server's field error without -V debug", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "licensed");
  const run = await repo(server, ["records", "edit", "-r", String(id), "-l", "not-a-license"]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "license: No license with this name exists.");
  assertNotIncludes(run.stderr, "could not understand");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
});

Deno.test("a wrong PAT names 'repo-apy config set-pat' as the next step and never prints the token", async () => {
  await using server = await startServer();
  const run = await repo(server, ["records", "show-info", "-r", "1"], {
    pat: "pat_wrong_wrong_wrong",
  });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "No valid access token was supplied: the access token");
  assertStringIncludes(run.stderr, "the access token was not accepted");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
  assertStringIncludes(run.stderr, "repo-apy config set-pat");
  assertNotIncludes(run.stderr + run.stdout, "pat_wrong_wrong_wrong");
});

Deno.test("a token without the needed scope: the hint names the missing scope", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "scoped");
  const pat = server.createToken({ scopes: ["record.read"] });
  const run = await repo(server, ["records", "edit", "-r", String(id), "-t", "New"], { pat });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "lacks the scope 'record.update'");
  assertStringIncludes(run.stderr, "repo-apy config set-pat");
  assertNotIncludes(run.stderr, pat);
});

Deno.test("a missing identifier is reported in CLI terms, not as the library's (create: true)", async () => {
  await using server = await startServer();
  const run = await repo(server, ["records", "edit", "-R", "nowhere", "-t", "x"]);
  assertEquals(run.code, 1);
  assertNotIncludes(run.stderr, "create: true");
  assertStringIncludes(run.stderr, "repo-apy records create -i nowhere");
});

Deno.test("add-metadata: a missing type and a bad entry speak of metadata entries, not extras[0]", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "typed");
  const run = await repo(server, [
    "records",
    "add-metadata",
    "-r",
    String(id),
    "-m",
    '[{"key": "d", "type": "dict", "value": [{"key": "e", "value": 1}]}]',
  ]);
  assertEquals(run.code, 1);
  assertNotIncludes(run.stderr, "nothing is not");
  assertNotIncludes(run.stderr, "extras[");
  assertStringIncludes(run.stderr, "metadata entry 1");
  assertStringIncludes(run.stderr, "the type is missing");
});

Deno.test("add-metadatum refuses a unit for a string instead of dropping it (exit 1, as the Python client)", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "units");
  const run = await repo(server, [
    "records",
    "add-metadatum",
    "-r",
    String(id),
    "-m",
    "colour",
    "-v",
    "red",
    "-u",
    "nm",
  ]);
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "-u/--unit only applies to -t integer or float");
  await using manager = managerFor(server);
  assertEquals((await (await manager.record({ id })).meta()).extras ?? [], []);
});

Deno.test("records create keeps the typed text as title and announces the changed identifier", async () => {
  await using server = await startServer();
  const run = await ok(server, ["create", "-i", "Über/Probe#3"]);
  assertStringIncludes(run.stderr, "The identifier 'Über/Probe#3' is stored as 'berprobe3'");
  await using manager = managerFor(server);
  const meta = await (await manager.record({ identifier: "berprobe3" })).meta();
  assertEquals(meta.title, "Über/Probe#3");
  const piped = await ok(server, ["create", "-i", "Ärger 2", "-p"]);
  assertEquals(piped.stdout, `${Number(piped.stdout)}\n`);
  const plain = await ok(server, ["create", "-i", "plain-one"]);
  assertNotIncludes(plain.stdout, "is stored as");
});

Deno.test("add-tag says when the tag was there already; delete names the record's identifier", async () => {
  await using server = await startServer();
  const id = await createRecord(server, "tagged");
  const first = await ok(server, ["add-tag", "-r", String(id), "-t", "raman"]);
  assertStringIncludes(first.stderr, "Added the tag 'raman'");
  const again = await ok(server, ["add-tag", "-r", String(id), "-t", "Raman"]);
  assertStringIncludes(again.stderr, "has the tag 'raman' already");
  assertNotIncludes(again.stdout, "Added");
  const deleted = await ok(server, ["delete", "-r", String(id), "--i-am-sure"]);
  assertStringIncludes(deleted.stderr, "identifier: 'tagged'");
});

Deno.test("get-file -p creates a missing target folder, as export does", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = await createRecord(server, "fetch-me");
  await ok(server, ["add-string-as-file", "-r", String(id), "-s", "hello", "-n", "a.txt"]);
  const target = `${dir.path}/new/deeper`;
  await ok(server, ["get-file", "-r", String(id), "-n", "a.txt", "-p", `${target}/`]);
  assertEquals(await Deno.readTextFile(`${target}/a.txt`), "hello");
  await Deno.writeTextFile(`${dir.path}/plain`, "x");
  const onFile = await repo(server, [
    "records",
    "get-file",
    "-r",
    String(id),
    "-n",
    "a.txt",
    "-p",
    `${dir.path}/plain/sub`,
  ]);
  assertEquals(onFile.code, 1);
  assertNotIncludes(onFile.stderr, "os error");
  assertStringIncludes(onFile.stderr, "-p/--filepath");
});

Deno.test("OS errors of ordinary mistakes read in CLI terms, without temporary file names", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "os-errors"));
  await Deno.writeTextFile(`${dir.path}/file`, "x");
  const run = await repo(server, ["records", "add-files", "-r", id, "-n", `${dir.path}/file/sub`]);
  assertEquals(run.code, 1);
  assertNotIncludes(run.stderr, "os error");
  assertStringIncludes(run.stderr, "is a file, not a folder");
  const lines: string[] = [];
  const output = new Output({ stdout: () => {}, stderr: (text) => lines.push(text) });
  const denied = new Deno.errors.PermissionDenied(
    `Operation not permitted (os error 1): open '${dir.path}/out/.run1.h5.d63c2534.part'`,
  );
  assertEquals(reportError(new Error("download failed", { cause: denied }), output), 1);
  assertEquals(lines, [
    `Error: No permission to access '${dir.path}/out/run1.h5': check the permissions of the file and its folder\n`,
  ]);
});

Deno.test("a 403 says that the account lacks the permission, on the error's one line", async () => {
  await using server = await startServer({ users: [{ username: "jdoe" }] });
  const id = await createRecord(server, "not-yours");
  const other = server.users.find((user) => user.id !== 1)!;
  // A member reads the record, so the edit itself is refused.
  await ok(server, ["add-user", "-r", String(id), "-u", String(other.id), "-p", "member"]);
  const run = await repo(server, ["records", "edit", "-r", String(id), "-t", "Mine"], {
    pat: other.pat,
  });
  assertEquals(run.code, 1);
  assertStringIncludes(run.stderr, "[403]");
  assertStringIncludes(run.stderr, "ask the resource's owner for a role");
  assertEquals(run.stderr.trim().split("\n").length, 1, run.stderr);
  assertNotIncludes(run.stderr, other.pat);
});

Deno.test("edit names the resource by the title it had before the edit", async () => {
  await using server = await startServer();
  await repo(server, ["templates", "create", "-i", "tpl", "-t", "Old title", "-y", "record"]);
  const template = await repo(server, ["templates", "edit", "-T", "tpl", "-i", "New title"]);
  assertEquals(template.code, 0, template.stderr);
  assertStringIncludes(template.stderr, "of the template 'Old title'");
  assertStringIncludes(template.stderr, "to 'New title'");
  const id = await createRecord(server, "renamed");
  const record = await repo(server, ["records", "edit", "-r", String(id), "-t", "New title"]);
  assertEquals(record.code, 0, record.stderr);
  assertStringIncludes(record.stderr, "of the record 'renamed'");
  assertNotIncludes(record.stderr, "record 'New title'");
});
