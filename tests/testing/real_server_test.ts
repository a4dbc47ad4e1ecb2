// The local server's behaviour where the real Kadi4Mat 1.13.0 showed it differed from our notes
// (scripts/real_server/diff.ts found each; docs/real-server.md lists them).
import { assert, assertEquals } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { BlobReader, ZipReader } from "@zip.js/zip.js";
import { call, createRecord } from "./_helpers.ts";

const encoder = new TextEncoder();

Deno.test("real server: a body id naming nothing active is a 400 validation error, not a 404", async () => {
  await using server = await startServer({ users: [{ username: "bob" }] });
  const record = await createRecord(server, "ref");
  const collection = await call(server, "POST", "/collections", {
    body: { identifier: "ref-c", title: "C" },
  });
  const cases: [string, unknown, unknown][] = [
    [`/records/${record.id}/records`, { name: "x", record_to: { id: 999 } }, {
      record_to: { id: ["No record with this ID exists."] },
    }],
    [`/collections/${collection.body.id}/records`, { id: 999 }, {
      id: ["No record with this ID exists."],
    }],
    [`/collections/${collection.body.id}/collections`, { id: 999 }, {
      id: ["No collection with this ID exists."],
    }],
    [`/records/${record.id}/collections`, { id: 999 }, {
      id: ["No collection with this ID exists."],
    }],
    [`/records/${record.id}/roles/users`, { user: { id: 999 }, role: { name: "member" } }, {
      user: { id: ["No user with this ID exists."] },
    }],
    [`/records/${record.id}/roles/groups`, { group: { id: 999 }, role: { name: "member" } }, {
      group: { id: ["No group with this ID exists."] },
    }],
  ];
  for (const [path, body, errors] of cases) {
    const answer = await call(server, "POST", path, { body });
    assertEquals([path, answer.status, answer.body.errors], [path, 400, errors]);
    assertEquals(answer.body.message, "Bad Request");
  }
});

Deno.test("real server: role names are trimmed and lower-cased; an unknown one is a plain 400", async () => {
  await using server = await startServer({ users: [{ username: "bob" }] });
  const record = await createRecord(server, "roles");
  const roles = `/records/${record.id}/roles/users`;
  const unknown = await call(server, "POST", roles, {
    body: { user: { id: 2 }, role: { name: "nope" } },
  });
  assertEquals(unknown.status, 400);
  assertEquals(unknown.body.description, "A role with that name does not exist.");
  assertEquals("errors" in unknown.body, false);
  const missing = await call(server, "POST", roles, { body: { user: { id: 2 } } });
  assertEquals(missing.body.errors, { role: ["Missing data for required field."] });
  const added = await call(server, "POST", roles, {
    body: { user: { id: 2 }, role: { name: " Member " } },
  });
  assertEquals(added.status, 201);
  const again = await call(server, "POST", roles, {
    body: { user: { id: 2 }, role: { name: "nope" } },
  });
  assertEquals([again.status, again.body.description], [
    409,
    "A role for that resource already exists.",
  ]);
  const change = await call(server, "PATCH", `${roles}/2`, { body: { name: "nope" } });
  assertEquals([change.status, change.body.description], [
    400,
    "A role with that name does not exist.",
  ]);
  const none = await call(server, "PATCH", `${roles}/99`, { body: { name: "nope" } });
  assertEquals([none.status, none.body.description], [404, "Role does not exist."]);
});

Deno.test("real server: uploads without description or MIME type say null; the file's type is guessed from its name", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "mime");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "notes.txt", size: 5 },
  });
  assertEquals([upload.body.description, upload.body.mimetype], [null, null]);
  const file = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: encoder.encode("hello"),
  });
  assertEquals(file.status, 201);
  assertEquals([file.body.mimetype, file.body.description], ["text/plain", ""]);
  const download = await fetch(file.body._links.download, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  await download.body?.cancel();
  assertEquals(download.headers.get("content-type")?.split(";")[0], "text/plain");
  // No guess from the name: the sniffed type.
  const other = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "blob.unknownext", size: 4 },
  });
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  const stored = await call(server, "PUT", other.body._actions.upload_data, { raw: png });
  assertEquals(stored.body.mimetype, stored.body.magic_mimetype);
});

Deno.test("real server: chunk sizes are checked with the server's texts; the last chunk may be any size", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "chunks");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "big.bin", size: 60_000_000 },
  });
  const url = upload.body._actions.upload_data;
  const put = (index: number, size: number) =>
    call(server, "PUT", url, {
      raw: new Uint8Array(size),
      headers: { "Kadi-Chunk-Index": String(index), "Kadi-Chunk-Size": String(size) },
    });
  const last = await put(5, 10);
  assertEquals(last.status, 200);
  assertEquals(last.body.chunks.map((c: { index: number }) => c.index), [5]);
  const small = await put(0, 10);
  assertEquals(small.body.errors, {
    size: ["Only the last chunk may be smaller than the chunk size (10 MB)."],
  });
  const big = await call(server, "PUT", url, {
    raw: new Uint8Array(1),
    headers: { "Kadi-Chunk-Index": "0", "Kadi-Chunk-Size": "10000001" },
  });
  assertEquals(big.body.errors, { size: ["Chunk size (10 MB) exceeded."] });
});

