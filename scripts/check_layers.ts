// deno-lint-ignore-file no-console -- a check script that reports to the terminal
/**
 * Fails when an import under `lib/` runs up a layer or when two files import each other. The
 * layers are those of docs/architecture.md, bottom first; a folder may import its own files and
 * any folder of a lower layer. `lib/testing/` stands apart: it imports only the bottom layers
 * (the errors, the `http/` vocabulary and the utilities), and nothing in the library imports it.
 *
 * Static imports and re-exports count (`import`, `import type`, `export ... from`); a dynamic
 * `import()` (the CLI's lazy command groups) does not.
 *
 * Usage: `deno run --allow-read=lib scripts/check_layers.ts`
 *
 * @module
 */

import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Each layer's folders (or files), bottom first, relative to `lib/`. */
export const LAYERS: readonly (readonly string[])[] = [
  ["errors.ts"],
  ["http"],
  ["utils"],
  ["config"],
  ["resources"],
  ["transfer"],
  ["model"],
  ["convert", "import", "collection_sync"],
  ["manager"],
  ["cli"],
];

/** The test server's folder: outside the library's layers; it may import layers up to `utils/`. */
export const TESTING = "testing";
const TESTING_CEILING = 2;

/** One module's static imports of other modules under `lib/`, as paths relative to `lib/`. */
export interface ModuleImports {
  readonly file: string;
  readonly imports: readonly string[];
}

const STATIC_IMPORT =
  /^(?:import|export)(?:\s+type)?\s*(?:\{[^}]*\}|\*(?:\s+as\s+\w+)?|\w+(?:\s*,\s*\{[^}]*\})?)\s*from\s*"([^"]+)"|^import\s*"([^"]+)"/gm;

/**
 * The module specifiers a source file imports statically (top-level statements only, so the
 * examples in its comments do not count).
 *
 * @param source The module's text.
 * @returns The specifiers, in order.
 */
export function importSpecifiers(source: string): string[] {
  return [...source.matchAll(STATIC_IMPORT)].map((match) => (match[1] ?? match[2]) as string);
}

/**
 * The layer of a path relative to `lib/`: its index in {@linkcode LAYERS}, `"testing"`, or
 * `undefined` for a file no layer names.
 *
 * @param path A path relative to `lib/`, with `/` separators.
 * @returns The layer.
 */
export function layerOf(path: string): number | "testing" | undefined {
  const top = path.split("/")[0] as string;
  if (top === TESTING) return "testing";
  const index = LAYERS.findIndex((layer) => layer.includes(top));
  return index === -1 ? undefined : index;
}

/**
 * The problems in a set of modules: imports that run up a layer (or into the test server),
 * files in no layer, and pairs of files that import each other.
 *
 * @param modules Every module under `lib/` with its imports.
 * @returns One line per problem, sorted.
 */
export function layerProblems(modules: readonly ModuleImports[]): string[] {
  const problems: string[] = [];
  const edges = new Set<string>();
  for (const { file, imports } of modules) {
    const from = layerOf(file);
    if (from === undefined) problems.push(`${file}: in no layer (add its folder to LAYERS)`);
    for (const target of imports) {
      edges.add(`${file} ${target}`);
      const to = layerOf(target);
      if (from === undefined || to === undefined) continue;
      if (to === "testing") {
        if (from !== "testing") {
          problems.push(`${file} -> ${target}: the library imports the test server`);
        }
      } else if (from === "testing") {
        if (to > TESTING_CEILING) {
          problems.push(`${file} -> ${target}: the test server imports above utils/`);
        }
      } else if (to > from) {
        problems.push(`${file} -> ${target}: runs up from ${LAYERS[from]} to ${LAYERS[to]}`);
      }
    }
  }
  for (const edge of edges) {
    const [a, b] = edge.split(" ") as [string, string];
    if (a < b && edges.has(`${b} ${a}`)) problems.push(`${a} <-> ${b}: import each other`);
  }
  return problems.sort();
}

/**
 * Reads every module under a `lib/` folder with its static imports of other `lib/` modules.
 *
 * @param lib The `lib/` folder.
 * @returns The modules, paths relative to `lib/` with `/` separators.
 */
export async function readModules(lib: string): Promise<ModuleImports[]> {
  const modules: ModuleImports[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts")) {
        const imports = importSpecifiers(await Deno.readTextFile(path))
          .filter((specifier) => specifier.startsWith("."))
          .map((specifier) => normalize(join(dirname(path), specifier)))
          .map((target) => relative(lib, target).replaceAll("\\", "/"))
          .filter((target) => !target.startsWith(".."));
        modules.push({ file: relative(lib, path).replaceAll("\\", "/"), imports });
      }
    }
  };
  await walk(lib);
  return modules.sort((a, b) => a.file.localeCompare(b.file));
}

if (import.meta.main) {
  const lib = fileURLToPath(new URL("../lib/", import.meta.url));
  const problems = layerProblems(await readModules(lib));
  if (problems.length > 0) {
    console.error(`${problems.length} layering problem(s) under lib/ (see docs/architecture.md):`);
    for (const problem of problems) console.error(`  ${problem}`);
    Deno.exit(1);
  }
}
