// Hostile archives against importEln(): each is refused before anything is sent to the server
// (no request at all, nothing in the trash), a wrong checksum too (found by the pre-pass that
// hashes every file with a declared SHA-256); an abort rolls back what the import had created
// (nothing active is left; the trash holds it).
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/http/errors.ts";
import { ElnImportError, importEln } from "../../lib/import/mod.ts";
import { RepoManager } from "../../lib/manager/repo_manager.ts";
import { startServer, type TestServer } from "../../lib/testing/mod.ts";
import { sha256Hex, simpleCrate, tempEln, type TestEntry, zipBytes } from "./_eln.ts";

async function assertRefused(
  bytes: Uint8Array<ArrayBuffer>,
  reason: string,
  options: Parameters<typeof importEln>[2] = {},
) {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const path = await tempEln(bytes);
  try {
    const error = await assertRejects(() => importEln(manager, path, options), InputError);
    assertStringIncludes(error.message, reason);
    assertEquals(server.log.length, 0, "nothing was sent");
    await assertNothingLeft(server, manager, 0);
  } finally {
    await Deno.remove(path);
  }
}

/** No active record or collection; `trashed` items in the trash. */
async function assertNothingLeft(server: TestServer, manager: RepoManager, trashed: number) {
  assertEquals((await manager.transport.json<{ items: unknown[] }>("GET", "/records")).items, []);
  assertEquals(
    (await manager.transport.json<{ items: unknown[] }>("GET", "/collections")).items,
    [],
  );
  assertEquals((await manager.misc.getDeletedResources()).items.length, trashed);
  void server;
}

const METADATA = simpleCrate()[0]!;

Deno.test("importEln() refuses zip-slip ('..') entries", async () => {
  await assertRefused(
    await zipBytes([...simpleCrate(), { name: "crate/../evil.txt", content: "x" }]),
    "points outside the root",
  );
});

Deno.test("importEln() refuses an absolute entry path", async () => {
  await assertRefused(
    await zipBytes([...simpleCrate(), { name: "/crate/evil.txt", content: "x" }]),
    "absolute path",
  );
});

Deno.test("importEln() refuses backslashes and drive letters", async () => {
  await assertRefused(
    await zipBytes([...simpleCrate(), { name: "crate\\..\\evil.txt", content: "x" }]),
    "backslash",
  );
  await assertRefused(
    await zipBytes([{ ...METADATA, name: "C:/crate/ro-crate-metadata.json" }]),
    "drive letter",
  );
});

Deno.test("importEln() refuses a symbolic link entry", async () => {
  await assertRefused(
    await zipBytes([
      ...simpleCrate(),
      { name: "crate/exp/link.txt", content: "/etc/passwd", unixMode: 0o120777 },
    ]),
    "symbolic link",
  );
});

Deno.test("importEln() refuses two root folders and files next to the root", async () => {
  await assertRefused(
    await zipBytes([...simpleCrate(), { name: "other/x.txt", content: "x" }]),
    "more than one root folder",
  );
  await assertRefused(
    await zipBytes([{ name: "crate/", directory: true }, { name: "crate", content: "x" }]),
    "next to the root folder",
  );
});

Deno.test("importEln() refuses a zip bomb by its compression ratio", async () => {
  const zeros = new Uint8Array(32 * 2 ** 20);
  await assertRefused(
    await zipBytes(
      simpleCrate("crate", { extra: [{ name: "crate/exp/bomb.bin", content: zeros }] }),
    ),
    "a zip bomb",
  );
});

Deno.test("importEln() refuses an entry expanding beyond the size in its header", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const content = "x".repeat(200_000);
  const entries = simpleCrate("crate", { content });
  const bytes = await zipBytes(entries);
  // Make the central directory claim 100 bytes for exp/data.txt.
  const view = new DataView(bytes.buffer);
  const name = new TextEncoder().encode("crate/exp/data.txt");
  let patched = 0;
  for (let at = 0; at + 46 < bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const found = bytes.subarray(at + 46, at + 46 + nameLength);
    if (found.length === name.length && found.every((b, i) => b === name[i])) {
      view.setUint32(at + 24, 100, true);
      patched++;
    }
  }
  assertEquals(patched, 1);
  const path = await tempEln(bytes);
  try {
    // Found by the checksum pre-pass (the crate declares a SHA-256): nothing is created.
    const error = await assertRejects(() => importEln(manager, path), InputError);
    assertStringIncludes(error.message, "'exp/data.txt' cannot be read");
    assertStringIncludes(error.message, "uncompressed size");
    assertEquals(server.log.length, 0, "nothing was sent");
    await assertNothingLeft(server, manager, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("importEln() refuses a metadata file over the limit, a missing one, and no ZIP", async () => {
  await assertRefused(await zipBytes(simpleCrate()), "more than the limit of 100", {
    limits: { maxMetadataBytes: 100 },
  });
  await assertRefused(
    await zipBytes([{ name: "crate/data.txt", content: "x" }]),
    "ro-crate-metadata.json' is missing",
  );
  await assertRefused(new TextEncoder().encode("not a zip at all"), "not a readable ZIP");
  await assertRefused(await zipBytes([]), "empty");
});

Deno.test("importEln() with a wrong checksum is refused before anything is created", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const first: TestEntry[] = simpleCrate().slice(1);
  const metadata = JSON.parse(METADATA.content as string);
  metadata["@graph"][1].hasPart.push({ "@id": "./exp2/" });
  metadata["@graph"].push(
    { "@id": "./exp2/", "@type": "Dataset", name: "Second", hasPart: [{ "@id": "./exp2/b.txt" }] },
    { "@id": "./exp2/b.txt", "@type": "File", name: "b.txt", sha256: sha256Hex(new Uint8Array(1)) },
  );
  const path = await tempEln(
    await zipBytes([
      { name: "crate/ro-crate-metadata.json", content: JSON.stringify(metadata) },
      ...first,
      { name: "crate/exp2/b.txt", content: "not what the crate says" },
    ]),
  );
  try {
    for (const dryRun of [false, true]) {
      const error = await assertRejects(() => importEln(manager, path, { dryRun }), InputError);
      assertStringIncludes(error.message, "SHA-256 checksum mismatch for 'exp2/b.txt'");
    }
    assertEquals(server.log.length, 0, "nothing was sent");
    await assertNothingLeft(server, manager, 0);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("importEln() aborted by its signal deletes what it had created", async () => {
  await using server = await startServer();
  await using manager = new RepoManager({ host: server.url, pat: server.pat });
  const path = await tempEln(await zipBytes(simpleCrate()));
  const controller = new AbortController();
  try {
    const error = await assertRejects(
      () =>
        importEln(manager, path, {
          signal: controller.signal,
          onProgress: (p) => p.phase === "record" && controller.abort(),
        }),
      ElnImportError,
    );
    assertEquals(error.entity, "the file 'exp/data.txt' of the record 'Experiment'");
    await assertNothingLeft(server, manager, 1);
  } finally {
    await Deno.remove(path);
  }
});
