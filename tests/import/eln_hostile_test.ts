// Hostile archives against importEln(): each is refused before anything is sent to the server
// (no request at all, nothing in the trash), a wrong checksum too (found by the pre-pass that
// hashes every file with a declared SHA-256); an abort rolls back what the import had created
// (nothing active is left, and it is purged from the trash).
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
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

/** Sets the 32-bit field at `field` of the central header of `name` (which must be there once). */
function patchCentral(bytes: Uint8Array<ArrayBuffer>, name: string, field: number, value: number) {
  const view = new DataView(bytes.buffer);
  const wanted = new TextEncoder().encode(name);
  let patched = 0;
  for (let at = 0; at + 46 < bytes.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const found = bytes.subarray(at + 46, at + 46 + nameLength);
    if (found.length === wanted.length && found.every((b, i) => b === wanted[i])) {
      view.setUint32(at + field, value, true);
      patched++;
    }
  }
  assertEquals(patched, 1);
}

/** The simple crate with a central directory that claims 100 bytes for exp/data.txt. */
async function lyingSizeArchive(
  sha256: boolean,
  store = false,
): Promise<Uint8Array<ArrayBuffer>> {
  const content = "x".repeat(200_000);
  const entries = simpleCrate("crate", { content, ...(sha256 ? {} : { sha256: null }) })
    .map((entry) => store ? { ...entry, store: true } : entry);
  const bytes = await zipBytes(entries);
  patchCentral(bytes, "crate/exp/data.txt", 24, 100);
  return bytes;
}

// A small deflated entry is read in one step, a large one through zip.js: both check the CRC-32.
for (const size of [2_000, 2_000_000]) {
  for (const sha256 of [true, false]) {
    Deno.test(
      `importEln() refuses a deflated entry of ${size} bytes whose CRC-32 is wrong (${
        sha256 ? "with" : "without"
      } a SHA-256 in the crate) before creating anything`,
      async () => {
        // Letters that do not compress below the zip bomb ratio (a fixed pseudo-random series).
        const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let seed = 1;
        const content = Array.from({ length: size }, () => {
          seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
          return letters[seed % letters.length];
        }).join("");
        const entries = simpleCrate("crate", { content, ...(sha256 ? {} : { sha256: null }) });
        const bytes = await zipBytes(entries);
        patchCentral(bytes, "crate/exp/data.txt", 16, 0x12345678);
        await assertRefused(bytes, "'exp/data.txt' cannot be read (Invalid CRC32)");
      },
    );
  }
}

for (const sha256 of [true, false]) {
  Deno.test(
    `importEln() refuses an entry expanding beyond the size in its header (${
      sha256 ? "with" : "without"
    } a SHA-256 in the crate) before creating anything`,
    async () => {
      await using server = await startServer();
      await using manager = new RepoManager({ host: server.url, pat: server.pat });
      const path = await tempEln(await lyingSizeArchive(sha256));
      try {
        // Found by the pre-pass, which reads every planned file: nothing is created.
        const error = await assertRejects(() => importEln(manager, path), InputError);
        assertStringIncludes(error.message, "'exp/data.txt'");
        assertEquals(server.log.length, 0, "nothing was sent");
        await assertNothingLeft(server, manager, 0);
      } finally {
        await Deno.remove(path);
      }
    },
  );
}

Deno.test("importEln() refuses a stored entry whose declared size differs from its data", async () => {
  await assertRefused(
    await lyingSizeArchive(false, true),
    "'crate/exp/data.txt' is stored uncompressed, yet declares 100 bytes for 200000 bytes of data",
  );
});

/** A ZIP whose end record claims `count` entries (the central directory is not even there). */
function claimedEntries(count: number, zip64: boolean): Uint8Array<ArrayBuffer> {
  const eocd = new DataView(new ArrayBuffer(22));
  eocd.setUint32(0, 0x06054b50, true);
  if (!zip64) {
    eocd.setUint16(8, count, true);
    eocd.setUint16(10, count, true);
    eocd.setUint32(12, 46 * count, true);
    return new Uint8Array(eocd.buffer);
  }
  eocd.setUint16(8, 0xffff, true);
  eocd.setUint16(10, 0xffff, true);
  eocd.setUint32(12, 0xffffffff, true);
  eocd.setUint32(16, 0xffffffff, true);
  const end = new DataView(new ArrayBuffer(56 + 20));
  end.setUint32(0, 0x06064b50, true);
  end.setBigUint64(4, 44n, true);
  end.setBigUint64(24, BigInt(count), true);
  end.setBigUint64(32, BigInt(count), true);
  end.setBigUint64(40, BigInt(46 * count), true);
  end.setUint32(56, 0x07064b50, true);
  end.setBigUint64(64, 0n, true);
  end.setUint32(72, 1, true);
  const bytes = new Uint8Array(56 + 20 + 22);
  bytes.set(new Uint8Array(end.buffer));
  bytes.set(new Uint8Array(eocd.buffer), 76);
  return bytes;
}

Deno.test("importEln() refuses too many entries from the end record, before reading the directory", async () => {
  await assertRefused(
    claimedEntries(60_000, false),
    "it has 60000 entries, more than the limit of 50000",
    {
      limits: { maxEntries: 50_000 },
    },
  );
  await assertRefused(
    claimedEntries(400_000, true),
    "it has 400000 entries, more than the limit of 100000",
  );
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

Deno.test("importEln() aborted by its signal deletes and purges what it had created: the rerun gets the same identifiers (issue 31)", async () => {
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
    assertEquals([error.created, error.leftOver, error.trashed], [1, [], []]);
    assertStringIncludes(error.message, "was deleted for good");
    await assertNothingLeft(server, manager, 0);
    const rerun = await importEln(manager, path);
    assertEquals(rerun.records.map((record) => record.identifier), ["experiment"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("importEln() refuses metadata nested 10^6 deep for its depth, not as invalid JSON (issue 31)", async () => {
  const [metadata, ...rest] = simpleCrate();
  const crate = JSON.parse(String(metadata!.content));
  const deep = "[".repeat(1_000_000) + "]".repeat(1_000_000);
  const text = JSON.stringify(crate).replace(/}$/, `,"x-deep":${deep}}`);
  await assertRefused(
    await zipBytes([{ ...metadata!, content: text, store: true }, ...rest]),
    "nests arrays or objects deeper than 1000 levels",
  );
});
