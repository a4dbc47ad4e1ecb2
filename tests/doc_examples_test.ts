// Runs every code example in the JSDoc of the project's modules, one test per example, named as
// `deno test --doc` names it (`file:///…/record.ts#86-97.ts`). `deno test --doc` gives each
// example a fresh worker that loads the library and the local server again: about 36 s of CPU for
// what takes 2 s here (docs/perf/tests.md). Here the examples share this file's worker;
// each is still its own module, imported inside its own test, so the sanitizers see what it leaves
// open. The test task type-checks the same examples first (`deno check --doc-only .`).
//
// Extraction as in Deno (cli/util/extract.rs): fenced blocks inside `/** … */` comments, the line
// prefix `* ` (and a leading `# `) removed, blocks fenced `ignore` or in a language other than
// JavaScript or TypeScript skipped. Deno also puts the file's own exports in scope of an example
// that does not import them; ours import what they use, and one that does not fails here with a
// ReferenceError.

const ROOT = new URL("../", import.meta.url);
/** Where the examples are searched, relative to the project root (`deno.json`'s excludes aside). */
const PLACES = ["mod.ts", "cli.ts", "lib", "scripts", "tests"];
/** Fence languages Deno runs, by the extension of the module it makes. */
const LANGUAGES = new Map([
  ["js", "js"],
  ["javascript", "js"],
  ["jsx", "jsx"],
  ["ts", "ts"],
  ["typescript", "ts"],
  ["tsx", "tsx"],
]);
/** Languages Deno runs too, but not this file: such an example fails here instead of vanishing. */
const UNSUPPORTED = new Set(["mjs", "cjs", "mts", "cts"]);

/** One example: the test's name and the module's source, its relative imports made absolute. */
interface Example {
  name: string;
  source: string;
  language: string;
}

async function* sourceFiles(path: string): AsyncGenerator<string> {
  const info = await Deno.stat(new URL(path, ROOT));
  if (info.isFile) {
    if (/\.[cm]?[jt]sx?$/.test(path)) yield path;
    return;
  }
  const entries = await Array.fromAsync(Deno.readDir(new URL(path, ROOT)));
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory || entry.isFile) yield* sourceFiles(`${path}/${entry.name}`);
  }
}

const JSDOC = /\/\*\*([\s\S]*?)\*\//g;
const FENCE = /```(?<attributes>[^\r\n]*)\r?\n(?<body>[\s\S]*?)```/g;
const LINE = /(?:\* ?)((#!+).*)|(?:\* ?)(?:# ?)?(.*)/;
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g;

/** The examples in the JSDoc comments of `path` (relative to the project root). */
function examples(path: string, text: string): Example[] {
  const url = new URL(path, ROOT);
  const found: Example[] = [];
  for (const comment of text.matchAll(JSDOC)) {
    const body = comment[1] ?? "";
    // Deno counts lines from the comment's first line; its text starts after `/*`.
    const commentLine = text.slice(0, comment.index).split("\n").length - 1;
    const commentText = `*${body}`;
    for (const block of commentText.matchAll(FENCE)) {
      const attributes = (block.groups?.attributes ?? "").split(" ");
      if (attributes.includes("ignore")) continue;
      if (UNSUPPORTED.has(attributes[0] ?? "")) {
        throw new Error(`${url.href}: fence the example at line ${commentLine + 1} ts or js`);
      }
      const language = LANGUAGES.get(attributes[0] ?? "");
      if (language === undefined) continue;
      const lines: string[] = [];
      for (const line of (block.groups?.body ?? "").split(/\r?\n/)) {
        const match = LINE.exec(line);
        if (match?.[1] !== undefined) {
          // Deno turns a `#!… deno run --allow-…` line into the test's permissions.
          throw new Error(`${url.href}: the example at line ${commentLine + 1} has a #! line`);
        }
        if (match !== null) lines.push(match[3] ?? "");
      }
      // `str.lines()` in Rust drops the empty piece after a final newline.
      if (lines.at(-1) === "" && (block.groups?.body ?? "").endsWith("\n")) lines.pop();
      const offset = commentText.slice(0, block.index).split("\n").length - 1;
      const count = block[0].split("\n").length;
      const start = commentLine + offset + 1;
      const source = lines.join("\n").replace(
        RELATIVE_IMPORT,
        (_, keyword: string, quote: string, specifier: string) =>
          `${keyword}${quote}${new URL(specifier, url).href}${quote}`,
      );
      found.push({ name: `${url.href}#${start}-${start + count}.${language}`, source, language });
    }
  }
  return found;
}

const MEDIA_TYPES: Record<string, string> = {
  js: "application/javascript",
  jsx: "text/jsx",
  ts: "application/typescript",
  tsx: "text/tsx",
};

for (const place of PLACES) {
  for await (const path of sourceFiles(place)) {
    for (const example of examples(path, await Deno.readTextFile(new URL(path, ROOT)))) {
      const module = `data:${MEDIA_TYPES[example.language]};base64,${
        btoa(String.fromCharCode(...new TextEncoder().encode(example.source)))
      }`;
      Deno.test(example.name, async () => {
        await import(module);
      });
    }
  }
}
