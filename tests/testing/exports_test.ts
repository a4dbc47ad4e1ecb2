// Tests of the local server's export endpoints.
import { BlobReader, TextWriter, ZipReader } from "@zip.js/zip.js";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { call, createRecord } from "./_helpers.ts";

async function fetchExport(server: TestServer, path: string) {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    headers: { Authorization: `Bearer ${server.pat}` },
  });
  return { response, blob: await response.blob() };
}

async function setup(server: TestServer) {
  const record = await createRecord(server, "exp", {
    extras: [
      { key: "a", type: "int", value: 1 },
      { key: "n", type: "dict", value: [{ key: "b", type: "str", value: "x" }] },
    ],
  });
  const other = await createRecord(server, "other");
  await call(server, "POST", `/records/${record.id}/records`, {
    body: { name: "rel", record_to: { id: other.id } },
  });
  const upload = await call(server, "POST", `/records/${record.id}/uploads`, {
    body: { name: "data.txt", size: 4 },
  });
  await call(server, "PUT", upload.body._actions.upload_data, { raw: "data" });
  return record;
}

Deno.test("record exports have the right content types and file names; unknown type is 404", async () => {
  await using server = await startServer();
  const record = await setup(server);
  const expected: Record<string, [string, string]> = {
    json: ["application/json", "exp.json"],
    rdf: ["text/turtle", "exp.ttl"],
    pdf: ["application/pdf", "exp.pdf"],
    qr: ["image/png", "exp.png"],
    "ro-crate": ["application/zip", "exp.eln"],
  };
  for (const [type, [contentType, name]] of Object.entries(expected)) {
    const { response, blob } = await fetchExport(server, `/records/${record.id}/export/${type}`);
    assertEquals(response.status, 200);
    assertEquals(response.headers.get("content-type"), contentType);
    assertEquals(response.headers.get("content-disposition"), `attachment; filename=${name}`);
    assertEquals(response.headers.get("content-length"), String(blob.size));
  }
  const { response } = await fetchExport(server, `/records/${record.id}/export/xml`);
  assertEquals(response.status, 404);
});

Deno.test("record JSON export carries files and links and honours the filter", async () => {
  await using server = await startServer();
  const record = await setup(server);
  const full = await call(server, "GET", `/records/${record.id}/export/json`);
  assertEquals(full.body.files[0].name, "data.txt");
  assertEquals(full.body.links[0].name, "rel");
  assertEquals(full.body.creator, { id: 1, displayname: "Test User", orcid: null });
  for (const key of ["_links", "_actions", "visibility", "state", "plain_description"]) {
    assertEquals(key in full.body, false);
  }
  const filter = encodeURIComponent(JSON.stringify({ user: true, links: true, extras: { a: {} } }));
  const filtered = await call(server, "GET", `/records/${record.id}/export/json?filter=${filter}`);
  assertEquals("creator" in filtered.body, false);
  assertEquals(filtered.body.links, []);
  assertEquals(filtered.body.extras.map((e: { key: string }) => e.key), ["n"]);
  const plain = encodeURIComponent(JSON.stringify({ format: "plain" }));
  const extras = await call(
    server,
    "GET",
    `/records/${record.id}/extras/export/json?filter=${plain}`,
  );
  assertEquals(extras.body, { a: 1, n: { b: "x" } });
  assertEquals(extras.headers.get("content-disposition"), "attachment; filename=exp-extras.json");
});

Deno.test("record RO-Crate export is a valid ZIP with metadata, JSON export and files", async () => {
  await using server = await startServer();
  const record = await setup(server);
  const { blob } = await fetchExport(server, `/records/${record.id}/export/ro-crate`);
  const reader = new ZipReader(new BlobReader(blob));
  const files: Record<string, string> = {};
  for (const entry of await reader.getEntries()) {
    if (!entry.directory) files[entry.filename] = await entry.getData(new TextWriter());
  }
  await reader.close();
  // The real server's layout: a record's files in a files/ folder beside its JSON and Turtle.
  assertEquals(Object.keys(files).sort(), [
    "exp/exp/exp.json",
    "exp/exp/exp.ttl",
    "exp/exp/files/data.txt",
    "exp/ro-crate-metadata.json",
  ]);
  assertEquals(files["exp/exp/files/data.txt"], "data");
  const metadata = JSON.parse(files["exp/ro-crate-metadata.json"]!);
  const graph = metadata["@graph"] as { "@id": string; name?: string }[];
  assert(graph.some((e) => e["@id"] === "./" && e.name === "exp"));
  assert(graph.some((e) => e.name === "Kadi4Mat"));
  assertStringIncludes(files["exp/exp/exp.ttl"]!, '"exp"');
  const only = encodeURIComponent(JSON.stringify({ metadata_only: true }));
  const { response } = await fetchExport(
    server,
    `/records/${record.id}/export/ro-crate?filter=${only}`,
  );
  assertEquals(response.headers.get("content-disposition"), "attachment; filename=exp.jsonld");
});

Deno.test("collection exports include the collection's records", async () => {
  await using server = await startServer();
  const record = await setup(server);
  const collection = await call(server, "POST", "/collections", {
    body: { identifier: "col", title: "Col" },
  });
  await call(server, "POST", `/collections/${collection.body.id}/records`, {
    body: { id: record.id },
  });
  const json = await call(server, "GET", `/collections/${collection.body.id}/export/json`);
  assertEquals(json.body.records[0].identifier, "exp");
  const { response } = await fetchExport(server, `/collections/${collection.body.id}/export/pdf`);
  assertEquals(response.status, 404);
});
