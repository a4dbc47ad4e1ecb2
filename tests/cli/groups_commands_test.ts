import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { managerFor, repo } from "./_records.ts";
import { createdId, must } from "./_resources.ts";

Deno.test("groups: members added, changed and removed with a second user", async () => {
  await using server = await startServer({ users: [{ username: "jdoe", displayname: "J. Doe" }] });
  const id = await createdId(server, ["groups", "create", "-i", "lab-a", "-t", "Lab A"]);
  const added = await must(server, [
    "groups",
    "add-user",
    "-G",
    "lab-a",
    "-U",
    "jdoe",
    "-D",
    "local",
  ]);
  assertStringIncludes(added.stderr, "Gave J. Doe (id: 2");
  assertStringIncludes(added.stderr, "the role 'member' in the group 'Lab A'");
  await using manager = managerFor(server);
  const group = await manager.group({ id });
  const roles = async () =>
    (await group.getMembers()).items.map((member) => [member.user.id, member.role.name]);
  assertEquals((await roles()).find(([user]) => user === 2), [2, "member"]);
  const changed = await must(server, [
    "groups",
    "add-user",
    "-g",
    String(id),
    "-u",
    "2",
    "-p",
    "editor",
  ]);
  assertStringIncludes(changed.stderr, "Changed the role of J. Doe");
  assertEquals((await roles()).find(([user]) => user === 2), [2, "editor"]);
  await using jdoe = managerFor({ ...server, pat: server.users[1]!.pat });
  await (await jdoe.group({ id })).edit({ description: "edited by a member with editor role" });
  const removed = await must(server, ["groups", "remove-user", "-G", "lab-a", "-u", "2"]);
  assertStringIncludes(removed.stderr, "Removed J. Doe");
  assertEquals((await roles()).find(([user]) => user === 2), undefined);
  const badRole = await repo(server, [
    "groups",
    "add-user",
    "-G",
    "lab-a",
    "-u",
    "2",
    "-p",
    "collaborator",
  ]);
  assertEquals(badRole.code, 2);
  const noType = await repo(server, ["groups", "add-user", "-G", "lab-a", "-U", "jdoe"]);
  assertEquals(noType.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  assertStringIncludes(noType.stderr, "-D/--identity-type");
});

Deno.test("groups create/edit/show-info/delete and get-groups with -i/--my_user_id", async () => {
  await using server = await startServer({ users: [{ username: "jdoe" }] });
  await must(server, ["groups", "create", "-i", "mine", "-t", "Mine", "-v", "public"]);
  await using jdoe = managerFor({ ...server, pat: server.users[1]!.pat });
  await jdoe.group({ identifier: "theirs", create: true, visibility: "public" });
  const all = await must(server, ["groups", "get-groups"]);
  assertStringIncludes(all.stdout, "Found 2 group(s)");
  for (const flag of ["-i", "--my_user_id", "--my-user-id"]) {
    const mine = await must(server, ["groups", "get-groups", flag]);
    assertStringIncludes(mine.stdout, "Found 1 group(s)");
    assertStringIncludes(mine.stdout, "identifier: 'mine'");
  }
  const theirs = await must(server, ["groups", "get-groups", "-u", "2", "--json"]);
  assertEquals(JSON.parse(theirs.stdout).map((g: { identifier: string }) => g.identifier), [
    "theirs",
  ]);
  const conflict = await repo(server, ["groups", "get-groups", "-i", "-u", "2"]);
  assertEquals(conflict.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  const edited = await must(server, [
    "groups",
    "edit",
    "-G",
    "mine",
    "-d",
    "Our lab",
    "-t",
    "Ours",
  ]);
  assertStringIncludes(edited.stderr, "Changed the description of the group");
  const info = await must(server, ["groups", "show-info", "-G", "mine", "-d", "-v"]);
  assertStringIncludes(info.stdout, "Group 'Ours'");
  assertStringIncludes(info.stdout, "Description: Our lab\nVisibility: public\n");
  const nothing = await must(server, ["groups", "edit", "-G", "mine"]);
  assertStringIncludes(nothing.stderr, "Nothing to change");
  await must(server, ["groups", "delete", "-G", "mine", "--i-am-sure"]);
  const trash = await must(server, ["misc", "get-deleted-resources"]);
  assertStringIncludes(trash.stdout, "group id: 1, identifier: 'mine'");
  await must(server, ["misc", "restore-resource", "-t", "group", "-i", "1"]);
  await must(server, ["groups", "show-info", "-G", "mine"]);
});

Deno.test("groups get-groups takes the filters with a user, as the reference client does, and warns", async () => {
  await using server = await startServer();
  await must(server, ["groups", "create", "-i", "lab-a", "-v", "public"]);
  const byId = await repo(server, [
    "groups",
    "get-groups",
    "-u",
    "1",
    "-v",
    "public",
    "-n",
    "1",
    "-p",
    "2",
  ]);
  assertEquals(byId.code, 0, byId.stderr);
  assertStringIncludes(
    byId.stderr,
    "-v/--visibility does not apply to the list of a user's groups",
  );
  const byName = await repo(server, [
    "groups",
    "get-groups",
    "-D",
    "local",
    "-U",
    "testuser",
    "-v",
    "private",
  ]);
  assertEquals(byName.code, 0, byName.stderr);
  assertStringIncludes(byName.stdout, "lab-a");
  const quiet = await repo(server, ["groups", "get-groups", "-u", "1"]);
  assertEquals(quiet.code, 0);
  assertEquals(quiet.stderr.includes("does not apply"), false);
  const both = await repo(server, ["groups", "get-groups", "-u", "1", "-i"]);
  assertEquals(both.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  assertStringIncludes(both.stderr, "or the flag '-i'");
});

Deno.test("choices take any case and are passed on, listed and reported in their canonical form", async () => {
  await using server = await startServer();
  const created = await repo(server, [
    "records",
    "create",
    "-i",
    "case-a",
    "-v",
    "PUBLIC",
    "-V",
    "DEBUG",
  ]);
  assertEquals(created.code, 0, created.stderr);
  assertEquals(
    (await (await managerFor(server)).record({ identifier: "case-a" }).then((record) =>
      record.meta()
    )).visibility,
    "public",
  );
  const user = await repo(server, ["users", "show-info", "-U", "testuser", "-D", "LOCAL"]);
  assertEquals(user.code, 0, user.stderr);
  const piped = await repo(server, ["records", "export", "-R", "case-a", "-e", "JSON", "-P"]);
  assertEquals(piped.code, 0, piped.stderr);
  assertEquals(JSON.parse(piped.stdout).identifier, "case-a");
  const wrong = await repo(server, ["records", "create", "-i", "case-b", "-v", "Secret"]);
  assertEquals(wrong.code, 2);
  assertStringIncludes(wrong.stderr, "Allowed choices are private, public.");
  const help = await repo(server, ["records", "create", "--help"]);
  // Help wraps to the width (80 here): the choices may span two lines.
  assertStringIncludes(help.stdout.replace(/\s+/g, " "), '"private", "public"');
});
