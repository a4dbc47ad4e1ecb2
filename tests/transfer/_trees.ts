// Folder trees for the sync and tree-transfer tests: writing and reading local trees, symbolic
// links and FIFOs (made with the shell: Deno's calls need unscoped permissions), and the record's
// files with their texts.
import { assertEquals } from "../_assert.ts";
import type { FileJson } from "../../lib/http/protocol.ts";
import { downloadFileStream } from "../../lib/transfer/download.ts";
import type { Env } from "./_helpers.ts";

/** Every file below `root` with its text, relative with `/`, sorted. */
export async function readTree(root: string, prefix = ""): Promise<[string, string][]> {
  const found: [string, string][] = [];
  for await (const entry of Deno.readDir(`${root}/${prefix}`)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) found.push(...await readTree(root, `${path}/`));
    else if (entry.isFile) found.push([path, await Deno.readTextFile(`${root}/${path}`)]);
  }
  return found.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
}

/** A symbolic link (Deno.symlink needs unscoped permissions; the tests have scoped ones). */
export async function symlink(target: string, path: string): Promise<void> {
  const { code } = await new Deno.Command("bash", { args: ["-c", 'ln -s "$0" "$1"', target, path] })
    .output();
  assertEquals(code, 0);
}

export async function remoteFiles(env: Env): Promise<Map<string, FileJson>> {
  const files = await Array.fromAsync(env.record.files());
  return new Map(files.map((file) => [file.name, file]));
}

export async function remoteTexts(env: Env): Promise<[string, string][]> {
  const texts: [string, string][] = [];
  for (const [name, file] of await remoteFiles(env)) {
    const stream = await downloadFileStream(env.record, file.id);
    texts.push([name, await new Response(stream).text()]);
  }
  return texts.sort((a, b) => a[0] < b[0] ? -1 : 1);
}

/** A FIFO (a special file) at `path`. */
export async function fifo(path: string): Promise<void> {
  const { code } = await new Deno.Command("bash", { args: ["-c", 'mkfifo "$0"', path] }).output();
  assertEquals(code, 0);
}
