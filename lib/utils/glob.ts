/**
 * fnmatch-style globs for file names: `*` any run of characters, `?` one character, `[abc]`,
 * `[a-z]` and `[!abc]` character classes; everything else matches itself.
 *
 * @example Usage
 * ```ts
 * import { globFilter, globToRegExp } from "./glob.ts";
 * console.log(globToRegExp("*.csv").test("data.csv")); // true
 * console.log(["a.csv", "b.txt"].filter(globFilter("*", "*.txt"))); // ["a.csv"]
 * ```
 *
 * @module
 */

import { InputError } from "../http/errors.ts";

/**
 * Compiles an fnmatch-style glob into an anchored regular expression. `*` and `?` match any
 * character, `/` included; a `[` without a closing `]` matches itself.
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
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else if (char === "[") {
      const end = glob.indexOf("]", glob[i + 1] === "!" ? i + 3 : i + 2);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, end);
      const negate = body.startsWith("!");
      if (negate) body = body.slice(1);
      source += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`, "u");
  } catch (error) {
    // E.g. a range out of order, `[z-a]`.
    throw new InputError(
      `Invalid glob '${glob}' (${
        error instanceof Error ? error.message : error
      }): fix its [...] class`,
    );
  }
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
