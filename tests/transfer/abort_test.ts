// An aborted signal stops every transfer of the library: the call rejects with the signal's
// reason (or an error whose cause is it, which says what is kept to resume), leaves no
// half-written target, and the same call run again finishes the job with every file once.
// Each transfer is slowed by the local server so that it would take many seconds; the abort
// comes from the first progress report, so no clock is involved.
import { assert, assertEquals } from "../_assert.ts";
import { downloadFile } from "../../lib/transfer/download.ts";
import { downloadFiles } from "../../lib/transfer/download_files.ts";
import { IncompleteDownloadError, UploadError } from "../../lib/transfer/errors.ts";
import { syncFolder } from "../../lib/transfer/sync.ts";
import { uploadFile } from "../../lib/transfer/upload.ts";
import { uploadFiles } from "../../lib/transfer/upload_files.ts";
import { randomBytes, setup, writeRandomFile } from "./_helpers.ts";

/** A download that would take about 10 s; an upload about as long. */
const SLOW = 400_000;

/** Whether `reason` is `error` or one of its causes. */
function causedBy(error: unknown, reason: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && depth < 10; depth++) {
    if (current === reason) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

/** An abort controller that aborts on the first progress report, and the reason it aborts with. */
function abortOnProgress() {
  const controller = new AbortController();
  const reason = new DOMException("Interrupted", "AbortError");
  return {
    signal: controller.signal,
    reason,
    onProgress: () => controller.abort(reason),
  };
}

/** A short digest of some bytes (compared instead of the bytes: a failure stays readable). */
async function digest(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The digests of the values. */
async function digests(files: Map<string, Uint8Array<ArrayBuffer>>): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const [name, bytes] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    result.set(name, await digest(bytes));
  }
  return result;
}

/** The files of a folder (recursively), relative path to content. */
async function tree(dir: string, prefix = ""): Promise<Map<string, Uint8Array<ArrayBuffer>>> {
  const found = new Map<string, Uint8Array<ArrayBuffer>>();
  for await (const entry of Deno.readDir(`${dir}/${prefix}`)) {
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory) {
      for (const [key, value] of await tree(dir, `${name}/`)) found.set(key, value);
    } else found.set(name, await Deno.readFile(`${dir}/${name}`));
  }
  return found;
}

async function recordContents(env: Awaited<ReturnType<typeof setup>>) {
  const contents = new Map<string, Uint8Array<ArrayBuffer>>();
  for await (const file of env.record.files()) {
    const response = await env.transport.request("GET", file._links!.download!);
    contents.set(file.name, new Uint8Array(await response.arrayBuffer()));
  }
  return contents;
}

Deno.test("downloadFile() aborted mid-transfer rejects with the signal's reason and leaves nothing", async () => {
  await using env = await setup();
  const data = randomBytes(4_000_000, 1);
  const file = await uploadFile(env.record, data, { fileName: "big.bin" });
  env.server.addFault({ method: "GET", path: /\/download$/, slowBodyBytesPerSecond: SLOW });
  const abort = abortOnProgress();
  const error = await downloadFile(env.record, file.id, {
    path: `${env.dir}/`,
    signal: abort.signal,
    onProgress: abort.onProgress,
  }).then(() => undefined, (caught) => caught);
  assert(error === abort.reason, `not the reason: ${error}`);
  assertEquals([...Deno.readDirSync(env.dir)], []);
});

Deno.test("downloadFile() aborted on a fast link (data arriving faster than it is written) rejects too", async () => {
  await using env = await setup();
  // No slowing: the answer's data is buffered ahead of the reader, which must not outlive the
  // abort (it used to run to the end and resolve).
  const data = randomBytes(24_000_000, 4);
  const file = await uploadFile(env.record, data, { fileName: "fast.bin" });
  const abort = abortOnProgress();
  const error = await downloadFile(env.record, file.id, {
    path: `${env.dir}/`,
    signal: abort.signal,
    onProgress: abort.onProgress,
  }).then(() => undefined, (caught) => caught);
  assert(error === abort.reason, `not the reason: ${error}`);
  assertEquals([...Deno.readDirSync(env.dir)], []);
});

