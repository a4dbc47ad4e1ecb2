// deno-lint-ignore-file no-console -- a measuring script that reports to the terminal
/**
 * Counts the lines of the TypeScript files under a folder (default `lib/`): total, code, comment
 * and blank, the way cloc counts them (a line with code and a trailing comment is code).
 *
 * Usage: `deno run --allow-read scripts/line_counts.ts [folder]`
 *
 * @module
 */

import { join } from "node:path";

/** Line counts of one or more files. */
export interface LineCounts {
  total: number;
  code: number;
  comment: number;
  blank: number;
}

/**
 * Classifies the lines of a TypeScript source. Block comments are followed line by line; a
 * comment opener inside a string is rare enough in this tree to be ignored.
 *
 * @param source The file's text.
 * @returns Its counts.
 */
export function countLines(source: string): LineCounts {
  const counts: LineCounts = { total: 0, code: 0, comment: 0, blank: 0 };
  let inBlock = false;
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    counts.total++;
    if (inBlock) {
      counts.comment++;
      if (line.includes("*/")) inBlock = false;
    } else if (line === "") counts.blank++;
    else if (line.startsWith("//")) counts.comment++;
    else if (line.startsWith("/*")) {
      counts.comment++;
      inBlock = !line.includes("*/", 2);
    } else counts.code++;
  }
  if (source.endsWith("\n")) {
    counts.total--;
    counts.blank--;
  }
  return counts;
}

async function countFolder(dir: string, into: LineCounts): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) await countFolder(path, into);
    else if (entry.name.endsWith(".ts")) {
      const counts = countLines(await Deno.readTextFile(path));
      into.total += counts.total;
      into.code += counts.code;
      into.comment += counts.comment;
      into.blank += counts.blank;
    }
  }
}

if (import.meta.main) {
  const counts: LineCounts = { total: 0, code: 0, comment: 0, blank: 0 };
  await countFolder(Deno.args[0] ?? "lib", counts);
  const share = (n: number) => `${Math.round((100 * n) / counts.total)} %`;
  console.log(
    `total ${counts.total}, code ${counts.code}, comments ${counts.comment} (${
      share(counts.comment)
    }), blank ${counts.blank}`,
  );
}
