// Issue 21, what a new user met in an afternoon of real work: messages that name the real cause,
// dry runs that end with a total, get-file's count and size before it writes, its --json, and
// folder uploads that name the subfolders they leave out.

import { assertEquals, assertMatch, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { createRecord, ok, repo, tempDir } from "./_records.ts";

Deno.test("a user, record id or trash item that is not there is named, with what to do", async () => {
  await using server = await startServer({ users: [{ username: "alice", displayname: "Alice" }] });
  await repo(server, ["groups", "create", "-i", "lab"]);
  const user = await repo(server, [
    "groups",
    "add-user",
    "-G",
    "lab",
    "-U",
    "jdoe",
    "-D",
    "local",
    "-p",
    "member",
  ]);
  assertEquals(user.code, 1);
  assertStringIncludes(user.stderr, "No user 'jdoe' (account type local) exists");
  assertStringIncludes(user.stderr, "repo-apy users get-users -f");
  const added = await repo(server, [
    "groups",
    "add-user",
    "-G",
    "lab",
    "-U",
    "alice",
    "-D",
    "local",
    "-p",
    "member",
  ]);
  assertEquals(added.code, 0, added.stderr);

  const missing = await repo(server, ["records", "show-info", "-r", "9999"]);
  assertEquals(missing.code, 1);
  assertStringIncludes(missing.stderr, "No record with id 9999 exists that your account can see");
  assertNotIncludes(missing.stderr, "[404]");

  const id = String(await createRecord(server, "binned"));
  await ok(server, ["delete", "-r", id, "--i-am-sure"]);
  for (const selector of [["-r", id], ["-R", "binned"]]) {
    const trashed = await repo(server, ["records", "show-info", ...selector]);
    assertEquals(trashed.code, 1);
    assertStringIncludes(
      trashed.stderr,
      `The record 'binned' (id: ${id}) is in the trash: restore it with ` +
        `'repo-apy misc restore-resource -t record -i ${id}'`,
    );
  }
  const restore = ["misc", "restore-resource", "-t", "record", "-i", id];
  assertEquals((await repo(server, restore)).code, 0);
  const again = await repo(server, restore);
  assertEquals(again.code, 1);
  assertStringIncludes(again.stderr, `The record with id ${id} is not in the trash`);
  assertStringIncludes(again.stderr, "misc get-deleted-resources");
  // The dry run checks as the real run would: it does not promise to purge what is not there.
  for (const dry of [["--dry-run"], []]) {
    const purge = await repo(server, ["misc", "purge-resource", "-t", "record", "-i", id, ...dry]);
    assertEquals(purge.code, 1, purge.stdout);
    assertEquals(purge.stdout, "");
    assertStringIncludes(purge.stderr, `The record with id ${id} is not in the trash`);
  }
  await ok(server, ["delete", "-r", id, "--i-am-sure"]);
  const dry = await repo(server, ["misc", "purge-resource", "-t", "record", "-i", id, "--dry-run"]);
  assertEquals(
    dry.stdout,
    `Dry run: would purge the record 'binned' (id: ${id}) from the trash for good\n`,
  );
});

Deno.test("a second user reading a private record is told it exists and which role reads it", async () => {
  await using server = await startServer({ users: [{ username: "alice", displayname: "Alice" }] });
  const id = String(await createRecord(server, "private-one"));
  const alice = server.createToken({ userId: 2 });
  for (const selector of [["-R", "private-one"], ["-r", id]]) {
    const run = await repo(server, ["records", "show-info", ...selector], { pat: alice });
    assertEquals(run.code, 1);
    assertStringIncludes(run.stderr, "exists, but your account has no access to it");
    assertStringIncludes(run.stderr, "the role 'member' can read it");
    assertNotIncludes(run.stderr, "choose another identifier");
  }
  // Creating with that identifier still says it is taken.
  const create = await repo(server, ["records", "create", "-i", "private-one"], { pat: alice });
  assertEquals(create.code, 1);
  assertStringIncludes(create.stderr, "already in use");
});

Deno.test("a misspelled command followed by options suggests the command first", async () => {
  await using server = await startServer();
  const sub = await repo(server, ["records", "creat", "-i", "x"]);
  assertEquals(sub.code, 2);
  assertStringIncludes(sub.stderr, "unknown command 'creat'");
  assertStringIncludes(sub.stderr, "Did you mean create?");
  assertNotIncludes(sub.stderr, "unknown option");
  const group = await repo(server, ["record", "create", "-i", "x"]);
  assertEquals(group.code, 2);
  assertStringIncludes(group.stderr, "unknown command 'record'");
  assertStringIncludes(group.stderr, "Did you mean records?");
});

Deno.test("dry runs end with a total; folder uploads name the subfolders they leave out", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "totals"));
  await Deno.mkdir(`${dir.path}/raw`);
  await Deno.writeTextFile(`${dir.path}/raw/inner.txt`, "not uploaded");
  for (const name of ["a.txt", "b.txt", "c.txt"]) {
    await Deno.writeTextFile(`${dir.path}/${name}`, "12345");
  }
  const planned = await ok(server, ["add-files", "-r", id, "-n", dir.path, "--dry-run"]);
  assertMatch(planned.stdout, /\nDry run: would upload 3 files, 15 B\n$/);
  assertStringIncludes(planned.stderr, "Left out 1 subfolder(s)");
  assertStringIncludes(planned.stderr, "'raw/'");
  assertStringIncludes(planned.stderr, "add --recursive to upload the whole tree");
  const done = await ok(server, ["add-files", "-r", id, "-n", dir.path]);
  assertStringIncludes(done.stderr, "Left out 1 subfolder(s)");
  assertStringIncludes(done.stderr, "add --recursive to upload the whole tree");
  assertMatch(
    done.stderr,
    /Uploaded 3 files, 15 B in \S+.* to the record .*; left out 1 subfolder/,
  );
  assertEquals(done.stdout, "");
  const download = await ok(server, ["get-file", "-r", id, "-p", `${dir.path}/out`, "--dry-run"]);
  assertMatch(download.stdout, /\nDry run: would download 3 files, 15 B\n$/);
});

