import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { managerFor, repo } from "./_records.ts";
import { createdId, must } from "./_resources.ts";

Deno.test("misc restore-resource brings a deleted record back; purge-resource removes it for good", async () => {
  await using server = await startServer();
  const id = await createdId(server, ["records", "create", "-i", "precious"]);
  await must(server, ["records", "delete", "-r", String(id), "--i-am-sure"]);
  assertEquals((await repo(server, ["records", "show-info", "-r", String(id)])).code, 1);
  const trash = await must(server, ["misc", "get-deleted-resources", "--json"]);
  assertEquals(JSON.parse(trash.stdout).map((item: { id: number }) => item.id), [id]);
  const restore = ["misc", "restore-resource", "-t", "record", "-i", String(id)];
  const restored = await must(server, restore);
  assertStringIncludes(
    restored.stderr,
    `Restored the record 'precious' (id: ${id}, identifier: 'precious')`,
  );
  const info = await must(server, ["records", "show-info", "-R", "precious"]);
  assertStringIncludes(info.stdout, "Record 'precious'");
  const notDeleted = await repo(server, restore);
  assertEquals(notDeleted.code, 1);
  await must(server, ["records", "delete", "-R", "precious", "--i-am-sure"]);
  const purged = await must(server, ["misc", "purge-resource", "-t", "record", "-i", String(id)]);
  assertStringIncludes(purged.stderr, `Purged the record with id ${id}`);
  const usage = await repo(server, ["misc", "restore-resource", "-t", "user", "-i", "1"]);
  assertEquals(usage.code, 2);
  const noId = await repo(server, ["misc", "purge-resource", "-t", "record"]);
  assertEquals(noId.code, 2);
});

Deno.test("misc get-licenses, get-roles and get-tags", async () => {
  await using server = await startServer();
  const licenses = await must(server, ["misc", "get-licenses", "-f", "CC-BY"]);
  assertStringIncludes(licenses.stdout, "license(s)");
  assertStringIncludes(licenses.stdout, "CC-BY-4.0: ");
  const roles = await must(server, ["misc", "get-roles", "-t", "template"]);
  assertEquals(
    roles.stdout,
    "Roles of a template:\n  member: read\n  editor: read, update\n" +
      "  admin: read, update, permissions, delete\n",
  );
  const allRoles = JSON.parse((await must(server, ["misc", "get-roles", "--json"])).stdout);
  assertEquals(Object.keys(allRoles).sort(), ["collection", "group", "record", "template"]);
  await must(server, ["records", "create", "-i", "tagged"]);
  await must(server, ["records", "add-tag", "-R", "tagged", "-t", "alpha,beta"]);
  await must(server, ["collections", "create", "-i", "tagged-c"]);
  await must(server, ["collections", "add-tag", "-C", "tagged-c", "-t", "gamma"]);
  const tags = await must(server, ["misc", "get-tags", "-t", "record"]);
  assertStringIncludes(tags.stdout, "Found 2 tag(s)");
  assertStringIncludes(tags.stdout, "  alpha\n  beta\n");
  const filtered = await must(server, ["misc", "get-tags", "-f", "gam", "--json"]);
  assertEquals(JSON.parse(filtered.stdout).map((tag: { name: string }) => tag.name), [
    "gamma",
  ]);
});

Deno.test("records search with an extras filter and tags; get-record-ids with a custom separator", async () => {
  await using server = await startServer();
  await using manager = managerFor(server);
  const ids: number[] = [];
  for (
    const [identifier, temperature, tags] of [["warm", 30, "lab,2026"], ["cold", 5, "lab"], [
      "warm-untagged",
      31,
      "",
    ]] as const
  ) {
    const id = await createdId(server, ["records", "create", "-i", identifier]);
    ids.push(id);
    const record = await manager.record({ id });
    await record.addMetadatum({ key: "temperature", type: "float", value: temperature });
    if (tags !== "") await must(server, ["records", "add-tag", "-r", String(id), "-t", tags]);
  }
  const extras = JSON.stringify([{ key: "temperature", type: "numeric", numeric: { min: 20 } }]);
  const found = await must(server, ["records", "get-records", "--extras", extras, "-t", "lab"]);
  assertStringIncludes(found.stdout, "Found 1 record(s)");
  assertStringIncludes(found.stdout, "identifier: 'warm'");
  const both = await must(server, [
    "records",
    "get-record-ids",
    "--extras",
    extras,
    "-p",
    "-s",
    " | ",
  ]);
  assertEquals(both.stdout.trim().split(" | ").map(Number).sort(), [ids[0]!, ids[2]!].sort());
  const tagged = await must(server, [
    "records",
    "get-record-ids",
    "-t",
    "lab,2026",
    "-T",
    "and",
    "--json",
  ]);
  assertEquals(JSON.parse(tagged.stdout), [ids[0]]);
  const badJson = await repo(server, ["records", "get-records", "--extras", "{nope"]);
  assertEquals(badJson.code, 2);
  assertStringIncludes(badJson.stderr, "--extras is not valid JSON");
});
