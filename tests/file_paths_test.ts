// The project works from any checkout path (`C:\Users\Max Mustermann`, `…/Proben-Über/`): a file
// URL's `pathname` is percent-encoded (`with%20space`), so it is never used as a file path;
// `fileURLToPath()` (or the URL itself, which Deno's file APIs take) is.

import { assertEquals } from "./_assert.ts";

/**
 * `pathname` of a module-relative URL or of a URL constant (`ROOT`, `CORPUS`): the ways a file
 * path was taken from a URL before (a request's `url.pathname` is not a file path).
 */
const FILE_PATHNAME = /import\.meta\.url\)?\.pathname|\b[A-Z][A-Z_]*\.pathname\b|script\.pathname/;

async function* sources(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, dir);
    if (entry.isDirectory) yield* sources(url);
    else if (entry.name.endsWith(".ts")) yield url;
  }
}

Deno.test("no script, test or library module takes a file path from a URL's pathname", async () => {
  const root = new URL("../", import.meta.url);
  const found: string[] = [];
  for (const dir of ["lib/", "scripts/", "tests/"]) {
    for await (const file of sources(new URL(dir, root))) {
      const lines = (await Deno.readTextFile(file)).split("\n");
      lines.forEach((line, index) => {
        if (FILE_PATHNAME.test(line) && !line.trimStart().startsWith("//")) {
          found.push(`${file.href.slice(root.href.length)}:${index + 1}: ${line.trim()}`);
        }
      });
    }
  }
  assertEquals(found, []);
});
