// Downloads that overlap: runs of the same download into one folder (with and without force,
// with a partial file left by a killed run), a partial file held by another process, and the
// bounds of a download (declared size, compressed answers, a full disk).
import { assertEquals, assertRejects, assertStringIncludes } from "../_assert.ts";
import { fileDownloadPath } from "../../lib/http/paths.ts";
import { PartFile, tempPathFor } from "../../lib/transfer/_atomic_file.ts";
import { saveResponse } from "../../lib/transfer/_save.ts";
import {
  IncompleteDownloadError,
  IntegrityError,
  LocalFileError,
} from "../../lib/transfer/errors.ts";
import { listDir, setup, sha256File, writeRandomFile } from "./_helpers.ts";

const SIZE = 1_000_000;
const RUNS = 8;

async function sourceFile(env: Awaited<ReturnType<typeof setup>>, size = SIZE) {
  const source = `${env.dir}/source.bin`;
  await writeRandomFile(source, size, 11);
  const file = await env.record.uploadFile(source);
  const out = `${env.dir}/out`;
  await Deno.mkdir(out);
  return { source, file, out, digest: await sha256File(source) };
}

/** Every file of `dir`, by name, with its SHA-256. */
async function contents(dir: string): Promise<Map<string, string>> {
  const names = await listDir(dir);
  return new Map(
    await Promise.all(names.map(async (n) => [n, await sha256File(`${dir}/${n}`)] as const)),
  );
}

/** Slows the downloads so that the runs overlap. */
function slowDownloads(env: Awaited<ReturnType<typeof setup>>) {
  env.server.addFault({ method: "GET", path: "/download", slowBodyBytesPerSecond: 4_000_000 });
}

Deno.test(`${RUNS} overlapping downloads of one file into one folder all succeed: numbered intact copies, no partial file`, async () => {
  await using env = await setup();
  const { file, out, digest } = await sourceFile(env);
  slowDownloads(env);
  const paths = await Promise.all(
    Array.from({ length: RUNS }, () => env.record.downloadFile(file.id, `${out}/`)),
  );
  const names = [
    "source.bin",
    ...Array.from({ length: RUNS - 1 }, (_, i) => `source_${i + 2}.bin`),
  ];
  assertEquals(paths.map((p) => p.slice(out.length + 1)).sort(), names.sort());
  const found = await contents(out);
  assertEquals([...found.keys()].sort(), names.sort());
  for (const [name, sum] of found) assertEquals(sum, digest, name);
});

Deno.test(`${RUNS} overlapping forced downloads of one file end with one intact file`, async () => {
  await using env = await setup();
  const { file, out, digest } = await sourceFile(env);
  slowDownloads(env);
  const paths = await Promise.all(
    Array.from(
      { length: RUNS },
      () => env.record.downloadFile(file.id, `${out}/source.bin`, { force: true }),
    ),
  );
  assertEquals(new Set(paths), new Set([`${out}/source.bin`]));
  assertEquals(await contents(out), new Map([["source.bin", digest]]));
});

Deno.test(`${RUNS} overlapping downloads after a killed run: one resumes its partial file, all succeed intact`, async () => {
  for (const force of [false, true]) {
    await using env = await setup();
    const { file, out, digest } = await sourceFile(env);
    // What a run killed with kill -9 leaves: an unlocked partial file of the right data.
    env.server.addFault({ method: "GET", path: "/download", dropAfterBytes: 300_000, times: 1 });
    await assertRejects(
      () => env.record.downloadFile(file.id, `${out}/`, { keepPartial: true }),
      IncompleteDownloadError,
    );
    assertEquals((await listDir(out)).length, 1);
    slowDownloads(env);
    const before = env.server.log.length;
    await Promise.all(
      Array.from(
        { length: RUNS },
        () =>
          env.record.downloadFile(file.id, force ? `${out}/source.bin` : `${out}/`, {
            force,
            keepPartial: true,
          }),
      ),
    );
    const found = await contents(out);
    assertEquals(found.size, force ? 1 : RUNS);
    for (const [name, sum] of found) assertEquals(sum, digest, name);
    const ranges = env.server.log.slice(before).filter((e) => e.headers["range"] !== undefined);
    assertEquals(ranges.length, 1, "exactly one run resumed the partial file");
  }
});