Deno.test("folder uploads with --recursive leave nothing out and say nothing of subfolders", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "tree"));
  await Deno.mkdir(`${dir.path}/raw`);
  await Deno.writeTextFile(`${dir.path}/raw/inner.txt`, "inner");
  await Deno.writeTextFile(`${dir.path}/a.txt`, "12345");
  const args = ["add-files", "-r", id, "-n", dir.path, "--recursive"];
  const planned = await ok(server, [...args, "--dry-run"]);
  assertStringIncludes(planned.stdout, "as 'raw/inner.txt'");
  assertMatch(planned.stdout, /\nDry run: would upload 2 files, 10 B\n$/);
  assertNotIncludes(planned.stderr, "subfolder");
  const done = await ok(server, args);
  assertMatch(done.stderr, /Uploaded 2 files, 10 B in \S+.* to the record 'tree'/);
  assertNotIncludes(done.stderr, "subfolder");
  assertStringIncludes(done.stderr, "Uploaded 'raw/inner.txt'");
  assertEquals(done.stdout, "");
});

Deno.test("get-file: count and size first, short lines, a summary; --json lists the paths", async () => {
  await using server = await startServer();
  await using dir = await tempDir();
  const id = String(await createRecord(server, "many"));
  for (const name of ["a,b.txt", "c.txt"]) {
    await ok(server, ["add-string-as-file", "-r", id, "-s", "data", "-n", name]);
  }
  // Not a terminal: nothing is asked, the total is said first.
  const run = await ok(server, ["get-file", "-r", id, "-p", `${dir.path}/out`, "--json"]);
  const written = JSON.parse(run.stdout) as string[];
  assertEquals(written.sort(), [`${dir.path}/out/a,b.txt`, `${dir.path}/out/c.txt`]);
  assertStringIncludes(run.stderr, "Downloading 2 files, 8 B, of the record 'many'");
  assertStringIncludes(run.stderr, "\nDownloaded 'a,b.txt'\n");
  assertMatch(run.stderr, /\nDownloaded 2 files, 8 B in \S+.* from the record 'many'/);
  const help = await repo(server, ["records", "get-file", "--help"]);
  assertMatch(help.stdout.replace(/\s+/g, " "), /-E, --pipe .*comma.* use --json/);
  assertStringIncludes(help.stdout, "-y, --yes");
  const both = await repo(server, ["records", "get-file", "-r", id, "-E", "--json"]);
  assertEquals(both.code, 2);
});

Deno.test("the search commands say that -q is --query there and --quiet has no short form", async () => {
  await using server = await startServer();
  for (const group of ["records", "collections", "templates", "groups"]) {
    const command = group === "records" ? "get-records" : `get-${group}`;
    const help = await repo(server, [group, command, "--help"]);
    assertMatch(help.stdout.replace(/\s+/g, " "), /--quiet Print nothing but errors and the data/);
    assertStringIncludes(help.stdout.replace(/\s+/g, " "), "-q is --query, as in kadi-apy");
  }
});