Deno.test("downloadFile() with keepPartial aborted keeps only the partial file, and the rerun completes it", async () => {
  await using env = await setup();
  const data = randomBytes(4_000_000, 2);
  const file = await uploadFile(env.record, data, { fileName: "big.bin" });
  env.server.addFault({ method: "GET", path: /\/download$/, slowBodyBytesPerSecond: SLOW });
  const abort = abortOnProgress();
  const error = await downloadFile(env.record, file.id, {
    path: `${env.dir}/`,
    keepPartial: true,
    signal: abort.signal,
    onProgress: abort.onProgress,
  }).then(() => undefined, (caught) => caught);
  assert(error instanceof IncompleteDownloadError, String(error));
  assert(error.cause === abort.reason, `not caused by the reason: ${error.cause}`);
  const left = [...Deno.readDirSync(env.dir)].map((entry) => entry.name);
  assertEquals(left.length, 1);
  assert(/^\.big\.bin\.[0-9a-f]{8}\.part$/.test(left[0]!), left[0]);
  env.server.clearFaults();
  await downloadFile(env.record, file.id, { path: `${env.dir}/`, keepPartial: true });
  assertEquals(await digests(await tree(env.dir)), await digests(new Map([["big.bin", data]])));
});

Deno.test("downloadFiles() aborted leaves whole files only, and the rerun adds the rest without duplicates", async () => {
  await using env = await setup();
  const sources = new Map<string, Uint8Array<ArrayBuffer>>();
  for (let index = 0; index < 6; index++) {
    const data = randomBytes(600_000, 10 + index);
    sources.set(`raw/part ${index}.bin`, data);
    await uploadFile(env.record, data, { fileName: `raw/part ${index}.bin` });
  }
  env.server.addFault({ method: "GET", path: /\/download$/, slowBodyBytesPerSecond: SLOW });
  const abort = abortOnProgress();
  const error = await downloadFiles(env.record, env.dir, {
    concurrency: 2,
    keepPartial: true,
    signal: abort.signal,
    onProgress: abort.onProgress,
  }).then(() => undefined, (caught) => caught);
  assert(causedBy(error, abort.reason), String(error));
  for (const [name, content] of await tree(env.dir)) {
    if (name.endsWith(".part")) continue;
    assert(sources.has(name), `an unexpected file: ${name}`);
    assertEquals(await digest(content), await digest(sources.get(name)!), name);
  }
  env.server.clearFaults();
  await downloadFiles(env.record, env.dir, { keepPartial: true });
  await downloadFiles(env.record, env.dir, { keepPartial: true });
  assertEquals(await digests(await tree(env.dir)), await digests(sources));
});

Deno.test("uploadFile() aborted mid-transfer rejects with an UploadError caused by the reason; the rerun completes", async () => {
  await using env = await setup();
  const path = `${env.dir}/big.bin`;
  // Chunked (above 50 MB): the first chunk goes fast, the others slowly; the abort comes when
  // the first one is on the server, the others in flight.
  await writeRandomFile(path, 52_000_000, 3);
  for (const chunkIndex of [1, 2, 3, 4, 5]) {
    env.server.addFault({ method: "PUT", chunkIndex, slowRequestBytesPerSecond: SLOW });
  }
  const abort = abortOnProgress();
  const error = await uploadFile(env.record, path, {
    signal: abort.signal,
    onProgress: ({ bytes }) => {
      if (bytes > 0) abort.onProgress();
    },
  }).then(() => undefined, (caught) => caught);
  assert(error instanceof UploadError, String(error));
  assert(causedBy(error, abort.reason), String(error));
  assertEquals([error.aborted, error.resumable], [true, true]);
  assertEquals([...(await recordContents(env)).keys()], []);
  env.server.clearFaults();
  await uploadFile(env.record, path);
  await uploadFile(env.record, path);
  const files = await recordContents(env);
  assertEquals([...files.keys()], ["big.bin"]);
  assertEquals(await digest(files.get("big.bin")!), await digest(await Deno.readFile(path)));
});

