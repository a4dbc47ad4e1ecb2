// Round trip: records exported as `ro-crate` by the local server and imported again with
// importEln() have the same metadata (title, description, license, type, extras), tags, files
// (byte-identical) and links.
import { assertEquals, assertStringIncludes } from "../_assert.ts";
import type { Extra } from "../../lib/http/protocol.ts";
import { type ElnProgress, formatElnPlan, importEln } from "../../lib/import/mod.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { serverView, tempEln, zipBytes } from "./_eln.ts";

const EXTRAS: Extra[] = [
  { key: "sample", type: "str", value: "A-17" },
  { key: "mass", type: "float", value: 3.5, unit: "g" },
  { key: "count", type: "int", value: 4 },
  { key: "ok", type: "bool", value: true },
  { key: "when", type: "date", value: "2024-05-01T10:20:30+00:00" },
  {
    key: "setup",
    type: "dict",
    value: [
      {
        key: "steps",
        type: "list",
        value: [{ type: "int", value: 1 }, { type: "str", value: "x" }],
      },
    ],
  },
];

async function sourceRecords(manager: RepoManager) {
  const a = await manager.record({
    identifier: "round-a",
    create: true,
    title: "Round trip A",
    description: "First *record*",
    tags: ["alpha", "beta"],
    license: "CC-BY-4.0",
    type: "sample",
    extras: EXTRAS,
  });
  await a.uploadString("a,b\n1,2\n", "table.csv", { mimetype: "text/csv" });
  const binary = new Uint8Array(100_000).map((_, i) => (i * 7919 + (i >> 8)) & 255);
  const path = await Deno.makeTempFile();
  await Deno.writeFile(path, binary);
  await a.uploadFile(path, { fileName: "raw.bin" });
  await Deno.remove(path);
  const b = await manager.record({ identifier: "round-b", create: true, title: "Round trip B" });
  await b.uploadString("b", "b.txt");
  await a.linkRecord(b.id, "derived from", { termIri: "https://example.org/derivedFrom" });
  return { a, b };
}

Deno.test("importEln() of a record's ro-crate export gives the same record", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const { a } = await sourceRecords(manager);
  const dir = await Deno.makeTempDir();
  try {
    const path = await a.export(dir, "ro-crate");
    const dry = await importEln(manager, path, { dryRun: true });
    assertEquals(dry.plan.repositoryExport, true);
    assertEquals(dry.plan.records[0]!.files.map((f) => f.name).sort(), ["raw.bin", "table.csv"]);
    assertStringIncludes(formatElnPlan(dry.plan).join("\n"), "file 'raw.bin' (100000 bytes");
    const result = await importEln(manager, path);
    assertEquals(result.collection, undefined);
    const [copy] = (await serverView(manager, result)).records;
    const [original] = (await serverView(manager, {
      ...result,
      records: [{ key: "", id: a.id, identifier: "round-a", title: "" }],
    })).records;
    // The link's target is not in a one-record crate: it is not re-created.
    assertEquals(copy, { ...original!, links: [] });
    const meta = await (await manager.record({ id: result.records[0]!.id })).refresh();
    assertEquals(meta.extras, (await a.refresh()).extras);
    assertEquals(meta.identifier, "round-trip-a");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importEln() of a collection's ro-crate export re-creates records, files and links", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const { a, b } = await sourceRecords(manager);
  const collection = await manager.collection({
    identifier: "round",
    create: true,
    title: "Round trip",
  });
  await collection.addRecordLink(a.id);
  await collection.addRecordLink(b.id);
  const dir = await Deno.makeTempDir();
  try {
    const path = await collection.export(dir, "ro-crate");
    const progress: ElnProgress[] = [];
    const result = await importEln(manager, path, { onProgress: (p) => progress.push(p) });
    assertEquals(
      new Set(progress.map((p) => p.phase)),
      new Set(["collection", "record", "file", "link"]),
    );
    assertEquals(progress.at(-1), {
      phase: "link",
      name: "derived from",
      records: 2,
      files: 3,
      bytes: 100_009,
      links: 1,
      totals: result.totals,
    });
    assertEquals(progress.every((p, i) => i === 0 || p.bytes >= progress[i - 1]!.bytes), true);
    assertEquals(result.totals, { records: 2, files: 3, bytes: 100_000 + 8 + 1, links: 1 });
    const copies = await serverView(manager, result);
    const originals = await serverView(manager, {
      ...result,
      collection: undefined,
      records: result.records.map((r) => ({ ...r, id: r.title === "Round trip A" ? a.id : b.id })),
    });
    assertEquals(copies.records, originals.records);
    assertEquals(copies.collection, { title: "Round trip", records: 2 });
    const link = copies.records.find((r) => r.title === "Round trip A")!.links[0];
    assertEquals(link, { name: "derived from", to: "Round trip B" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importEln() of a collection's ro-crate export without records creates the collection", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const empty = await manager.collection({
    identifier: "empty",
    create: true,
    title: "Empty one",
    description: "Nothing yet",
  });
  const dir = await Deno.makeTempDir();
  try {
    const path = await empty.export(dir, "ro-crate");
    const planned = await importEln(manager, path, { dryRun: true });
    assertEquals(planned.plan.collection?.title, "Empty one");
    const result = await importEln(manager, path);
    assertEquals(result.records, []);
    assertEquals(result.totals, { records: 0, files: 0, bytes: 0, links: 0 });
    assertEquals(result.collection?.identifier, "empty-one");
    const copy = await manager.collection({ id: result.collection!.id });
    assertEquals((await copy.meta()).title, "Empty one");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("importEln() lets the server detect a file's MIME type instead of the crate's alias (issue 31)", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const gz = new Uint8Array([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 3, 0]);
  const metadata = {
    "@context": "https://w3id.org/ro/crate/1.1/context",
    "@graph": [
      { "@id": "ro-crate-metadata.json", "@type": "CreativeWork", about: { "@id": "./" } },
      { "@id": "./", "@type": "Dataset", hasPart: [{ "@id": "./exp/" }] },
      {
        "@id": "./exp/",
        "@type": "Dataset",
        name: "Typed files",
        hasPart: [{ "@id": "./exp/plot.png" }, { "@id": "./exp/raw.gz" }],
      },
      { "@id": "./exp/plot.png", "@type": "File", name: "plot.png", encodingFormat: "image/x-png" },
      {
        "@id": "./exp/raw.gz",
        "@type": "File",
        name: "raw.gz",
        encodingFormat: "application/octet-stream",
      },
    ],
  };
  const path = await tempEln(
    await zipBytes([
      { name: "crate/ro-crate-metadata.json", content: JSON.stringify(metadata) },
      { name: "crate/exp/plot.png", content: png },
      { name: "crate/exp/raw.gz", content: gz },
    ]),
  );
  try {
    const result = await importEln(manager, path);
    const record = await manager.record({ id: result.records[0]!.id });
    const types = new Map<string, string | undefined>();
    for await (const file of record.files()) types.set(file.name, file.mimetype);
    assertEquals(Object.fromEntries(types), {
      "plot.png": "image/png",
      "raw.gz": "application/gzip",
    });
  } finally {
    await Deno.remove(path);
  }
});
