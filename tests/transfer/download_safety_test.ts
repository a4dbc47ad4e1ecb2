// Hostile servers: identifiers and names that try to leave the target directory, names too long
// for the file system, and several files in flight.
import { assertEquals, assertRejects } from "../_assert.ts";
import { InputError } from "../../lib/errors.ts";
import { downloadFile } from "../../lib/transfer/download.ts";
import { MAX_FILE_NAME_BYTES } from "../../lib/utils/file_name.ts";
import { listDir, setup } from "./_helpers.ts";

const HOSTILE = "../../../victim";

/** Every path below `root`, relative, sorted. */
async function tree(root: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${root}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    found.push(path);
    if (entry.isDirectory) found.push(...await tree(root, `${path}/`));
  }
  return found.sort();
}

Deno.test("downloadFiles() and downloadFile() with useFolder keep a hostile identifier inside the target", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("data", "a.txt");
  env.server.addFault({ method: "GET", path: "/records/", jsonFields: { identifier: HOSTILE } });
  env.record.invalidate();
  const out = `${env.dir}/a/b/c/out`;
  await Deno.mkdir(out, { recursive: true });
  const many = await env.record.downloadFiles(out, { useFolder: true });
  // Other content in the way, so the second download writes (the same content would be kept).
  await Deno.writeTextFile(many[0]!, "edited");
  const one = await env.record.downloadFile(file.id, `${out}/`, { useFolder: true });
  assertEquals(many, [`${out}/.._.._.._victim/a.txt`]);
  assertEquals(one, `${out}/.._.._.._victim/a_2.txt`);
  assertEquals(await tree(env.dir), [
    "a",
    "a/b",
    "a/b/c",
    "a/b/c/out",
    "a/b/c/out/.._.._.._victim",
    "a/b/c/out/.._.._.._victim/a.txt",
    "a/b/c/out/.._.._.._victim/a_2.txt",
  ]);
});

Deno.test("export(), exportMetadata() and downloadAllFiles() keep a hostile identifier inside the target", async () => {
  await using env = await setup();
  await env.record.uploadString("data", "a.txt");
  env.server.addFault({ method: "GET", path: "/records/", jsonFields: { identifier: HOSTILE } });
  env.record.invalidate();
  const out = `${env.dir}/x/y/z/out`;
  await Deno.mkdir(out, { recursive: true });
  await env.record.export(out, "json", { useFolder: true });
  await env.record.export(out, "json", { useFolder: true, name: "named" });
  await env.record.exportMetadata(out, { useFolder: true });
  await env.record.downloadAllFiles(out);
  assertEquals(await tree(`${env.dir}/x/y/z`), [
    "out",
    "out/.._.._.._victim",
    "out/.._.._.._victim.zip",
    "out/.._.._.._victim/.._.._.._victim-extras.json",
    "out/.._.._.._victim/.._.._.._victim.json",
    "out/.._.._.._victim/named.json",
  ]);
  assertEquals(await listDir(env.dir), ["x"]);
});

Deno.test("downloadFiles() flat keeps hostile file names from the server inside the target", async () => {
  await using env = await setup();
  await env.record.uploadString("data", "a.txt");
  env.server.addFault({ method: "GET", path: "/files", jsonFields: { name: "../../escape.txt" } });
  const out = `${env.dir}/one/two`;
  const paths = await env.record.downloadFiles(out, { flat: true });
  assertEquals(paths, [`${out}/.._.._escape.txt`]);
  assertEquals(await tree(env.dir), ["one", "one/two", "one/two/.._.._escape.txt"]);
});

Deno.test("downloadFiles() shortens names too long for the file system, with a warning, and keeps them apart", async () => {
  await using env = await setup();
  const stem = "ü".repeat(126);
  await env.record.uploadString("first", `${stem}1.txt`);
  await env.record.uploadString("second", `${stem}2.txt`);
  await env.record.uploadString("short", "short.txt");
  const warnings: string[] = [];
  const paths = await env.record.downloadFiles(env.dir, {
    onWarning: (message) => warnings.push(message),
  });
  assertEquals(paths.length, 3);
  // Both are shortened to one name: each shortening is reported, and so is the clash.
  assertEquals(warnings.filter((text) => text.includes("too long")).length, 2);
  assertEquals(warnings.filter((text) => text.includes("both map to")).length, 1);
  assertEquals(warnings.length, 3);
  const names = await listDir(env.dir);
  assertEquals(names.length, 3);
  for (const name of names) {
    assertEquals(new TextEncoder().encode(name).byteLength <= MAX_FILE_NAME_BYTES, true);
    assertEquals(name.endsWith(".txt"), true);
  }
  const texts = await Promise.all(paths.map((path) => Deno.readTextFile(path)));
  assertEquals(texts.sort(), ["first", "second", "short"]);
});

Deno.test("downloadFiles() has several files in flight, bounded by concurrency", async () => {
  await using env = await setup();
  for (let i = 0; i < 6; i++) await env.record.uploadString("x".repeat(40_000), `f${i}.bin`);
  env.server.addFault({ method: "GET", path: "/download", slowBodyBytesPerSecond: 400_000 });
  const observe = async (concurrency: number) => {
    const active = new Set<string>();
    let most = 0;
    const dir = await Deno.makeTempDir({ dir: env.dir });
    const paths = await env.record.downloadFiles(dir, {
      concurrency,
      onProgress: ({ file }) => {
        active.add(file.id);
        most = Math.max(most, active.size);
      },
      onFile: (_path, file) => active.delete(file.id),
    });
    assertEquals(paths.length, 6);
    return most;
  };
  assertEquals(await observe(1), 1);
  const most = await observe(3);
  assertEquals(most > 1 && most <= 3, true, `at most ${most} in flight`);
});

Deno.test("downloadFile() with useFolder needs a record with meta()", async () => {
  await using env = await setup();
  const file = await env.record.uploadString("data", "a.txt");
  const bare = { transport: env.transport, id: env.record.id, endpoint: env.record.endpoint };
  await assertRejects(
    () => downloadFile(bare, file.id, { path: env.dir, useFolder: true }),
    InputError,
  );
});
