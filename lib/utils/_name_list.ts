// Names in a message, capped: an error about 2,000 files names a few and counts the rest, so
// the line stays readable (the full list is in the error's data, or the CLI's --json).

/** Names shown in a message before the rest is counted. */
export const SHOWN_NAMES = 5;

/**
 * `'a', 'b', 'c'` for a few names; `'a', 'b', 'c', 'd', 'e' and 1,995 more` for many.
 *
 * @param names The names.
 * @param shown How many are quoted.
 * @returns The text.
 */
export function nameList(names: readonly string[], shown: number = SHOWN_NAMES): string {
  const quoted = names.slice(0, shown).map((name) => `'${name}'`).join(", ");
  const rest = names.length - shown;
  return rest > 0 ? `${quoted} and ${rest.toLocaleString("en-US")} more` : quoted;
}
