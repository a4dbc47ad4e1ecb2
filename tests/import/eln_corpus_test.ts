// importEln() on every file of ../shared/corpus/eln against the local server over real HTTP: what
// the server holds afterwards (record count and titles, tags, extras, files with the SHA-256 of
// their downloaded bytes, links, collection) is compared with tests/import/testdata/
// eln_corpus.json, which was reviewed by hand (docs/imports.md sums it up); every uploaded file
// must also be byte-identical to its archive entry and match the SHA-256 the crate declares.
// Files that are refused must be refused with their reason and leave no active record behind.
import { assert, assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { importEln } from "../../lib/import/mod.ts";
import { RepoApyError } from "../../lib/errors.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { archiveHashes, ELN_CORPUS, serverView } from "./_eln.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

type Expected =
  | { outcome: "refused"; reason: string }
  | {
    outcome: "imported";
    totals: { records: number; files: number; bytes: number; links: number };
    collection: { title: string; records: number } | null;
    records: Awaited<ReturnType<typeof serverView>>["records"];
  };

const EXPECTED: Record<string, Expected> = JSON.parse(
  await Deno.readTextFile(new URL("./testdata/eln_corpus.json", import.meta.url)),
);

async function corpusFiles(dir = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${ELN_CORPUS}${dir}`)) {
    const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await corpusFiles(rel));
    else if (entry.name.endsWith(".eln")) found.push(rel);
  }
  return found.sort();
}

Deno.test("the ELN corpus: every file has an expected outcome", NEEDS_CORPUS, async () => {
  assertEquals(await corpusFiles(), Object.keys(EXPECTED).sort());
});

for (const [file, expected] of Object.entries(EXPECTED)) {
  Deno.test(`importEln() corpus ${file}: ${expected.outcome}`, NEEDS_CORPUS, async () => {
    await using server = await startServer();
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const path = ELN_CORPUS + file;
    if (expected.outcome === "refused") {
      const error = await assertRejects(() => importEln(manager, path), RepoApyError);
      assertStringIncludes((error as Error).message, expected.reason);
      const active = await manager.transport.json<{ items: unknown[] }>("GET", "/records");
      assertEquals(active.items, []);
      return;
    }
    const result = await importEln(manager, path);
    assertEquals(result.totals, expected.totals);
    const view = await serverView(manager, result);
    const records = view.records.map((r) => ({ ...r, description: r.description.slice(0, 60) }));
    assertEquals(view.collection, expected.collection);
    assertEquals(records.map((r) => r.title), expected.records.map((r) => r.title));
    assertEquals(records, expected.records);

    const hashes = await archiveHashes(path);
    const planned = result.plan.records.flatMap((r) => r.files);
    for (const [index, record] of view.records.entries()) {
      for (const uploaded of record.files) {
        const plan = result.plan.records[index]!.files.find((f) => f.name === uploaded.name);
        assert(plan !== undefined, `${uploaded.name} was planned`);
        assertEquals(uploaded.sha256, hashes.get(plan.path), `${plan.path} is byte-identical`);
        if (plan.sha256 !== undefined) assertEquals(uploaded.sha256, plan.sha256);
      }
    }
    assertEquals(view.records.reduce((n, r) => n + r.files.length, 0), planned.length);
  });
}
