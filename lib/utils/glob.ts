/**
 * fnmatch-style globs for file names: `*` any run of characters, `?` one character, `[abc]`,
 * `[a-z]` and `[!abc]` character classes; everything else matches itself.
 *
 * @module
 */

import { InputError } from "../errors.ts";

/**
 * Compiles an fnmatch-style glob into an anchored regular expression. `*` and `?` match any
 * character, `/` included; a `[` without a closing `]` matches itself.
 *
 * The expression runs in time linear in the name's length times the pattern's: every part
 * between two stars is found at its earliest position inside an atomic lookahead
 * (`(?=([\s\S]*?part))\1`), so the engine never backtracks into an earlier star. With fixed-width
 * parts the earliest match is always a correct choice, so the semantics stay fnmatch's.
 *
 * @example Usage
 * ```ts
 * import { globToRegExp } from "./glob.ts";
 * const regExp = globToRegExp("[!a-c]?.txt");
 * console.log(regExp.test("d1.txt")); // true
 * console.log(regExp.test("a1.txt")); // false
 * ```
 *
 * @param glob The pattern.
 * @returns The regular expression matching the whole name.
 * @throws {InputError} When a character class is invalid (a range out of order such as `[z-a]`).
 */
export function globToRegExp(glob: string): RegExp {
  const parts = globParts(glob);
  let source = `^${parts[0]}`;
  if (parts.length > 1) {
    // Parts between stars: earliest match, atomic (a lookahead is never re-entered).
    const middle = parts.slice(1, -1).filter((part) => part !== "");
    middle.forEach((part, i) => source += `(?=([\\s\\S]*?${part}))\\${i + 1}`);
    source += `[\\s\\S]*${parts.at(-1)}`;
  }
  try {
    return new RegExp(`${source}$`, "u");
  } catch (error) {
    // E.g. a range out of order, `[z-a]`.
    throw new InputError(
      `Invalid glob '${glob}' (${
        error instanceof Error ? error.message : error
      }): fix its [...] class`,
    );
  }
}

// The glob cut at its stars, each part translated into a fixed-width regular expression.
function globParts(glob: string): string[] {
  const parts: string[] = [""];
  const add = (source: string) => parts[parts.length - 1] += source;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*") parts.push("");
    else if (char === "?") add("[\\s\\S]");
    else if (char === "[") {
      const end = glob.indexOf("]", glob[i + 1] === "!" ? i + 3 : i + 2);
      if (end < 0) {
        add("\\[");
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith("!");
      if (negate) body = body.slice(1);
      add(`[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`);
      i = end;
    } else add(char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  }
  return parts;
}

/**
 * Makes a name filter: true for names that match `pattern` and, when given, not `excludePattern`.
 * Both globs are compiled once.
 *
 * @example Usage
 * ```ts
 * import { globFilter } from "./glob.ts";
 * const wanted = globFilter("*.csv", "tmp_*");
 * console.log(wanted("data.csv")); // true
 * console.log(wanted("tmp_data.csv")); // false
 * ```
 *
 * @param pattern Glob the name must match.
 * @param excludePattern Glob the name must not match.
 * @returns The filter.
 */
export function globFilter(
  pattern: string,
  excludePattern?: string,
): (name: string) => boolean {
  const include = globToRegExp(pattern);
  const exclude = excludePattern === undefined ? undefined : globToRegExp(excludePattern);
  return (name) => include.test(name) && !exclude?.test(name);
}