Deno.test("real server: 204 answers are labelled application/json", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "gone");
  const response = await fetch(`${server.url}/api/v1/records/${record.id}`, {
    method: "DELETE",
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  assertEquals(response.status, 204);
  assertEquals(response.headers.get("content-type"), "application/json");
  assertEquals(await response.text(), "");
});

Deno.test("real server: JSON keys come sorted, in answers and in export files", async () => {
  await using server = await startServer();
  const response = await fetch(`${server.url}/api/v1/records`, {
    method: "POST",
    headers: { Authorization: `Bearer ${server.pat}` },
    body: JSON.stringify({
      identifier: "sorted",
      title: "S",
      extras: [{ type: "float", key: "v", value: 1.5, unit: "V" }],
    }),
  });
  const text = await response.text();
  assert(text.startsWith('{"_actions":'), text.slice(0, 40));
  assert(text.includes('{"key":"v","type":"float","unit":"V","value":1.5}'), text);
  const id = JSON.parse(text).id;
  const exported = await fetch(`${server.url}/api/v1/records/${id}/export/json`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  const lines = (await exported.text()).split("\n");
  assertEquals(lines[1], '  "created_at": ' + JSON.stringify(JSON.parse(text).created_at) + ",");
});

Deno.test("real server: revisions list links as objects; exported links carry the record as exported", async () => {
  await using server = await startServer();
  const a = await createRecord(server, "rev-a");
  const b = await createRecord(server, "rev-b");
  await call(server, "POST", `/records/${a.id}/records`, {
    body: { name: "uses", record_to: { id: b.id } },
  });
  const revisions = await call(server, "GET", `/records/${a.id}/revisions`);
  const data = revisions.body.items[0].data;
  assertEquals(data.links_to.length, 1);
  assertEquals(Object.keys(data.links_to[0]).sort(), ["id", "name", "record_to_id", "term"]);
  assertEquals([data.links_to[0].name, data.links_to[0].record_to_id], ["uses", b.id]);
  const exported = await call(server, "GET", `/records/${a.id}/export/json`);
  const to = exported.body.links[0].record_to;
  assertEquals(Object.keys(to.creator).sort(), ["displayname", "id", "orcid"]);
  for (const key of ["state", "visibility", "plain_description", "_links", "_actions"]) {
    assertEquals(key in to, false, key);
  }
});

Deno.test("real server: other users' identities hide the email address", async () => {
  await using server = await startServer({ users: [{ username: "bob" }] });
  const bob = await call(server, "GET", "/users/2");
  assertEquals(Object.keys(bob.body.identity).sort(), ["type", "username"]);
  const me = await call(server, "GET", "/users/me");
  assertEquals(Object.keys(me.body.identity).sort(), [
    "email",
    "email_confirmed",
    "type",
    "username",
  ]);
});

Deno.test("real server: RO-Crate keeps files in files/ and dates its metadata descriptor", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "crate");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 1 },
  });
  await call(server, "PUT", upload.body._actions.upload_data, { raw: encoder.encode("a") });
  const response = await fetch(`${server.url}/api/v1/records/${record.id}/export/ro-crate`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  const reader = new ZipReader(new BlobReader(await response.blob()));
  const names = (await reader.getEntries()).map((e) => e.filename).sort();
  await reader.close();
  assertEquals(names.includes("crate/crate/files/a.txt"), true, names.join(","));
  const only = encodeURIComponent(JSON.stringify({ metadata_only: true }));
  const meta = await call(server, "GET", `/records/${record.id}/export/ro-crate?filter=${only}`);
  const descriptor = meta.body["@graph"][0];
  assertEquals(descriptor["@id"], "ro-crate-metadata.json");
  assertEquals(descriptor.version, "1.13.0");
  assert(!Number.isNaN(Date.parse(descriptor.dateCreated)));
  const file = meta.body["@graph"].find((e: { name?: string }) => e.name === "a.txt");
  assertEquals(file["@id"], "./crate/files/a.txt");
});

Deno.test("real server: a replacement upload shows its null checksum, a new one none", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "replace");
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "a.txt", size: 1 },
  });
  assertEquals("checksum" in upload.body, false);
  const file = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: encoder.encode("a"),
  });
  const replacement = await call(server, "PUT", file.body._actions.edit_data, {
    body: { size: 2 },
  });
  assertEquals(replacement.status, 201);
  assertEquals(replacement.body.checksum, null);
});

Deno.test("real server: the plain extras export writes whole floats as floats", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "plain", {
    extras: [
      { key: "whole", type: "float", value: 3 },
      { key: "count", type: "int", value: 7 },
      { key: "list", type: "list", value: [{ type: "float", value: 1e21 }] },
    ],
  });
  const plain = encodeURIComponent(JSON.stringify({ format: "plain" }));
  const response = await fetch(
    `${server.url}/api/v1/records/${record.id}/extras/export/json?filter=${plain}`,
    { headers: { Authorization: `Bearer ${server.pat}` } },
  );
  // Kadi 1.13.0 answers `{"count": 7, "list": [1e+21], "whole": 3.0}`, indented by 2.
  const text = await response.text();
  assert(text.includes('"whole": 3.0'), text);
  assert(text.includes('"count": 7,'), text);
  assertEquals(JSON.parse(text), { count: 7, list: [1e21], whole: 3 });
});

