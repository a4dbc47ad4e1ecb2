// Words for a POSIX shell command line that tests hand to bash or tmux: a path may hold spaces,
// quotes or non-ASCII letters (a checkout under `with space/Proben-Über`).

/** `word` in single quotes, safe as one shell word whatever it holds. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The words quoted and joined with spaces. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