Deno.test("uploadFiles() of a folder aborted: whole files only; the same call again finishes it", async () => {
  await using env = await setup();
  const folder = `${env.dir}/data`;
  await Deno.mkdir(`${folder}/raw`, { recursive: true });
  const sources = new Map<string, Uint8Array<ArrayBuffer>>();
  for (let index = 0; index < 6; index++) {
    const data = randomBytes(400_000, 20 + index);
    sources.set(`raw/part ${index}.bin`, data);
    await Deno.writeFile(`${folder}/raw/part ${index}.bin`, data);
  }
  env.server.addFault({ method: "PUT", path: /\/uploads\//, slowRequestBytesPerSecond: SLOW });
  const abort = abortOnProgress();
  const error = await uploadFiles(env.record, folder, {
    recursive: true,
    concurrency: 2,
    signal: abort.signal,
    onProgress: abort.onProgress,
  }).then(() => undefined, (caught) => caught);
  assert(causedBy(error, abort.reason), String(error));
  for (const [name, content] of await recordContents(env)) {
    assert(sources.has(name), `an unexpected file: ${name}`);
    assertEquals(await digest(content), await digest(sources.get(name)!), name);
  }
  env.server.clearFaults();
  const again = await uploadFiles(env.record, folder, { recursive: true });
  const third = await uploadFiles(env.record, folder, { recursive: true });
  assertEquals(third.uploaded, []);
  assertEquals(again.uploaded.length + again.skipped.length, sources.size);
  assertEquals(await digests(await recordContents(env)), await digests(sources));
});

for (const direction of ["up", "down"] as const) {
  Deno.test(`syncFolder() ${direction} aborted: whole files only; the same call again finishes it`, async () => {
    await using env = await setup();
    const folder = `${env.dir}/data`;
    await Deno.mkdir(`${folder}/raw`, { recursive: true });
    const sources = new Map<string, Uint8Array<ArrayBuffer>>();
    for (let index = 0; index < 4; index++) {
      const data = randomBytes(500_000, 30 + index);
      sources.set(`raw/part ${index}.bin`, data);
      if (direction === "up") await Deno.writeFile(`${folder}/raw/part ${index}.bin`, data);
      else await uploadFile(env.record, data, { fileName: `raw/part ${index}.bin` });
    }
    env.server.addFault(
      direction === "up"
        ? { method: "PUT", path: /\/uploads\//, slowRequestBytesPerSecond: SLOW }
        : { method: "GET", path: /\/download$/, slowBodyBytesPerSecond: SLOW },
    );
    const abort = abortOnProgress();
    const error = await syncFolder(env.record, folder, {
      direction,
      concurrency: 2,
      hashCache: false,
      signal: abort.signal,
      onProgress: (progress) => {
        if (progress.bytes > 0) abort.onProgress();
      },
    }).then(() => undefined, (caught) => caught);
    assert(causedBy(error, abort.reason), String(error));
    const side = direction === "up" ? await recordContents(env) : await tree(folder);
    for (const [name, content] of side) {
      if (name.endsWith(".part")) continue;
      assert(sources.has(name), `an unexpected file: ${name}`);
      assertEquals(await digest(content), await digest(sources.get(name)!), name);
    }
    env.server.clearFaults();
    const again = await syncFolder(env.record, folder, { direction, hashCache: false });
    assert(again.complete);
    const after = direction === "up" ? await recordContents(env) : await tree(folder);
    assertEquals(await digests(after), await digests(sources));
  });
}

Deno.test("every transfer aborted at once (before a byte moved) rejects with the signal's reason and leaves nothing", async () => {
  await using env = await setup();
  const file = await uploadFile(env.record, randomBytes(1_000, 5), { fileName: "a.bin" });
  const local = `${env.dir}/up`;
  await Deno.mkdir(local);
  await Deno.writeFile(`${local}/b.bin`, randomBytes(1_000, 6));
  // The record has it too: a folder upload compares it (and must stop there).
  await uploadFile(env.record, randomBytes(1_000, 6), { fileName: "b.bin" });
  const out = `${env.dir}/out`;
  await Deno.mkdir(out);
  const reason = new DOMException("Interrupted", "AbortError");
  const signal = AbortSignal.abort(reason);
  const calls: [string, () => Promise<unknown>][] = [
    ["downloadFile", () => downloadFile(env.record, file.id, { path: `${out}/`, signal })],
    ["downloadFiles", () => downloadFiles(env.record, out, { signal })],
    ["uploadFile", () => uploadFile(env.record, `${local}/b.bin`, { signal })],
    ["uploadFiles", () => uploadFiles(env.record, local, { signal })],
    ["syncFolder down", () => syncFolder(env.record, out, { direction: "down", signal })],
    ["syncFolder up", () => syncFolder(env.record, local, { direction: "up", signal })],
  ];
  for (const [name, call] of calls) {
    const error = await call().then(() => undefined, (caught) => caught);
    assert(causedBy(error, reason), `${name}: ${error}`);
  }
  assertEquals([...Deno.readDirSync(out)], []);
  assertEquals([...(await recordContents(env)).keys()].sort(), ["a.bin", "b.bin"]);
});
