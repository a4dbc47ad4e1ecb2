import { assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { repo, tempDir } from "./_records.ts";
import { createdId, must } from "./_resources.ts";

const EXTRAS = JSON.stringify([
  { key: "temperature", type: "float", value: 21.5, unit: "degC" },
  { key: "operator", type: "str", value: null },
]);

Deno.test("templates: created, exported as json-schema and shacl, deleted, in the trash, restored, deleted, purged", async () => {
  await using server = await startServer();
  const id = await createdId(server, [
    "templates",
    "create",
    "-i",
    "sample-extras",
    "-t",
    "Sample extras",
    "-y",
    "extras",
    "-d",
    EXTRAS,
  ]);
  const schema = await must(server, [
    "templates",
    "export",
    "-T",
    "sample-extras",
    "-e",
    "json-schema",
    "-P",
  ]);
  const parsed = JSON.parse(schema.stdout);
  assertEquals(Object.keys(parsed.properties).sort(), ["operator", "temperature"]);
  await using dir = await tempDir();
  const shacl = await must(server, [
    "templates",
    "export",
    "-t",
    String(id),
    "--export_type",
    "shacl",
    "-p",
    dir.path,
  ]);
  assertStringIncludes(shacl.stderr, "as shacl to");
  assertStringIncludes(await Deno.readTextFile(`${dir.path}/sample-extras.ttl`), "sh:");
  const kebab = await must(server, [
    "templates",
    "export",
    "-T",
    "sample-extras",
    "--export-type",
    "json",
    "-p",
    dir.path,
    "-n",
    "plain",
  ]);
  assertStringIncludes(kebab.stderr, "plain.json");
  assertEquals(
    JSON.parse(await Deno.readTextFile(`${dir.path}/plain.json`)).identifier,
    "sample-extras",
  );
  const noPipe = await repo(server, [
    "templates",
    "export",
    "-T",
    "sample-extras",
    "-e",
    "shacl",
    "-P",
  ]);
  assertEquals(noPipe.code, 1); // exit 1 as the Python client: its code wins (issue 31)
  assertStringIncludes(noPipe.stderr, "-P/--pipe only works with the json and json-schema");

  await must(server, ["templates", "delete", "-T", "sample-extras", "--i-am-sure"]);
  const trash = await must(server, ["misc", "get-deleted-resources", "-f", "sample"]);
  assertStringIncludes(trash.stdout, `template id: ${id}, identifier: 'sample-extras'`);
  const restored = await must(server, [
    "misc",
    "restore-resource",
    "-t",
    "template",
    "-i",
    String(id),
  ]);
  assertStringIncludes(restored.stderr, `Restored the template '`);
  assertStringIncludes(restored.stderr, `(id: ${id}, identifier: 'sample-extras')`);
  const back = await must(server, ["templates", "show-info", "-T", "sample-extras"]);
  assertStringIncludes(back.stdout, "Template 'Sample extras'");
  const empty = await must(server, ["misc", "get-deleted-resources", "--json"]);
  assertEquals(JSON.parse(empty.stdout), []);

  await must(server, ["templates", "delete", "-t", String(id), "--i-am-sure"]);
  await must(server, ["misc", "purge-resource", "-t", "template", "-i", String(id)]);
  const gone = await must(server, ["misc", "get-deleted-resources", "--json"]);
  assertEquals(JSON.parse(gone.stdout), []);
  assertEquals((await repo(server, ["templates", "show-info", "-t", String(id)])).code, 1);
});

Deno.test("templates create: record type by default with {} data; bad -d is an error; edit -i is the title", async () => {
  await using server = await startServer();
  await must(server, [
    "templates",
    "create",
    "-i",
    "rec",
    "-d",
    '{"title": "Sample", "tags": ["raw"]}',
  ]);
  const info = await must(server, ["templates", "show-info", "-T", "rec", "-a", "-d", "-v"]);
  assertStringIncludes(info.stdout, "Type: record\n");
  assertStringIncludes(info.stdout, '"title": "Sample"');
  assertStringIncludes(info.stdout, "Visibility: private");
  const bad = await repo(server, ["templates", "create", "-i", "bad", "-d", "{nope"]);
  // Exit 1, as the reference client (its code wins, issue 31).
  assertEquals(bad.code, 1);
  assertStringIncludes(bad.stderr, "-d/--data is not valid JSON");
  const wrongShape = await repo(server, [
    "templates",
    "create",
    "-i",
    "bad",
    "-y",
    "extras",
    "-d",
    "{}",
  ]);
  assertEquals(wrongShape.code, 1);
  assertStringIncludes(wrongShape.stderr, "must be a JSON list");
  const edited = await must(server, [
    "templates",
    "edit",
    "-T",
    "rec",
    "-i",
    "Record template",
    "-d",
    "Use it",
  ]);
  assertStringIncludes(edited.stderr, "Changed the title of the template");
  const json = await must(server, ["templates", "show-info", "-T", "rec", "--json"]);
  const meta = JSON.parse(json.stdout);
  assertEquals([meta.title, meta.description, meta.type], ["Record template", "Use it", "record"]);
  const list = await must(server, ["templates", "get-templates", "-n", "5"]);
  assertStringIncludes(list.stdout, "Found 1 template(s) on 1 page(s)");
  assertStringIncludes(list.stdout, "identifier: 'rec', title: 'Record template'");
  const existed = await must(server, ["templates", "create", "-i", "rec", "-p"]);
  assertEquals(existed.stdout.trim(), String(meta.id));
});

Deno.test("templates roles: a second user and a group get, change and lose roles", async () => {
  await using server = await startServer({ users: [{ username: "jdoe" }] });
  await must(server, ["templates", "create", "-i", "shared-t"]);
  await must(server, ["groups", "create", "-i", "lab"]);
  const added = await must(server, ["templates", "add-user", "-T", "shared-t", "-u", "2"]);
  assertStringIncludes(added.stderr, "the role 'member'");
  const changed = await must(server, [
    "templates",
    "add-user",
    "-T",
    "shared-t",
    "-u",
    "2",
    "-p",
    "editor",
  ]);
  assertStringIncludes(changed.stderr, "to 'editor'");
  assertEquals(
    (await repo(server, [
      "templates",
      "add-user",
      "-T",
      "shared-t",
      "-u",
      "2",
      "-p",
      "collaborator",
    ])).code,
    2,
  );
  await must(server, ["templates", "remove-user", "-T", "shared-t", "-u", "2"]);
  await must(server, ["templates", "add-group-role", "-T", "shared-t", "-G", "lab", "-p", "admin"]);
  const group = await must(server, ["groups", "show-info", "-G", "lab"]);
  assertStringIncludes(group.stdout, "Group 'lab'");
  await must(server, ["templates", "remove-group-role", "-T", "shared-t", "-G", "lab"]);
});