Deno.test("a download never writes into a partial file another process holds, and leaves it as it is", async () => {
  await using env = await setup();
  const { file, out, digest } = await sourceFile(env);
  // Another process's download in progress: the partial file is locked and holds its data.
  const key = await partKey(file.id, file.size, file.checksum);
  const partPath = tempPathFor(`${out}/source.bin`, key);
  const other = await Deno.open(partPath, { read: true, write: true, createNew: true });
  try {
    await other.lock(true);
    await other.write(new Uint8Array(100_000).fill(7));
    const path = await env.record.downloadFile(file.id, `${out}/`, { keepPartial: true });
    assertEquals(await sha256File(path), digest);
    assertEquals((await Deno.stat(partPath)).size, 100_000);
    assertEquals(await listDir(out), [partPath.slice(out.length + 1), "source.bin"].sort());
  } finally {
    other.close();
  }
});

Deno.test("a partial file that is not this file's data (appended by another run) is never renamed into place", async () => {
  await using env = await setup();
  const { file, out } = await sourceFile(env);
  const key = await partKey(file.id, file.size, file.checksum);
  const partPath = tempPathFor(`${out}/source.bin`, key);
  await Deno.writeFile(partPath, new Uint8Array(200_000).fill(1));
  await assertRejects(() => env.record.downloadFile(file.id, `${out}/`), IntegrityError);
  assertEquals(await listDir(out), []);
});

Deno.test("a download stops at the declared size: an endless body is refused and no partial file is kept", async () => {
  await using env = await setup();
  const { file, out } = await sourceFile(env, 300_000);
  env.server.addFault({ method: "GET", path: "/download", endlessBody: true });
  const error = await assertRejects(
    () => env.record.downloadFile(file.id, `${out}/`, { keepPartial: true }),
    IntegrityError,
  );
  assertEquals(error.facts.size > 300_000, true);
  assertEquals(error.facts.size < 300_000 + (2 << 20), true);
  assertEquals(await listDir(out), []);
});

Deno.test("a download counts decoded bytes: an endless gzip body (a decompression bomb) is refused, nothing kept", async () => {
  await using env = await setup();
  const { file, out } = await sourceFile(env, 300_000);
  env.server.addFault({ method: "GET", path: "/download", endlessBody: true, gzipBody: true });
  await assertRejects(
    () => env.record.downloadFile(file.id, `${out}/`, { keepPartial: true }),
    IntegrityError,
  );
  assertEquals(await listDir(out), []);
});

Deno.test("a compressed answer of the right file is accepted: its decoded bytes are the file", async () => {
  await using env = await setup();
  const { file, out, digest } = await sourceFile(env, 300_000);
  env.server.addFault({ method: "GET", path: "/download", gzipBody: true });
  const path = await env.record.downloadFile(file.id, `${out}/`);
  assertEquals(await sha256File(path), digest);
});

Deno.test("a full disk removes the partial file (even with keepPartial) and says how much space the file needs", async () => {
  await using env = await setup();
  const { file, out } = await sourceFile(env, 3_000_000);
  const target = `${out}/source.bin`;
  const partPath = tempPathFor(target, "0000beef");
  const error = await assertRejects(
    () =>
      saveResponse(env.transport, fileDownloadPath(env.record.id, file.id), target, {
        size: file.size,
        checksum: file.checksum,
        resumeKey: "x",
        keepPartial: true,
        claim: async () => {
          const real = await Deno.open(partPath, { read: true, write: true, createNew: true });
          return new PartFile(partPath, fillsUpAfter(real, 1_000_000), 0, true);
        },
      }),
    LocalFileError,
  );
  assertEquals(error.path, target);
  assertStringIncludes(error.message, "No space left on the device");
  assertStringIncludes(error.message, "needs 3000000 bytes");
  assertStringIncludes(error.message, "2000000 bytes (2.0 MB) more must be free");
  assertEquals(await listDir(out), []);
});

/** The file with writes failing like a full disk once `limit` bytes were written. */
function fillsUpAfter(file: Deno.FsFile, limit: number): Deno.FsFile {
  let written = 0;
  return new Proxy(file, {
    get(target, property) {
      if (property === "write") {
        // Like a disk: what fits is written, then the next write fails.
        return async (data: Uint8Array) => {
          if (written >= limit) {
            throw Object.assign(new Error("No space left on device (os error 28)"), {
              code: "ENOSPC",
            });
          }
          const n = await target.write(data.subarray(0, limit - written));
          written += n;
          return n;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The 8 hex digits of a download's temporary file name (as `saveFile` names its data). */
async function partKey(id: string, size: number, checksum: string | null | undefined) {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(`${id}\n${size}\n${checksum ?? ""}`),
  );
  return [...new Uint8Array(digest, 0, 4)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
