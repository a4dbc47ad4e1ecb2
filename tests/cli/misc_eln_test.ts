// `misc import-eln` in-process against the local server: the dry run prints the plan and sends
// nothing; the import prints the summary; a refused archive is one line on stderr and exit 1.
import { assertEquals, assertNotIncludes, assertStringIncludes } from "../_assert.ts";
import { startServer } from "../../lib/testing/mod.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { ELN_CORPUS, simpleCrate, tempEln, zipBytes } from "../import/_eln.ts";
import { repo } from "./_records.ts";
import { runCli, spawnCli, tempHome, writeLocalConfig } from "./_run.ts";
import { NEEDS_CORPUS } from "../_platform.ts";

const SAMPLEDB = `${ELN_CORPUS}SampleDB/sampledb_export.eln`;

Deno.test(
  "misc import-eln --dry-run prints records, files with sizes, links and sends nothing",
  NEEDS_CORPUS,
  async () => {
    await using server = await startServer();
    const run = await repo(server, ["misc", "import-eln", "-p", SAMPLEDB, "--dry-run"]);
    assertEquals(run.code, 0, run.stderr);
    assertStringIncludes(run.stdout, "Collection 'SampleDB .eln export'");
    assertStringIncludes(run.stdout, "Record 'Measurement' (tags: example_tag, other_tag, tag3;");
    assertStringIncludes(run.stdout, "file 'example.txt' (");
    assertStringIncludes(run.stdout, "bytes, SHA-256 verified)");
    assertStringIncludes(run.stdout, "Link 'Measurement' -> 'OMBE-1' (mentions)");
    assertStringIncludes(run.stdout, "Would import 2 records, 8 files (23837 bytes), 1 link");
    assertEquals(server.log.length, 0);
  },
);

Deno.test("misc import-eln imports and prints the summary line", NEEDS_CORPUS, async () => {
  await using server = await startServer();
  const run = await repo(server, ["misc", "import-eln", "--path", SAMPLEDB]);
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stderr, "Imported 2 records, 8 files (23837 bytes), 1 link");
  assertStringIncludes(run.stderr, "into the collection 'sampledb-eln-export'");
});

Deno.test("misc import-eln refuses a hostile archive with one line and exit 1", async () => {
  await using server = await startServer();
  const path = await tempEln(
    await zipBytes([...simpleCrate(), { name: "crate/../evil", content: "x" }]),
  );
  try {
    const run = await repo(server, ["misc", "import-eln", "-p", path]);
    assertEquals(run.code, 1);
    assertStringIncludes(run.stderr, 'The archive is refused: the entry "crate/../evil"');
    assertEquals(run.stderr.trim().split("\n").length, 1);
    assertNotIncludes(run.stderr, "    at ");
    assertEquals(server.log.length, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("misc import-eln without -p is a usage error", async () => {
  await using server = await startServer();
  const run = await repo(server, ["misc", "import-eln"]);
  assertEquals(run.code, 2);
});

Deno.test("misc import-eln --dry-run reads every declared SHA-256 and refuses a mismatch", async () => {
  await using server = await startServer();
  const path = await tempEln(await zipBytes(simpleCrate("crate", { sha256: "0".repeat(64) })));
  try {
    const run = await repo(server, ["misc", "import-eln", "-p", path, "--dry-run"]);
    assertEquals(run.code, 1, run.stdout);
    assertStringIncludes(run.stderr, "SHA-256 checksum mismatch for 'exp/data.txt'");
    assertNotIncludes(run.stdout, "verified");
    assertEquals(server.log.length, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("misc import-eln --dry-run needs no config file (it sends nothing)", async () => {
  await using home = await tempHome();
  const path = `${home.dir}/crate.eln`;
  await Deno.writeFile(path, await zipBytes(simpleCrate()));
  const run = await runCli(home.dir, ["misc", "import-eln", "-p", path, "--dry-run"]);
  assertEquals(run.code, 0, run.stderr);
  assertStringIncludes(run.stdout, "file 'data.txt' (5 bytes, SHA-256 verified)");
  assertStringIncludes(run.stdout, "Would import 1 record, 1 file (5 bytes), 0 links");
  // Without --dry-run the missing config is still the error.
  const real = await runCli(home.dir, ["misc", "import-eln", "-p", path]);
  assertEquals(real.code, 1);
});

for (const interrupt of ["SIGINT", "SIGTERM"] as const) {
  Deno.test(`misc import-eln: ${interrupt} deletes and purges what the run created, exits 130; the rerun imports once with the same identifiers`, async () => {
    await using server = await startServer();
    await using home = await tempHome();
    await writeLocalConfig(home.configPath, server.url, server.pat);
    const path = `${home.dir}/crate.eln`;
    await Deno.writeFile(path, await zipBytes(simpleCrate()));
    // The upload of the record's file hangs a while: the record exists when the interrupt comes.
    server.addFault({ path: /\/uploads/, delayMs: 3000, times: 1 });
    const args = ["misc", "import-eln", "-p", path];
    const child = spawnCli(home.dir, args);
    for (let i = 0; i < 1500 && !server.log.some((entry) => entry.path.includes("/uploads")); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill(interrupt);
    const { code, stderr } = await child.output();
    const text = new TextDecoder().decode(stderr);
    assertEquals(code, 130, text);
    assertStringIncludes(
      text,
      "Interrupted: what this import had created (1 resource(s)) was deleted for good; run the " +
        "same command again to import the archive",
    );
    await using manager = new RepoManager({ host: server.url, pat: server.pat });
    const active = async () =>
      (await manager.transport.json<{ items: { title: string }[] }>("GET", "/records")).items;
    assertEquals(await active(), []);
    // Purged, not left in the trash: the rerun's record gets the original identifier (issue 31).
    assertEquals((await manager.misc.getDeletedResources()).items.length, 0);
    server.clearFaults();
    const rerun = await runCli(home.dir, args);
    assertEquals(rerun.code, 0, rerun.stderr);
    assertEquals((await active()).map((record) => record.title), ["Experiment"]);
    const [record] = (await manager.transport.json<{ items: { identifier: string }[] }>(
      "GET",
      "/records",
    )).items;
    assertEquals(record?.identifier, "experiment");
  });
}