Deno.test("real server: RO-Crate metadata describes authors, descriptions, licenses and extras as entities", async () => {
  await using server = await startServer();
  const record = await createRecord(server, "ent", {
    description: "Some *markdown*",
    license: "CC-BY-4.0",
    tags: ["a", "b"],
    extras: [
      {
        key: "v",
        type: "float",
        value: 3,
        unit: "V",
        validation: { range: { min: 0, max: 10 } },
      },
      { key: "empty", type: "str", value: null },
      { key: "d", type: "dict", value: [{ key: "n", type: "int", value: 2 }] },
    ],
  });
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "raw/deep/x.txt", size: 1, description: "A *file*" },
  });
  const file = await call(server, "PUT", upload.body._actions.upload_data, {
    raw: encoder.encode("x"),
  });
  const only = encodeURIComponent(JSON.stringify({ metadata_only: true }));
  const response = await fetch(
    `${server.url}/api/v1/records/${record.id}/export/ro-crate?filter=${only}`,
    { headers: { Authorization: `Bearer ${server.pat}` } },
  );
  const text = await response.text();
  const graph = JSON.parse(text)["@graph"] as Record<string, unknown>[];
  const at = (index: number) => graph[index]!;
  const byId = (id: string) => graph.find((e) => e["@id"] === id);
  const origin = new URL(server.url).origin;
  // What Kadi 1.13.0 sent for the same record (diff.ts compares them entity by entity).
  assertEquals(graph.map((e) => e["@type"]), [
    "CreativeWork", // the descriptor
    "Dataset", // the root
    "Organization", // the publisher
    "TextObject", // the record's description
    "Person", // its author (once, though the file has the same)
    "CreativeWork", // its license
    "PropertyValue",
    "PropertyValue", // d.n (nested keys dotted; the empty extra has none)
    "Dataset", // the record
    "File",
    "File", // its json and ttl exports
    "TextObject", // the file's description
    "File",
  ]);
  assertEquals(at(0).sdPublisher, { "@id": "https://kadi.iam.kit.edu" });
  assertEquals(Object.keys(at(1)).sort(), [
    "@id",
    "@type",
    "datePublished",
    "description",
    "genre",
    "hasPart",
    "license",
    "name",
  ]);
  assertEquals(at(2)["@id"], "https://kadi.iam.kit.edu");
  const dataset = byId("./ent/")!;
  assertEquals(dataset.description, { "@id": `${origin}/records/${record.id}#description` });
  assertEquals(byId(`${origin}/records/${record.id}#description`)!.text, "Some *markdown*");
  assertEquals(dataset.author, { "@id": `${origin}/users/${record.creator!.id}` });
  assertEquals(dataset.license, { "@id": "https://creativecommons.org/licenses/by/4.0/" });
  assertEquals(dataset.keywords, "a, b");
  assertEquals(at(5).identifier, "CC-BY-4.0");
  assertEquals(dataset.variableMeasured, [
    { "@id": `${origin}/records/${record.id}#extras-v` },
    { "@id": `${origin}/records/${record.id}#extras-d.n` },
  ]);
  assertEquals(at(6).unitText, "V");
  assertEquals([at(6).minValue, at(6).maxValue, at(7).propertyID], [0, 10, "d.n"]);
  assert(/"propertyID": "v",\s*"unitText": "V",\s*"value": 3\.0/.test(text), text);
  assert(/"maxValue": 10\.0,\s*"minValue": 0\.0/.test(text), text);
  const exported = byId("./ent/ent.json")!;
  assertEquals(Object.keys(exported).sort(), [
    "@id",
    "@type",
    "contentSize",
    "dateCreated",
    "encodingFormat",
    "name",
  ]);
  // A '/' in a file name becomes '_' in the crate, in its id and in the ZIP.
  const entity = byId("./ent/files/raw_deep_x.txt")!;
  assertEquals(entity.name, "raw/deep/x.txt");
  assertEquals(entity.identifier, file.body.id);
  assertEquals(entity.author, dataset.author);
  assertEquals(
    byId(`${origin}/records/${record.id}/files/${file.body.id}#description`)!.text,
    "A *file*",
  );
  const zip = await fetch(`${server.url}/api/v1/records/${record.id}/export/ro-crate`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  const reader = new ZipReader(new BlobReader(await zip.blob()));
  const names = (await reader.getEntries()).map((e) => e.filename).sort();
  await reader.close();
  assertEquals(names, [
    "ent/ent/ent.json",
    "ent/ent/ent.ttl",
    "ent/ent/files/raw_deep_x.txt",
    "ent/ro-crate-metadata.json",
  ]);
});
