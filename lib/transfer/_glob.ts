/**
 * fnmatch-style globs for file names: `*` any run of characters, `?` one character, `[abc]`,
 * `[a-z]` and `[!abc]` character classes; everything else matches itself.
 *
 * @module
 */

/**
 * Compiles a glob into an anchored regular expression.
 *
 * @param glob The pattern.
 * @returns The regular expression.
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
  return new RegExp(`^${source}$`, "u");
}
